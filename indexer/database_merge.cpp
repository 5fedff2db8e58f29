#include "indexer/database_merge.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <future>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <unordered_set>

#include "core/bounded_queue.h"
#include "core/thread_group.h"
#include "indexer/input_format.h"
#include "indexer/merged_positions.h"
#include "indexer/stored_game.h"
#include "store/merge_sql.h"
#include "store/names_sql.h"
#include "store/read_snapshot.h"
#include "store/schema_version.h"

namespace pgnbase::indexer {

namespace {

using Clock = std::chrono::steady_clock;

// A batch is cut at whichever comes first: enough games for a sorted run the position
// index merges cheaply (about 170k postings of master games), or enough blob bytes that
// the batches in flight stay small when games carry long comments (TCEC).
constexpr size_t kBatchGames = 2048;
constexpr size_t kBatchBytes = size_t{8} << 20;

constexpr std::string_view kCorruptKind = "corrupt stored game";

// A source's position segment in the other database, being read and decoded on a thread
// of its own while the games are read and replayed; null when the source is indexed by
// replay. Every batch of the source waits for it, so all take the same way.
using PendingPositions = std::shared_future<std::unique_ptr<SourcePositions>>;

const SourcePositions* wait_for(const PendingPositions& positions) {
  return positions.valid() ? positions.get().get() : nullptr;
}

struct OtherSource {
  int64_t id = 0;
  std::string path;
  std::optional<uint64_t> size;
  std::string content_hash;
  uint64_t duplicates = 0;
};

// Consecutive game ids of one source: a source's games are one run unless games of a
// removed source moved to it (docs/schema.md, sources).
struct IdRun {
  int64_t first = 0, last = 0;
};

// Some games of one source, read, then checked and indexed on a worker.
struct MergeBatch {
  uint64_t index = 0;
  std::vector<StoredGame> games;
  // The positions of the batch's good games, sorted; game_id is the game's index among
  // them until the writer gives it its id. Empty when the source's positions are taken
  // from the other database (each game's position_hash is set instead).
  std::vector<PostingSorter::Record> postings;
};

// Checks each game and makes the postings of the good ones (what import_pipeline.cpp's
// workers do for parsed games), or, with positions, the sum that checks the game's
// postings in the other database (merged_positions.h).
void check_batch(MergeBatch& batch, bool keep_annotations, const PendingPositions& pending) {
  for (StoredGame& game : batch.games) check_stored_game(game, keep_annotations);  // sets game.problem
  if (const SourcePositions* positions = wait_for(pending)) {
    for (StoredGame& game : batch.games) {
      if (!game.problem.empty()) continue;
      game.position_hash = positions->replay_hash(game.other_id, game.keys, game.record.codes, uint8_t(game.record.result));
      game.keys = {};
    }
    return;
  }
  // Made as an import's chunk's are (import_pipeline.cpp).
  make_game_postings(
      [&batch](const auto& visit) {
        for (const StoredGame& game : batch.games)
          if (game.problem.empty()) visit(game.keys, game.record.codes, game.record.result);
      },
      batch.postings);
  for (StoredGame& game : batch.games) game.keys = {};
}

// Runs check_batch on `threads` workers while this thread reads the next batches
// (read_next: nullopt at the end) and writes the checked ones in order (write). With one
// thread, all on this one. Rethrows the first error of any thread.
void check_in_threads(unsigned threads, bool keep_annotations, const PendingPositions& positions,
                      const std::function<std::optional<MergeBatch>()>& read_next,
                      const std::function<void(MergeBatch&)>& write) {
  if (threads <= 1) {
    while (std::optional<MergeBatch> batch = read_next()) {
      check_batch(*batch, keep_annotations, positions);
      write(*batch);
    }
    return;
  }
  BoundedQueue<MergeBatch> to_check(threads);
  std::mutex mutex;
  std::condition_variable changed;
  std::map<uint64_t, MergeBatch> checked;
  bool failed = false;
  ThreadGroup group([&] {
    to_check.close();
    std::lock_guard lock(mutex);
    failed = true;
    changed.notify_all();
  });
  try {
    for (unsigned i = 0; i < threads; ++i)
      group.start(
          [&] {
            while (std::optional<MergeBatch> batch = to_check.pop()) {
              check_batch(*batch, keep_annotations, positions);
              std::lock_guard lock(mutex);
              const uint64_t index = batch->index;
              checked.emplace(index, std::move(*batch));
              changed.notify_all();
            }
          },
          "merge worker " + std::to_string(i + 1) + " of " + std::to_string(threads), ThreadRole::Worker);
    // As many batches ahead as the import keeps chunks: each worker busy, one more queued each.
    const uint64_t ahead = 2 * uint64_t(threads) + 1;
    uint64_t read = 0, written = 0;
    bool more = true;
    for (;;) {
      while (more && read - written < ahead) {
        std::optional<MergeBatch> batch = read_next();
        if (!batch) {
          more = false;
          break;
        }
        batch->index = read++;
        if (!to_check.push(std::move(*batch))) break;  // a worker failed
      }
      if (written == read) break;
      MergeBatch batch;
      {
        std::unique_lock lock(mutex);
        changed.wait(lock, [&] { return checked.count(written) > 0 || failed; });
        auto it = checked.find(written);
        if (it == checked.end()) break;  // a worker failed: join() rethrows its error
        batch = std::move(it->second);
        checked.erase(it);
      }
      write(batch);
      ++written;
    }
    to_check.close();
    group.join();
  } catch (...) {
    to_check.close();
    try {
      group.join();
    } catch (...) {  // the first error is the one to report
    }
    throw;
  }
}

// Runs f, turning a failure to read the other database into an InputError,
// so that the import goes on with its next input (a failure of DB stays fatal).
template <class F>
auto reading(F&& f) {
  try {
    return f();
  } catch (const store::StoreError& e) {
    // The message names the database: "database 'x.db': database disk image is malformed".
    throw InputError(std::string(e.what()) + "; not merged");
  }
}

// What the merge needs of the other database before its games: its names, openings,
// sources, where each source's games are, and its copy rows.
class OtherDatabase {
 public:
  explicit OtherDatabase(const std::string& path)
      : path_(path),
        db_(reading([&] { return store::open_for_reading(path); })),
        snapshot_(db_),
        positions_db_(reading([&] { return store::open_for_reading(path); })),
        positions_snapshot_(positions_db_) {
    reading([&] { load(); });
  }

