#include "indexer/database_writer.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <future>
#include <iterator>

#include "core/thread_cpu.h"
#include "indexer/content_hash.h"
#include "store/annotations.h"
#include "store/blob_codec.h"
#include "store/counters.h"
#include "store/game_facets.h"
#include "store/multi_row_insert.h"
#include "store/name_words.h"
#include "indexer/position_index.h"
#include "store/schema.h"
#include "store/schema_version.h"
#include "store/tag_codec.h"
#include "store/games_sql.h"
#include "store/names_sql.h"
#include "indexer/game_encoder.h"
#include "store/sources_sql.h"
#include "store/database_sql.h"

namespace pgnbase::indexer {

namespace {

// Each source's savepoint inside the open transaction (database_writer.h).
constexpr std::string_view kSourceSavepoint = "source";

std::string now_utc() {
  std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  char buffer[32];
  std::tm tm{};
  gmtime_r(&t, &tm);
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

}  // namespace

DatabaseWriter::DatabaseWriter(const std::string& path, WriterOptions options)
    : db_(path, store::Database::Mode::Create, file_writes(options)), options_(std::move(options)) {
  // A second import into the same database queues behind the first.
  db_.wait_for_locks(options_.on_lock_wait);
  db_.configure_for_bulk_load(sorts_on_helpers() ? options_.threads : 0, options_.journal);
  {
    store::Transaction t(db_);
    db_.exec(store::kSchemaSql);
    db_.exec(store::kGamesIndexesSql);
    store::create_position_index_schema(db_);
    store::check_or_write_schema_version(db_);
    t.commit();
  }
  if (options_.stage_rows_from_games != SIZE_MAX) staging_ = std::make_unique<RowStaging>(db_);
}

DatabaseWriter::~DatabaseWriter() = default;

store::Database::Writes DatabaseWriter::file_writes(const WriterOptions& options) {
  const bool behind = options.journal == store::Database::Journal::Private &&
                      (options.write_behind_always || helpers_have_cores(options));
  return behind ? store::Database::Writes::Behind : store::Database::Writes::InPlace;
}

std::optional<int64_t> DatabaseWriter::find_source(const std::string& content_hash) {
  store::Statement& s = db_.cached(store::sql::kSourceByContentHash);
  s.bind_text(1, content_hash);
  std::optional<int64_t> id;
  if (s.step()) id = s.column_int64(0);
  s.reset();  // a cached statement left on a row would hold its read transaction open
  return id;
}

bool DatabaseWriter::has_source_of_size(uint64_t bytes) {
  store::Statement& s = db_.cached(store::sql::kSourceWithHashEnding);
  s.bind_text(1, ContentHasher::ending_for_size(bytes));
  const bool found = s.step();
  s.reset();
  return found;
}

int64_t DatabaseWriter::data_version() {
  store::Statement& s = db_.cached(store::sql::kDataVersion);
  const int64_t version = s.step() ? s.column_int64(0) : 0;
  s.reset();
  return version;
}

void DatabaseWriter::refresh_cached_state() {
  const int64_t version = data_version();
  if (cached_version_ == version) return;
  name_ids_.clear();
  store::Statement names = db_.prepare(store::sql::kNames);
  while (names.step()) {
    const std::string_view name = names.column_text(1);
    name_ids_.add(std::string(name), name_hash(name), names.column_int64(0));
  }
  next_game_id_ = store::next_game_id(db_);  // never an id given before, even to a removed game
  store::Statement max_name_id = db_.prepare(store::sql::kMaxNameId);
  if (max_name_id.step()) next_name_id_ = max_name_id.column_int64(0) + 1;
  opening_ids_.clear();
  store::Statement openings = db_.prepare(store::sql::kOpenings);
  next_opening_id_ = 1;
  while (openings.step()) {
    const std::string_view name = openings.column_text(1);
    opening_ids_.add(std::string(name), name_hash(name), openings.column_int64(0));
    next_opening_id_ = std::max(next_opening_id_, openings.column_int64(0) + 1);
  }
  dedupe_keys_.clear();
  dedupe_keys_loaded_ = false;  // reloaded on the next skip_duplicate
  truncated_.clear();
  cached_version_ = version;
}

void DatabaseWriter::begin_source(const std::string& path, std::optional<uint64_t> size) {
  if (!transaction_) {
    transaction_ = std::make_unique<store::Transaction>(db_);
    transaction_started_ = std::chrono::steady_clock::now();
  }
  db_.savepoint(kSourceSavepoint);
  in_source_ = true;
  refresh_cached_state();
  source_path_ = path;
  source_size_ = size;
  summary_ = SourceSummary{};
  if (staging_) staging_->take_waited_seconds();  // an abandoned source's
  stage_rows_wanted_ = records_held_ = false;  // until the import says (stage_rows)
  // The row exists from the start (games reference it); finish_source fills it in. Its id
  // was never given to another source or segment (a removed one's included).
  source_id_ = store::allocate_source_id(db_);
  first_game_id_ = next_game_id_;
  replaced_in_source_ = false;
  ids_checked_ = false;
  store::Statement& s = db_.cached(store::sql::kInsertPendingSource);
  s.bind_text(1, path);
  if (size) s.bind_int64(2, int64_t(*size));
  else s.bind_null(2);
  s.bind_text(3, now_utc());
  s.bind_int64(4, source_id_);
  s.run();
  summary_.source_id = source_id_;
  // Into an empty table, building the secondary indexes once at the end is several times
  // cheaper than updating eight B-trees per row; finish_source recreates them. The partial
  // ones stay while no game has their column (store/schema.h, kPartialGamesIndexes).
  bool empty;
  {
    store::Statement& any = db_.cached(store::sql::kAnyGame);
    empty = any.step() && any.column_int64(0) == 0;
    any.reset();
  }
  if (empty) db_.exec(store::kDropGameIndexesSql);
  indexes_dropped_ = empty;
  kept_indexes_ = empty ? store::kAllPartialGamesIndexes : 0;
  positions_ = std::make_unique<PositionIndexBuilder>(position_options());
  segment_writer_ = nullptr;
  if (insert_game_) return;  // prepared by the first source, kept for the next
  insert_game_ = db_.prepare(store::sql::kInsertGame);
  insert_games_batch_ = db_.prepare(store::multi_row_insert(store::sql::kInsertGame, kRowsPerInsert));
  insert_annotations_ = db_.prepare(store::sql::kInsertAnnotations);
  insert_reject_ = db_.prepare(store::sql::kInsertReject);
  insert_copy_ = db_.prepare(store::sql::kInsertCopy);
}

PositionIndexOptions DatabaseWriter::position_options() const {
  return PositionIndexOptions{
      .memory_budget_bytes = options_.position_memory_bytes,
      .temp_dir = options_.temp_dir.empty() ? std::filesystem::temp_directory_path() : options_.temp_dir,
      .key_bits = 0,
      .fingerprint_bits = options_.position_fingerprint_bits,
      .lean = true,
      .threads = std::max(1u, options_.threads),
      // Half the -j threads share each spill: where one thread's spills outlasted the
      // writer (16 workers on the device) they keep up, and at -j 2 on 2 busy cores one
      // spills as before (a second cost 5% more wall time there: bench/README.md).
      .spill_threads = std::max(1u, options_.threads / 2)};
}

int64_t DatabaseWriter::intern(HashedName name) {
  if (const int64_t id = name_ids_.find(name.text, name.hash)) return id;
  name_ids_.add(std::string(name.text), name.hash, next_name_id_);
  new_names_.emplace_back(next_name_id_, std::string(name.text));
  return next_name_id_++;
}

int64_t DatabaseWriter::intern_opening(HashedName name) {
  if (const int64_t id = opening_ids_.find(name.text, name.hash)) return id;
  opening_ids_.add(std::string(name.text), name.hash, next_opening_id_);
  new_openings_.emplace_back(next_opening_id_, std::string(name.text));
  return next_opening_id_++;
}

void DatabaseWriter::write_new_names() {
  if (new_names_.empty() && new_openings_.empty()) return;
  if (!ids_checked_) check_whether_ids_follow();
  static const std::string kInsertNames = store::multi_row_insert(store::sql::kInsertName, kRowsPerInsert);
  store::insert_rows(db_.cached(store::sql::kInsertName), db_.cached(kInsertNames), kRowsPerInsert, 2,
                     new_names_.size(), [this](store::Statement& s, int first, size_t row) {
                       if (!name_ids_follow_) s.bind_int64(first, new_names_[row].first);
                       s.bind_text_static(first + 1, new_names_[row].second);
                     });
  if (!new_names_.empty()) check_ids_given(new_names_.back().first, "names");
  // Their words are folded with the rest of the source's (sort_new_name_words): in a first
  // import, on another thread.
  std::move(new_names_.begin(), new_names_.end(), std::back_inserter(unfolded_names_));
  new_names_.clear();
  // A source of millions of players would hold hundreds of megabytes of words: past about
  // a million (some 50 MB), they go in now, sorted, and the rest later.
  if (unfolded_names_.size() * kWordsPerName + new_words_.size() >= kMaxPendingNameWords) write_new_name_words();
  store::Statement& insert_opening = db_.cached(store::sql::kInsertOpening);
  for (const auto& [id, name] : new_openings_) {
    insert_opening.bind_int64(1, id);
    insert_opening.bind_text(2, name);
    insert_opening.run();
  }
  new_openings_.clear();
}

int64_t DatabaseWriter::add_game(const GameRecord& game) {
  // Postings hold 32-bit game ids: refuse a game past that instead of wrapping.
  if (next_game_id_ > int64_t{UINT32_MAX})
    throw store::StoreError(store::StoreErrorKind::Other, 0,
                            db_.path() + ": more than 4,294,967,295 games; the position index holds 32-bit game ids");
  const int64_t id = next_game_id_++;
  ++summary_.games_found;
  ++summary_.imported;
  ++summary_.games_by_language[game.language];
  summary_.moves_bytes += game.moves_blob.size();
  summary_.plies += game.codes.size();
  pending_games_.push_back({&game, id});
  const store::HeaderColumns& h = game.header;
  new_facets_.add(uint32_t(id), h.white_elo, h.black_elo, h.date_key, h.time_control);
  if (pending_games_.size() == size_t(kRowsPerInsert) && !stages_rows()) write_pending_games();
  if (dedupe_keys_loaded_) dedupe_keys_.add_if_absent(uint64_t(game.dedupe_key), uint32_t(id));
  truncated_.add(game, id);
  return id;
}

void DatabaseWriter::begin_chunk(uint32_t distinct_names, uint32_t distinct_openings) {
  // The slots number this chunk's names: no game of another may be left to take.
  if (!pending_games_.empty()) write_pending_games();
  chunk_name_ids_.assign(distinct_names, 0);
  chunk_opening_ids_.assign(distinct_openings, 0);
}

GameRowRefs DatabaseWriter::refs_of(const GameRecord& game) {
  const store::HeaderColumns& h = game.header;
  const NameKeys keys = game.name_keys ? *game.name_keys : name_keys_of(game);
  // A name the chunk named before has its id in the chunk's slot (begin_chunk), and its
  // text is not read: the header's memory, which a worker wrote, is read only to intern.
  // Slot 0: not numbered (a record no worker numbered).
  auto id_of = [](std::vector<int64_t>& chunk_ids, uint32_t slot, auto intern_name) {
    if (slot == 0 || slot > chunk_ids.size()) return intern_name();
    int64_t& id = chunk_ids[slot - 1];
    if (id == 0) id = intern_name();
    return id;
  };
  // A numbered name is present; an unnumbered one may be.
  auto name_id = [&](const std::optional<std::string>& text, size_t hash, uint32_t slot) -> std::optional<int64_t> {
    if (slot == 0 && !text) return std::nullopt;
    return id_of(chunk_name_ids_, slot, [&] { return intern({*text, hash}); });
  };
  GameRowRefs refs;
  refs.event = name_id(h.event, keys.event, keys.event_slot);
  if (keys.site_prefix_length > 0) {
    const std::string_view site = *h.site;
    refs.site = id_of(chunk_name_ids_, keys.site_slot,
                      [&] { return intern({site.substr(0, keys.site_prefix_length), keys.site}); });
    refs.site_suffix = site.substr(keys.site_prefix_length);
  } else {
    refs.site = name_id(h.site, keys.site, keys.site_slot);
  }
  refs.white = name_id(h.white, keys.white, keys.white_slot);
  refs.black = name_id(h.black, keys.black, keys.black_slot);
  if (keys.opening_slot != 0 || !game.opening.empty())
    refs.opening =
        id_of(chunk_opening_ids_, keys.opening_slot, [&] { return intern_opening({game.opening, keys.opening}); });
  return refs;
}

void DatabaseWriter::check_whether_ids_follow() {
  auto largest = [this](std::string_view sql) {
    store::Statement& s = db_.cached(sql);
    const int64_t id = s.step() ? s.column_int64(0) : -1;
    s.reset();
    return id;
  };
  // The first rows not yet written: ids were given as the games and names came.
  const int64_t next_game = pending_games_.empty() ? next_game_id_ : pending_games_.front().second;
  const int64_t next_name = new_names_.empty() ? next_name_id_ : new_names_.front().first;
  const int64_t largest_game = largest(store::sql::kMaxGameId);
  game_ids_follow_ = largest_game == next_game - 1;
  name_ids_follow_ = largest(store::sql::kMaxNameId) == next_name - 1;
  ids_checked_ = true;
}

void DatabaseWriter::check_ids_given(int64_t wanted, const char* table) const {
  if (db_.last_insert_rowid() != wanted)
    throw store::StoreError(store::StoreErrorKind::Other, 0,
                            db_.path() + ": a row of " + table + " got id " + std::to_string(db_.last_insert_rowid()) +
                                " instead of " + std::to_string(wanted) + " (a bug; nothing of this source was kept)");
}

void DatabaseWriter::write_pending_games() {
  finish_staged_rows();
  if (pending_games_.empty()) return;
  if (stages_rows() && pending_games_.size() >= options_.stage_rows_from_games) {
    stage_pending_games();
    finish_staged_rows();
    return;
  }
  if (!ids_checked_) check_whether_ids_follow();
  const std::vector<GameToWrite> games = take_pending_games();
  insert_games_rows(insert_game_, insert_games_batch_, games, source_id_, !game_ids_follow_);
  check_ids_given(games.back().id, "games");
  insert_annotation_rows(insert_annotations_, games);
}

namespace {

// Whether the game's row has a value in the column (bind_game_row).
bool has_value(const GameRecord& game, store::PartialIndexColumn column) {
  switch (column) {
    case store::PartialIndexColumn::Eco: return eco_source_of(game) != store::EcoSource::None;
    case store::PartialIndexColumn::DateKey: return game.header.date_key.has_value();
    case store::PartialIndexColumn::WhiteElo: return game.header.white_elo.has_value();
    case store::PartialIndexColumn::BlackElo: return game.header.black_elo.has_value();
  }
  return true;
}

}  // namespace

void DatabaseWriter::drop_kept_indexes_for(const GameRecord& game) {
  for (size_t i = 0; i < std::size(store::kPartialGamesIndexes); ++i) {
    const store::PartialIndexSet bit = 1u << i;
    if ((kept_indexes_ & bit) && has_value(game, store::kPartialGamesIndexes[i].column)) {
      db_.exec(store::kPartialGamesIndexes[i].drop_sql);
      kept_indexes_ &= ~bit;
    }
  }
}

std::vector<GameToWrite> DatabaseWriter::take_pending_games(store::WholeMaterialBlocks staged_material) {
  std::vector<GameToWrite> games;
  games.reserve(pending_games_.size());
  for (const auto& [game, id] : pending_games_) {
    if (kept_indexes_) drop_kept_indexes_for(*game);
    if (!staged_material.contains(id)) material_.add(id, game->material_blob);
    games.push_back({game, id, refs_of(*game)});
  }
  pending_games_.clear();
  return games;
}

void DatabaseWriter::stage_pending_games() {
  // The whole material blocks of the games (ids consecutive: each stored game took the
  // next) are built with their rows; the writer fills the blocks at the ends, which other
  // chunks' games share.
  store::WholeMaterialBlocks material;
  if (!pending_games_.empty()) {
    const int64_t first = pending_games_.front().second, last = pending_games_.back().second;
    if (last - first + 1 == int64_t(pending_games_.size())) material = store::whole_material_blocks(first, last);
  }
  std::vector<GameToWrite> games = take_pending_games(material);  // first: it drops the indexes the games fill
  const size_t parts = staging_->start(std::move(games), source_id_, options_.threads, kept_indexes_, material);
  summary_.steps.rows_parts += parts;
  staged_parts_ += parts;
}

void DatabaseWriter::finish_staged_rows() {
  if (!staging_ || !staging_->in_flight()) return;
  const std::optional<bool> annotations_moved = staging_->finish(db_);
  const std::span<const GameToWrite> games = staging_->games();
  if (!annotations_moved) {
    // This SQLite cannot load images inside a transaction: the rows go in from here.
    insert_games_rows(insert_game_, insert_games_batch_, games, source_id_, true);
    staging_->write_material_blocks(db_);
  }
  // Long annotations are not staged (row_staging.h): the writer's CPU on the TCEC bench
  // file was 6% more with them staged.
  if (!annotations_moved.value_or(false)) insert_annotation_rows(insert_annotations_, games);
  staging_->abandon();  // nothing left in flight; drops the games
  if (!annotations_moved) staging_.reset();
}

bool DatabaseWriter::wants_sorted_postings() const { return positions_ && positions_->wants_sorted_runs(); }

void DatabaseWriter::add_positions(std::vector<PostingSorter::Record> postings, std::span<const int64_t> ids,
                                   bool sorted) {
  if (stages_rows() && records_held_ && pending_games_.size() >= options_.stage_rows_from_games) {
    // The last chunk's staged rows go in, and this chunk's are built while this thread
    // goes on with the next: its records live until then (stage_rows).
    finish_staged_rows();
    stage_pending_games();
  } else {
    write_pending_games();  // while the chunk's records still live
  }
  // Ids grow with the index in the chunk, so the run stays in its order.
  bool skipped = false;
  uint64_t games = 0;
  for (int64_t id : ids) {
    skipped |= id == 0;
    games += id != 0;
  }
  if (!skipped && !ids.empty() && ids.back() - ids.front() == int64_t(ids.size()) - 1) {
    // The chunk's games have consecutive ids: its postings keep their index in the chunk,
    // and the sorter adds the first id when it reads them (no pass over them here).
    summary_.positions += postings.size();
    positions_->add_sorted_run(std::move(postings), games, uint32_t(ids.front()), uint32_t(ids.front()),
                               uint32_t(ids.back()), sorted);
  } else {
    if (skipped)
      std::erase_if(postings, [&](const PostingSorter::Record& r) { return r.game_id >= ids.size() || ids[r.game_id] == 0; });
    for (PostingSorter::Record& r : postings) r.game_id = uint32_t(ids[r.game_id]);
    summary_.positions += postings.size();
    positions_->add_sorted_run(std::move(postings), games, sorted);
  }
  write_new_names();  // once per chunk, while the workers parse the next ones
}

bool DatabaseWriter::skip_duplicate(const GameRecord& game) {
  if (!dedupe_keys_loaded_) {
    write_pending_games();  // the scan must see them
    store::Statement keys = db_.prepare(store::sql::kDedupeKeys);
    std::vector<uint32_t> unfinished;
    while (keys.step()) {
      const auto id = uint32_t(keys.column_int64(1));
      dedupe_keys_.add_if_absent(uint64_t(keys.column_int64(0)), id);
      if (store::GameResult(keys.column_int64(2)) == store::GameResult::Unknown) unfinished.push_back(id);
    }
    truncated_.set_unfinished_ids(std::move(unfinished));
    dedupe_keys_loaded_ = true;
  }
  int64_t stored_id = 0;
  if (const uint32_t first = dedupe_keys_.find(uint64_t(game.dedupe_key)); first != 0) {
    stored_id = first;
    if (summary_.first_duplicates.size() < SourceSummary::kNamedDuplicates)
      summary_.first_duplicates.push_back(TruncatedCopy{.game_number = game.place.number, .line = game.place.line,
                                                        .stored_id = stored_id, .plies = game.codes.size()});
  } else {
    std::optional<TruncatedCopy> copy = truncated_.find(game);
    if (!copy) return false;
    summary_.truncated.push_back(*copy);
    if (!copy->new_is_shorter) return false;
    stored_id = copy->stored_id;
  }
  ++summary_.games_found;
  ++summary_.duplicates;
  last_skipped_for_ = stored_id;
  add_copy_of(stored_id);
  return true;
}

void DatabaseWriter::add_copy_of(int64_t stored_id) {
  if (stored_id >= first_game_id_) return;  // a game of this source is its own
  insert_copy_.reset();
  insert_copy_.bind_int64(1, stored_id);
  insert_copy_.bind_int64(2, source_id_);
  insert_copy_.run();
}

std::vector<RemovedSource> DatabaseWriter::replace_sources(const std::optional<std::string>& path,
                                                           const std::string& content_hash) {
  std::vector<int64_t> ids;
  {
    store::Statement s = db_.prepare(store::sql::kSourcesToReplace);
    if (path) s.bind_text(1, *path);
    else s.bind_null(1);
    s.bind_text(2, content_hash);
    s.bind_int64(3, source_id_);
    while (s.step()) ids.push_back(s.column_int64(0));
  }
  std::vector<RemovedSource> removed;
  material_.flush();  // a removal may take games out of the block being filled
  for (int64_t id : ids) removed.push_back(remove_source(db_, id));
  replaced_in_source_ = true;
  ids_checked_ = false;  // the largest ids may be gone
  dedupe_keys_.clear();
  dedupe_keys_loaded_ = false;
  truncated_.clear();
  return removed;
}

void DatabaseWriter::add_reject(const RejectRecord& reject) {
  ++summary_.games_found;
  ++summary_.rejected;
  ++summary_.rejects_by_kind[reject.kind];
  store::Statement& s = insert_reject_;
  s.reset();
  s.bind_int64(1, source_id_);
  s.bind_int64(2, int64_t(reject.place.number));
  s.bind_int64(3, int64_t(reject.place.offset));
  s.bind_int64(4, reject.place.line);
  s.bind_text(5, reject.kind);
  s.bind_text(6, reject.reason);
  s.bind_blob(7, bytes_of(reject.text));
  s.run();
}

bool DatabaseWriter::has_name_words() {
  store::Statement& s = db_.cached(store::sql::kAnyNameWord);
  const bool any = s.step() && s.column_int64(0) != 0;
  s.reset();
  return any;
}

void DatabaseWriter::sort_new_name_words() {
  for (const auto& [id, name] : unfolded_names_)
    for (std::string& word : store::fold_name_words(name)) new_words_.emplace_back(std::move(word), id);
  unfolded_names_.clear();
  std::sort(new_words_.begin(), new_words_.end());
  new_words_.erase(std::unique(new_words_.begin(), new_words_.end()), new_words_.end());
}

void DatabaseWriter::write_new_name_words(bool already_sorted) {
  // name_words is keyed (word, name_id), WITHOUT ROWID: the source's rows sorted go in
  // as appends to each stretch of the b-tree, where a chunk's alone went in all over it.
  if (!already_sorted) sort_new_name_words();
  static const std::string kInsertWords = store::multi_row_insert(store::sql::kInsertNameWord, kRowsPerInsert);
  store::insert_rows(db_.cached(store::sql::kInsertNameWord), db_.cached(kInsertWords), kRowsPerInsert, 2,
                     new_words_.size(), [this](store::Statement& s, int first, size_t row) {
                       s.bind_text_static(first, new_words_[row].first);
                       s.bind_int64(first + 1, new_words_[row].second);
                     });
  new_words_.clear();
}

SourceSummary DatabaseWriter::finish_source(const std::string& content_hash, double seconds) {
  // The position index's merge runs on its threads while this one writes the last rows
  // and builds the games indexes.
  if (!segment_writer_) positions_->start_merge();
  write_pending_games();
  material_.flush();
  write_new_names();
  using Clock = std::chrono::steady_clock;
  auto seconds_since = [](Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); };
  if (indexes_dropped_) {  // recreates the indexes begin_source dropped
    // The name words are sorted on another thread meanwhile, and, when they go into an
    // empty table, their rows built there too, which this thread moves in whole
    // (row_staging.h): 6% of its CPU on the master-style bench file.
    const bool may_stage_words = staging_ && !has_name_words();
    std::future<std::optional<store::DatabaseImage>> words_sorted =
        std::async(std::launch::async, [this, may_stage_words]() -> std::optional<store::DatabaseImage> {
          sort_new_name_words();
          if (!may_stage_words || new_words_.size() < options_.stage_name_words_from) return std::nullopt;
          return staging_->build_name_words(new_words_);
        });
    const double started = this_thread_cpu_seconds();
    const Clock::time_point wall_started = Clock::now();
    auto insert_ready_blocks = [this] {
      if (!segment_writer_) positions_->insert_ready_blocks(db_, source_id_);
    };
    const int run_kib = !sorts_on_helpers()               ? 0
                        : options_.index_sort_run_kib > 0 ? options_.index_sort_run_kib
                                                          : store::Database::kHelperRunKib;
    db_.build_indexes(store::kSchemaSql, insert_ready_blocks, run_kib);
    if (!options_.games_indexes_at_publish) db_.build_indexes(store::kGamesIndexesSql, insert_ready_blocks, run_kib);
    summary_.steps.games_indexes_cpu = this_thread_cpu_seconds() - started;
    summary_.steps.games_indexes_wall = seconds_since(wall_started);
    std::optional<store::DatabaseImage> words = words_sorted.get();
    if (words && staging_->move_name_words(db_, std::move(*words), new_words_.size()))
      new_words_.clear();
    else
      write_new_name_words(/*already_sorted=*/true);
  } else {
    write_new_name_words();
  }
  indexes_dropped_ = false;
  kept_indexes_ = 0;
  const double segment_started = this_thread_cpu_seconds();
  const Clock::time_point segment_wall_started = Clock::now();
  summary_.steps.spills_held_up_wall = positions_->spill_held_up_seconds();
  if (staging_) summary_.steps.rows_waited_wall = staging_->take_waited_seconds();
  store::SegmentStats stats;
  if (segment_writer_) {
    stats = segment_writer_(db_, source_id_, position_options());
    summary_.positions = stats.postings;
  } else {
    stats = positions_->write_segment(db_, source_id_);
  }
  summary_.position_index_bytes = stats.block_bytes;
  summary_.steps.position_segment_cpu = this_thread_cpu_seconds() - segment_started;
  summary_.steps.position_segment_wall = seconds_since(segment_wall_started);
  positions_.reset();
  segment_writer_ = nullptr;
  store::raise_counter(db_, store::kLastGameId, next_game_id_ - 1);
  std::string languages;
  for (const auto& [code, count] : summary_.games_by_language)
    languages += (languages.empty() ? "" : " ") + code + "=" + std::to_string(count);
  store::Statement& s = db_.cached(store::sql::kFinishSource);
  s.bind_int64(1, source_id_);
  s.bind_text(2, content_hash);
  s.bind_int64(3, int64_t(summary_.games_found));
  s.bind_int64(4, int64_t(summary_.imported));
  s.bind_int64(5, int64_t(summary_.rejected));
  s.bind_double(6, seconds);
  s.bind_text(7, languages);
  s.bind_int64(8, int64_t(summary_.duplicates));
  s.run();
  db_.release_savepoint(kSourceSavepoint);
  in_source_ = false;
  const std::chrono::duration<double> open_for = std::chrono::steady_clock::now() - transaction_started_;
  if (open_for.count() >= options_.commit_after_seconds) commit_sources();
  return summary_;
}

void DatabaseWriter::commit_sources() {
  if (!transaction_ || in_source_) return;
  // Once per commit, not per source: the explorer's per-game ratings, dates and time
  // controls (rewritten whole), and the version that tells readers the games changed.
  // Ids are below 2^32 (add_game).
  store::append_game_facets(db_, uint32_t(next_game_id_ - 1), new_facets_);
  new_facets_.clear();
  store::bump_content_version(db_);
  try {
    transaction_->commit();
  } catch (...) {
    transaction_.reset();  // rolled back: the caches may hold what it undid
    cached_version_.reset();
    throw;
  }
  transaction_.reset();
}

void DatabaseWriter::abandon_source_keeping_finished() noexcept {
  try {
    abandon_source();
    commit_sources();
  } catch (...) {  // the first error is the one to report
  }
}

void DatabaseWriter::abandon_source() {
  if (staging_) staging_->abandon();  // before the records its threads read are gone
  pending_games_.clear();  // their records may be gone; the rollback takes their rows
  chunk_name_ids_.clear();  // ids the rollback may take back
  chunk_opening_ids_.clear();
  material_.clear();
  positions_.reset();
  segment_writer_ = nullptr;
  new_names_.clear();
  unfolded_names_.clear();
  new_words_.clear();
  new_openings_.clear();
  bool whole_transaction = !in_source_ || !transaction_ || !db_.in_transaction();
  if (!whole_transaction) {
    try {
      db_.rollback_to_savepoint(kSourceSavepoint);
      db_.release_savepoint(kSourceSavepoint);
    } catch (const store::StoreError&) {
      whole_transaction = true;
    }
  }
  // SQLite may have rolled the whole transaction back already (a full disk); what is
  // left of it goes too, with the sources finished in it.
  if (whole_transaction) {
    transaction_.reset();
    new_facets_.clear();
  } else {
    new_facets_.drop_from(uint32_t(first_game_id_));
  }
  in_source_ = false;
  indexes_dropped_ = false;  // the rollback restored them
  kept_indexes_ = 0;
  // Names and ids handed out during the abandoned source are gone from the database, and
  // sources it replaced are back. A source that did neither (names are interned only for
  // games added) leaves the caches true: a re-run of thousands of sources, each abandoned as
  // already imported, must not reload them for each.
  if (whole_transaction || next_game_id_ != first_game_id_ || replaced_in_source_) cached_version_.reset();
}

}  // namespace pgnbase::indexer