  const std::string& path() const { return path_; }
  // A second connection, with a snapshot of its own, for reading the sources' position
  // segments (merged_positions.h) on another thread, one source at a time. Were the
  // file changed between the two snapshots, the segment's check against the games
  // would fail and the source be indexed by replay.
  store::Database& positions_database() { return positions_db_; }
  const std::vector<OtherSource>& sources() const { return sources_; }
  const std::vector<IdRun>& runs_of(int64_t source) const {
    static const std::vector<IdRun> none;
    auto it = runs_.find(source);
    return it == runs_.end() ? none : it->second;
  }
  // Runs of games whose source has no row: not merged.
  const std::vector<std::pair<IdRun, int64_t>>& orphans() const { return orphans_; }
  // The games other sources of OTHER also held, by source (game_copies).
  const std::vector<int64_t>& copies_of(int64_t source) const {
    static const std::vector<int64_t> none;
    auto it = copies_.find(source);
    return it == copies_.end() ? none : it->second;
  }
  bool is_copied(int64_t game) const { return copied_games_.count(game) > 0; }

  // Reads the games of `runs` in batches; one at a time, on this database's thread.
  class GameReader {
   public:
    GameReader(OtherDatabase& other, const std::vector<IdRun>& runs)
        : other_(other), runs_(runs), statement_(other.db_.prepare(store::sql::kMergeGamesInRange)) {}
    std::optional<MergeBatch> next() {
      return reading([&] { return read_batch(); });
    }

   private:
    std::optional<MergeBatch> read_batch() {
      MergeBatch batch;
      size_t bytes = 0;
      while (batch.games.size() < kBatchGames && bytes < kBatchBytes) {
        if (!in_run_) {
          if (next_run_ == runs_.size()) break;
          statement_.reset();
          statement_.bind_int64(1, runs_[next_run_].first);
          statement_.bind_int64(2, runs_[next_run_].last);
          ++next_run_;
          in_run_ = true;
        }
        if (!statement_.step()) {
          in_run_ = false;
          continue;
        }
        StoredGame& game = batch.games.emplace_back();
        read_stored_game(statement_, other_.names_, other_.openings_, game);
        const GameRecord& r = game.record;
        bytes += r.moves_blob.size() + r.tags_blob.size() + r.annotations_blob.size() + r.material_blob.size();
      }
      if (batch.games.empty()) return std::nullopt;
      return batch;
    }

    OtherDatabase& other_;
    const std::vector<IdRun>& runs_;
    store::Statement statement_;
    size_t next_run_ = 0;
    bool in_run_ = false;
  };

  // Calls f(RejectRecord) for each reject of `source`, in order. Sources must be asked in
  // ascending id order (one pass over the table).
  template <class F>
  void for_each_reject(int64_t source, F&& f) {
    reading([&] {
      if (!rejects_) {
        rejects_ = db_.prepare(store::sql::kMergeRejects);
        rejects_more_ = rejects_.step();
      }
      while (rejects_more_ && rejects_.column_int64(0) < source) rejects_more_ = rejects_.step();
      while (rejects_more_ && rejects_.column_int64(0) == source) {
        RejectRecord r;
        r.place = GamePlace{.offset = uint64_t(rejects_.column_int64(2)), .line = uint64_t(rejects_.column_int64(3)),
                            .number = uint64_t(rejects_.column_int64(1))};
        r.kind = rejects_.column_text(4);
        r.reason = rejects_.column_text(5);
        const std::span<const std::byte> text = rejects_.column_blob(6);
        r.text.assign(reinterpret_cast<const char*>(text.data()), text.size());
        f(r);
        rejects_more_ = rejects_.step();
      }
    });
  }

 private:
  void load() {
    store::Statement names = db_.prepare(store::sql::kNames);
    while (names.step()) names_.emplace(names.column_int64(0), std::string(names.column_text(1)));
    store::Statement openings = db_.prepare(store::sql::kOpenings);
    while (openings.step()) openings_.emplace(openings.column_int64(0), std::string(openings.column_text(1)));
    store::Statement sources = db_.prepare(store::sql::kMergeSources);
    while (sources.step()) {
      OtherSource& s = sources_.emplace_back();
      s.id = sources.column_int64(0);
      s.path = sources.column_text(1);
      if (!sources.column_is_null(2)) s.size = uint64_t(sources.column_int64(2));
      s.content_hash = sources.column_text(3);
      s.duplicates = uint64_t(std::max<int64_t>(0, sources.column_int64(4)));
    }
    std::unordered_set<int64_t> known;
    for (const OtherSource& s : sources_) known.insert(s.id);
    store::Statement games = db_.prepare(store::sql::kMergeGameSources);
    std::optional<std::pair<IdRun, int64_t>> run;  // the run being read, with its source
    auto close_run = [&] {
      if (!run) return;
      if (known.count(run->second)) runs_[run->second].push_back(run->first);
      else orphans_.push_back(*run);
    };
    while (games.step()) {
      const int64_t id = games.column_int64(0), source = games.column_int64(1);
      if (run && run->second == source) {
        run->first.last = id;
        continue;
      }
      close_run();
      run = std::pair{IdRun{id, id}, source};
    }
    close_run();
    if (db_.has_table("game_copies")) {
      store::Statement copies = db_.prepare(store::sql::kMergeCopies);
      while (copies.step()) {
        copies_[copies.column_int64(1)].push_back(copies.column_int64(0));
        copied_games_.insert(copies.column_int64(0));
      }
    }
  }

  std::string path_;
  store::Database db_;
  store::ReadSnapshot snapshot_;  // every read sees one state of the file
  store::Database positions_db_;
  store::ReadSnapshot positions_snapshot_;
  TextById names_, openings_;
  std::vector<OtherSource> sources_;
  std::map<int64_t, std::vector<IdRun>> runs_;
  std::vector<std::pair<IdRun, int64_t>> orphans_;
  std::map<int64_t, std::vector<int64_t>> copies_;
  std::unordered_set<int64_t> copied_games_;
  store::Statement rejects_;
  bool rejects_more_ = false;
};

// Merges the games, rejects and copy rows of one source of `other` into the writer's
// current source. new_ids maps the other database's ids of games that other sources also
// held (OtherDatabase::is_copied) to DB's id of the game, stored or equal to a stored one.
// With positions, the source's position segment is taken from the other database, and a
// game whose postings there are not those of its replay makes this return false before
// the rejects and copy rows are written, with merged.positions_note saying which: the
// caller then abandons the source and merges it again without positions (by replay).
bool merge_source_rows(OtherDatabase& other, const OtherSource& source, DatabaseWriter& writer,
                       const ImportOptions& options, std::unordered_map<int64_t, int64_t>& new_ids,
                       MergedSource& merged, const PendingPositions& pending) {
  std::vector<int64_t> ids;  // of each good game of a batch, 0 for a skipped duplicate
  std::vector<std::pair<int64_t, int64_t>> merged_ids;  // (id in other, id in DB or 0), with positions
  std::optional<int64_t> mismatch;  // the first game whose postings differ from its replay
  auto write = [&](MergeBatch& batch) {
    const SourcePositions* positions = wait_for(pending);  // ready: the batch was checked
    ids.clear();
    for (StoredGame& game : batch.games) {
      if (!game.problem.empty()) {
        std::string line = other.path() + ": game " + std::to_string(game.other_id) + ": " + game.problem;
        writer.add_reject(RejectRecord{.place = game.record.place, .reason = line, .kind = std::string(kCorruptKind),
                                       .text = ""});
        merged.corrupt_games.push_back(std::move(line));
        continue;
      }
      if (positions && !mismatch && game.position_hash != positions->stored_hash(game.other_id))
        mismatch = game.other_id;
      int64_t id = 0, stored = 0;
      if (options.dedupe && writer.skip_duplicate(game.record)) stored = writer.last_skipped_for();
      else stored = id = writer.add_game(game.record);
      ids.push_back(id);
      if (positions) merged_ids.emplace_back(game.other_id, id);
      if (other.is_copied(game.other_id)) new_ids[game.other_id] = stored;
    }
    // With positions, no postings: the call still writes the batch's new names.
    writer.add_positions(std::move(batch.postings), ids);
  };
  OtherDatabase::GameReader reader(other, other.runs_of(source.id));
  check_in_threads(options.threads, options.build.keep_annotations, pending, [&] { return reader.next(); }, write);
  const SourcePositions* positions = wait_for(pending);
  if (mismatch) {
    merged.positions_note = other.path() + ": source " + source.path + ": the position index's postings of game " +
                            std::to_string(*mismatch) + " are not those of its moves; its positions are made again by replay";
    return false;
  }
  if (positions)
    writer.write_positions_with([positions, merged_ids = std::move(merged_ids)](
                                    store::Database& db, int64_t segment_id, const PositionIndexOptions& position_options) {
      return positions->write(db, segment_id, merged_ids, position_options);
    });

  other.for_each_reject(source.id, [&](const RejectRecord& reject) {
    writer.add_reject(reject);
    if (options.rejects_out) *options.rejects_out << reject.text << "\n\n";
  });
  // This source also held these games of earlier sources: so it holds them in DB too.
  for (int64_t game : other.copies_of(source.id)) {
    auto it = new_ids.find(game);
    if (it != new_ids.end() && it->second != 0) writer.add_copy_of(it->second);  // else not merged
  }
  writer.count_duplicates_skipped_before(source.duplicates);
  return true;
}

// Starts reading the source's position segment in other, to be taken as it is (null
// when the source is to be indexed by replay; a damaged segment says so in note, set
// before the result is ready).
PendingPositions read_positions(OtherDatabase& other, const OtherSource& source, std::string& note) {
  const std::vector<IdRun>& runs = other.runs_of(source.id);
  if (runs.empty()) return {};  // no games: nothing to index
  return std::async(std::launch::async, [&other, &source, &note, first = runs.front().first, last = runs.back().last] {
    std::string why;
    bool damaged = false;
    std::unique_ptr<SourcePositions> positions = reading(
        [&] { return SourcePositions::read(other.positions_database(), source.id, first, last, why, damaged); });
    if (!positions && damaged)
      note = other.path() + ": source " + source.path + ": " + why + "; its positions are made again by replay";
    return positions;
  });
}

}  // namespace

bool is_sqlite_file(const std::string& path) {
  struct stat st{};
  if (path == "-" || ::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char head[kSqliteMagic.size()];
  const bool sqlite = ::read(fd, head, sizeof head) == ssize_t(sizeof head) && std::string_view(head, sizeof head) == kSqliteMagic;
  ::close(fd);
  return sqlite;
}

MergeTotals merge_database(const std::string& other_path, DatabaseWriter& writer, const ImportOptions& options,
                           const std::function<void(const MergedSource&)>& on_source) {
  const auto merge_start = Clock::now();
  OtherDatabase other(other_path);
  MergeTotals totals;
  for (const auto& [run, source] : other.orphans())
    totals.orphans.push_back(other_path + ": games " + std::to_string(run.first) + "-" + std::to_string(run.last) +
                             " name source " + std::to_string(source) + ", which it does not hold: not merged");
  std::unordered_map<int64_t, int64_t> new_ids;
  for (const OtherSource& source : other.sources()) {
    const auto start = Clock::now();
    MergedSource merged;
    merged.path = source.path;
    ++totals.sources;
    auto already = [&](int64_t id) {
      merged.outcome.already_imported = true;
      merged.outcome.existing_source_id = id;
      ++totals.already_in;
      if (on_source) on_source(merged);
    };
    // As for a PGN file: content stored already is skipped, unless --replace.
    if (!options.replace)
      if (std::optional<int64_t> id = writer.find_source(source.content_hash)) {
        already(*id);
        continue;
      }
    writer.begin_source(source.path, source.size);
    if (!options.replace)
      if (std::optional<int64_t> id = writer.find_source(source.content_hash)) {  // imported meanwhile
        writer.abandon_source();
        already(*id);
        continue;
      }
    PendingPositions positions;  // until finish_source has written the segment
    try {
      positions = read_positions(other, source, merged.positions_note);
      if (options.replace) merged.outcome.replaced = writer.replace_sources(source.path, source.content_hash);
      if (!merge_source_rows(other, source, writer, options, new_ids, merged, positions)) {
        // Its postings did not match its games: once more, indexed by replay.
        writer.abandon_source();
        writer.begin_source(source.path, source.size);
        merged.corrupt_games.clear();
        if (options.replace) merged.outcome.replaced = writer.replace_sources(source.path, source.content_hash);
        merge_source_rows(other, source, writer, options, new_ids, merged, {});
      }
    } catch (...) {
      writer.abandon_source_keeping_finished();
      throw;
    }
    merged.outcome.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    merged.outcome.summary = writer.finish_source(source.content_hash, merged.outcome.seconds);
    const SourceSummary& s = merged.outcome.summary;
    totals.games_found += s.games_found;
    totals.merged += s.imported;
    totals.duplicates += s.duplicates;
    totals.rejected += s.rejected;
    if (on_source) on_source(merged);
  }
  totals.seconds = std::chrono::duration<double>(Clock::now() - merge_start).count();
  return totals;
}

}  // namespace pgnbase::indexer
