#include "dataset/dataset_export.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <iterator>
#include <map>
#include <memory>
#include <set>

#include "core/move_code.h"
#include "dataset/dataset_key.h"
#include "dataset/dataset_meta.h"
#include "dataset/dataset_tables.h"
#include "dataset/export_temporaries.h"
#include "dataset/posting_buckets.h"
#include "store/blob_codec.h"
#include "store/counters.h"
#include "store/database_identity.h"
#include "store/moves_codec.h"
#include "store/read_snapshot.h"
#include "store/game_row.h"
#include "store/game_query.h"
#include "store/games_sql.h"
#include "store/sources_sql.h"
#include "store/schema_version.h"

namespace pgnbase::dataset {

namespace {

namespace fs = std::filesystem;

// The files of one export, written in its temporary folder and renamed into place by
// commit(), all of them and _meta last, or none: a commit that fails halfway takes back
// the files it renamed and the folders it made. Files not committed go with the folder.
class PendingFiles {
 public:
  PendingFiles(fs::path dir, fs::path temp_folder) : dir_(std::move(dir)), temp_folder_(std::move(temp_folder)) {}

  // Where to write the file that will be dir/relative_path (games/source=1/part-000001.parquet
  // is written as games+source=1+part-000001.parquet in the temporary folder).
  fs::path add(const fs::path& relative_path) {
    std::string name = relative_path.string();
    std::replace(name.begin(), name.end(), '/', '+');
    files_.emplace_back(temp_folder_ / name, dir_ / relative_path);
    return files_.back().first;
  }

  // Renames every file into place, then meta_temp over dir/_meta. Refuses (renaming
  // none) when a final name exists. SIGINT, SIGTERM and SIGHUP wait until it is done.
  void commit(const fs::path& meta_temp) {
    for (const auto& [temp, final_path] : files_)
      if (fs::exists(fs::symlink_status(final_path)))
        throw DatasetError(final_path.string() + ": already exists; nothing was replaced");
    for (const auto& [temp, final_path] : files_) bytes_ += fs::file_size(temp);
    SignalsHeld held;
    std::vector<fs::path> renamed, made;
    try {
      for (const auto& [temp, final_path] : files_) {
        make_folders(final_path.parent_path(), made);
        if (::renameat2(AT_FDCWD, temp.c_str(), AT_FDCWD, final_path.c_str(), RENAME_NOREPLACE) != 0)
          throw DatasetError(final_path.string() + ": cannot rename into place: " + std::strerror(errno) +
                             "; nothing was replaced");
        renamed.push_back(final_path);
      }
      if (std::rename(meta_temp.c_str(), (dir_ / "_meta").c_str()) != 0)
        throw DatasetError((dir_ / "_meta").string() + ": cannot replace: " + std::strerror(errno));
    } catch (...) {
      for (auto it = renamed.rbegin(); it != renamed.rend(); ++it) ::unlink(it->c_str());
      for (auto it = made.rbegin(); it != made.rend(); ++it) ::rmdir(it->c_str());
      throw;
    }
  }

  size_t count() const { return files_.size(); }
  uint64_t bytes() const { return bytes_; }

 private:
  // Makes folder and the folders between it and dir that are missing, noting each made.
  void make_folders(const fs::path& folder, std::vector<fs::path>& made) {
    std::vector<fs::path> missing;
    for (fs::path p = folder; !p.empty() && p != dir_ && !fs::exists(fs::symlink_status(p)); p = p.parent_path())
      missing.push_back(p);
    for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
      if (::mkdir(it->c_str(), 0777) == 0) made.push_back(*it);
      else if (errno != EEXIST)
        throw DatasetError(it->string() + ": cannot create the folder: " + std::strerror(errno));
    }
  }

  fs::path dir_, temp_folder_;
  std::vector<std::pair<fs::path, fs::path>> files_;  // (temporary, final)
  uint64_t bytes_ = 0;
};

std::string part_name(int export_number, int piece) {
  char name[48];
  if (piece == 0) std::snprintf(name, sizeof name, "part-%06d.parquet", export_number);
  else std::snprintf(name, sizeof name, "part-%06d-%d.parquet", export_number, piece + 1);
  return name;
}

// kb=N without leading zeros, so that engines infer the partition column as an integer.
std::string bucket_folder(uint32_t bucket) { return "kb=" + std::to_string(bucket); }

int64_t int_of(store::Database& db, std::string_view sql) {
  store::Statement s = db.prepare(sql);
  return s.step() ? s.column_int64(0) : 0;
}

// What the database holds now against what the dataset holds: read in the export's snapshot.
struct DatabaseState {
  int64_t last_game_id = 0;  // the largest game id ever given (ids are never reused)
  int64_t last_change = 0;   // the largest game_changes seq (0: none, or a version 4 database)
  std::vector<int64_t> sources;  // sorted
};

DatabaseState read_state(store::Database& db) {
  DatabaseState state;
  state.last_game_id = store::next_game_id(db) - 1;
  if (db.has_table("game_changes")) state.last_change = int_of(db, store::sql::kLastGameChange);
  store::Statement s = db.prepare(store::sql::kSourceIds);
  while (s.step()) state.sources.push_back(s.column_int64(0));
  return state;
}

// The dataset's _meta as this export will leave it, after checking that dir is either
// new, empty, or an earlier export of this same database with this layout.
DatasetMeta prepare_meta(store::Database& db, const fs::path& dir, const ExportOptions& options,
                         const DatabaseState& state) {
  DatasetMeta meta;
  meta.database_id = store::database_identity(db);
  meta.schema_version = store::check_schema_version(db, db.path()).value_or(0);
  meta.bucket_bits = options.bucket_bits.value_or(ExportOptions::kDefaultBucketBits);
  const std::optional<DatasetMeta> existing = read_dataset_meta(dir);
  if (!existing) {
    if (!holds_no_files(dir))
      throw DatasetError(dir.string() + ": holds files but no _meta: not a pgnbase dataset (give a new or empty folder)");
    return meta;
  }
  const std::string where = (dir / "_meta").string() + ": ";
  if (existing->format_version < kDatasetFormatVersion)
    throw DatasetError(where + "dataset format " + std::to_string(existing->format_version) +
                       ", made by an older pgnbase: " +
                       (existing->format_version == 1 ? "its positions and explorer rows have no source_id, so a removed "
                                                        "source's rows could not be told apart"
                                                      : "its games have no plies/ rows (clocks and evaluations)") +
                       "; export into a new folder");
  if (existing->database_id != meta.database_id)
    throw DatasetError(where + "exported from another database (first source " + existing->database_id + ")");
  if (existing->schema_version != meta.schema_version)
    throw DatasetError(where + "exported from schema version " + std::to_string(existing->schema_version) +
                       ", this database has " + std::to_string(meta.schema_version));
  if (options.bucket_bits && *options.bucket_bits != existing->bucket_bits)
    throw DatasetError(where + "the dataset has " + std::to_string(existing->bucket_bits) + " bucket bits, not " +
                       std::to_string(*options.bucket_bits));
  if (state.last_game_id < existing->last_game_id)
    throw DatasetError(where + "games up to id " + std::to_string(existing->last_game_id) +
                       " were exported, but this database ends at " + std::to_string(state.last_game_id));
  if (state.last_change < existing->last_change)
    throw DatasetError(where + "changes up to " + std::to_string(existing->last_change) +
                       " were exported, but this database's changes end at " + std::to_string(state.last_change));
  return *existing;
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return text;
}

ParquetOptions parquet_options(const ExportOptions& options, std::vector<int> sorting_columns, int export_number) {
  ParquetOptions p;
  p.page_rows = options.page_rows;
  p.zstd_level = options.zstd_level;
  p.sorting_columns = std::move(sorting_columns);
  p.metadata = {{"pgnbase.dataset", std::to_string(kDatasetFormatVersion)},
                {"pgnbase.export", std::to_string(export_number)}};
  return p;
}

// The games files of one export: one per run of games of one source (a new file when the
// source changes, part-E-2 ... for a source's later runs), rows in the order given, and
// beside each its plies file (the games' clocks and evaluations, same name under plies/).
// Each game is replayed from its stored moves into the posting buckets and its facts.
class GamesFiles {
 public:
  GamesFiles(int export_number, const ExportOptions& options, PendingFiles& pending, PostingBuckets& buckets,
             GameFactsTable& facts)
      : export_number_(export_number), options_(options), pending_(pending), buckets_(buckets),
        facts_(facts), columns_(games_columns().size()), ply_columns_(plies_columns().size()) {}

  // Writes row's game, or skips it when it is longer than the dataset's plies (false).
  bool add(const store::GameRow& row) {
    Board board;
    const std::string where = "game " + std::to_string(row.id) + ": ";
    if (row.id < 1 || row.id > int64_t(UINT32_MAX)) throw DatasetError(where + "id outside 1..2^32-1");
    if (row.source_id < 0 || row.source_id > int64_t(UINT32_MAX))
      throw DatasetError(where + "source id outside 0..2^32-1");
    if (!store::stored_start_position(row.variant, row.start_fen, board) ||
        !store::decode_moves(row.moves, board, codes_))
      throw DatasetError(where + "its stored moves, tags or annotations are corrupt");
    if (codes_.size() > kMaxPlies) {
      skipped_.push_back({row.id, int64_t(codes_.size())});
      return false;
    }
    if (row.source_id != source_ || !writer_) {
      finish();
      source_ = row.source_id;
      const fs::path partition = "source=" + std::to_string(source_), name = part_name(export_number_, pieces_[source_]++);
      writer_ = std::make_unique<ParquetWriter>(pending_.add("games" / partition / name), games_columns(),
                                                parquet_options(options_, {0}, export_number_));
      plies_writer_ = std::make_unique<ParquetWriter>(pending_.add("plies" / partition / name), plies_columns(),
                                                      parquet_options(options_, {0, 1}, export_number_));
    }
    if (!add_game_row(row, codes_, annotations_, columns_))
      throw DatasetError(where + "its stored moves, tags or annotations are corrupt");
    add_ply_rows(row, codes_.size(), annotations_.clock_evals(), ply_columns_);
    if (ply_columns_[0].rows() >= kPlyGroupRows) flush(*plies_writer_, ply_columns_);
    GameFacts& f = facts_.add(uint32_t(row.id));
    f.result = uint8_t(row.result);
    f.black_starts = board.side_to_move() == BLACK;
    f.white_elo = row.white_elo ? int32_t(*row.white_elo) : -1;
    f.black_elo = row.black_elo ? int32_t(*row.black_elo) : -1;
    f.source_id = uint32_t(row.source_id);
    sources_.insert(row.source_id);
    for (size_t ply = 0; ply <= codes_.size(); ++ply) {
      const MoveCode code = ply < codes_.size() ? codes_[ply] : kNullMoveCode;
      buckets_.add({board.key(), uint32_t(row.id), uint16_t(ply), code});
      if (ply == codes_.size()) break;
      Move m;
      UndoInfo undo;
      if (!decode_stored_move(board, code, m))
        throw DatasetError(where + "stored move " + std::to_string(ply + 1) + " is corrupt");
      play(board, m, undo);
    }
    // A row group ends at game_group_rows games or game_group_bytes of values, whichever
    // comes first: a few games with megabytes of comments each make a group of their own.
    size_t bytes = 0;
    for (const ColumnValues& c : columns_) bytes += c.value_bytes();
    if (columns_[0].rows() >= options_.game_group_rows || bytes >= options_.game_group_bytes) {
      flush(*writer_, columns_);
      flush(*plies_writer_, ply_columns_);
    }
    return true;
  }

  void finish() {
    if (!writer_) return;
    flush(*writer_, columns_);
    writer_->finish();
    writer_.reset();
    flush(*plies_writer_, ply_columns_);
    plies_writer_->finish();
    plies_writer_.reset();
  }

  // The sources of the games written.
  const std::set<int64_t>& sources() const { return sources_; }
  // The games skipped: (id, plies).
  const std::vector<std::pair<int64_t, int64_t>>& skipped() const { return skipped_; }

 private:
  int export_number_;
  const ExportOptions& options_;
  PendingFiles& pending_;
  PostingBuckets& buckets_;
  GameFactsTable& facts_;
  std::vector<ColumnValues> columns_;
  // A plies row group ends with its games' group, or at this many rows (a few MB of values).
  static constexpr size_t kPlyGroupRows = 131072;

  static void flush(ParquetWriter& writer, std::vector<ColumnValues>& columns) {
    writer.write_row_group(columns);
    for (ColumnValues& c : columns) c.clear();
  }

  std::vector<ColumnValues> ply_columns_;
  std::unique_ptr<ParquetWriter> writer_, plies_writer_;
  store::AnnotationReader annotations_;
  std::map<int64_t, int> pieces_;  // files written per source
  int64_t source_ = -1;
  std::vector<MoveCode> codes_;
  std::set<int64_t> sources_;
  std::vector<std::pair<int64_t, int64_t>> skipped_;
};

// The games the dataset holds that moved to another source since the last export (their
// source was removed and another source held them too), as (new source, id) sorted; and
// how many of its games were removed from the database since.
struct Changes {
  std::vector<std::pair<int64_t, int64_t>> moved;
  int64_t removed_games = 0;
};

Changes read_changes(store::Database& db, const DatasetMeta& meta, const DatabaseState& state) {
  Changes changes;
  if (state.last_change <= meta.last_change) return changes;
  store::Statement s = db.prepare(store::sql::kGamesChangedSince);
  s.bind_int64(1, meta.last_change);
  s.bind_int64(2, meta.last_game_id);
  while (s.step()) {
    if (s.column_is_null(1)) ++changes.removed_games;
    else changes.moved.emplace_back(s.column_int64(1), s.column_int64(0));
  }
  std::sort(changes.moved.begin(), changes.moved.end());
  return changes;
}

// The line of _meta that tells what export E did.
std::string export_line(const ExportSummary& s) {
  std::string line = std::to_string(s.export_number) + ": ";
  line += s.games > 0 ? "games " + std::to_string(s.first_game_id) + ".." + std::to_string(s.last_game_id)
                      : std::string("no new games");
  line += " (" + std::to_string(s.games) + " games, " + std::to_string(s.postings) + " positions)";
  if (s.moved_games > 0) line += ", " + std::to_string(s.moved_games) + " games written again under their new source";
  if (!s.skipped_games.empty()) {
    line += ", " + std::to_string(s.skipped_games.size()) + " skipped (more than " + std::to_string(kMaxPlies) +
            " plies):";
    for (size_t i = 0; i < s.skipped_games.size() && i < 10; ++i)
      line += " " + std::to_string(s.skipped_games[i].first);
    if (s.skipped_games.size() > 10) line += " ...";
  }
  if (!s.removed_sources.empty()) {
    line += ", removed sources";
    for (int64_t id : s.removed_sources) line += " " + std::to_string(id);
    line += " (" + std::to_string(s.removed_games) + " games gone)";
  }
  return line + " at " + utc_now();
}

}  // namespace

ExportSummary export_dataset(store::Database& db, const fs::path& dir, const ExportOptions& options) {
  if (options.bucket_bits && (*options.bucket_bits < 0 || *options.bucket_bits > kMaxBucketBits))
    throw DatasetError("bucket bits must be 0.." + std::to_string(kMaxBucketBits));
  if (options.on_stale_files) {
    const StaleExportFiles stale = sweep_stale_export_files(dir);
    if (stale.files > 0) options.on_stale_files(stale);
  } else {
    sweep_stale_export_files(dir);
  }
  store::ReadSnapshot snapshot(db);
  const DatabaseState state = read_state(db);
  DatasetMeta meta = prepare_meta(db, dir, options, state);

  ExportSummary summary;
  std::set_difference(meta.live_sources.begin(), meta.live_sources.end(), state.sources.begin(), state.sources.end(),
                      std::back_inserter(summary.removed_sources));
  const Changes changes = read_changes(db, meta, state);
  store::Statement first = db.prepare(store::sql::kFirstGameAbove);
  first.bind_int64(1, meta.last_game_id);
  const bool new_games = first.step() && !first.column_is_null(0);
  if (!new_games && changes.moved.empty() && summary.removed_sources.empty()) return summary;  // nothing new
  if (new_games) {
    summary.first_game_id = first.column_int64(0);
    summary.last_game_id = state.last_game_id;
  }
  summary.export_number = int(meta.exports.size()) + 1;
  summary.removed_games = changes.removed_games;

  // Everything is written in the temporary folder, then renamed into place together.
  ExportTempFolder temp(dir);
  PendingFiles pending(dir, temp.path());
  std::set<int64_t> written_sources;
  {
    PostingBuckets buckets(temp.path(), meta.bucket_bits);
    GameFactsTable facts(new_games ? summary.first_game_id : 0);
    GamesFiles games(summary.export_number, options, pending, buckets, facts);
    store::GameRow row;
    {  // moved games first: their ids are below the new ones, so a source's file stays sorted by id
      store::SqlQuery q = store::build_game_by_id_query();
      store::Statement s = db.prepare(q.sql);
      for (const auto& [source, id] : changes.moved) {
        s.reset();
        s.bind_int64(1, id);
        if (!s.step()) throw DatasetError("game " + std::to_string(id) + ": vanished during the export");
        store::read_game_row(s, row);
        if (games.add(row)) ++summary.moved_games;
      }
    }
    {
      store::SqlQuery q = store::build_games_after_id_query();
      store::Statement s = db.prepare(q.sql);
      s.bind_int64(1, meta.last_game_id);
      while (s.step()) {
        store::read_game_row(s, row);
        if (games.add(row)) ++summary.games;
      }
    }
    games.finish();
    written_sources = games.sources();
    summary.skipped_games = games.skipped();
    summary.postings = buckets.postings();
    for (uint32_t b = 0; b < buckets.buckets(); ++b) {
      const std::vector<DatasetPosting> sorted = buckets.read_sorted(b);
      if (sorted.empty()) continue;
      const fs::path folder = bucket_folder(b), name = part_name(summary.export_number, 0);
      ParquetWriter positions(pending.add(fs::path("positions") / folder / name), positions_columns(),
                              parquet_options(options, positions_sorting_columns(), summary.export_number));
      write_positions(sorted, facts, options.position_group_rows, positions);
      positions.finish();
      ParquetWriter explorer(pending.add(fs::path("explorer") / folder / name), explorer_columns(),
                             parquet_options(options, explorer_sorting_columns(), summary.export_number));
      summary.explorer_rows += write_explorer(sorted, facts, options.position_group_rows, explorer);
      explorer.finish();
    }
    // removed/ gets a file at the first export (empty: readers' globs then always match
    // a file) and at every export that finds removed sources.
    if (meta.exports.empty() || !summary.removed_sources.empty()) {
      ParquetWriter removed(pending.add(fs::path("removed") / part_name(summary.export_number, 0)), removed_columns(),
                            parquet_options(options, {0}, summary.export_number));
      std::vector<ColumnValues> columns(removed_columns().size());
      for (int64_t id : summary.removed_sources) {
        columns[0].add(id);
        columns[1].add(int64_t(summary.export_number));
      }
      if (columns[0].rows() > 0) removed.write_row_group(columns);
      removed.finish();
    }
  }
  meta.last_game_id = std::max(meta.last_game_id, state.last_game_id);
  meta.last_change = state.last_change;
  std::set<int64_t> live(meta.live_sources.begin(), meta.live_sources.end());
  for (int64_t id : summary.removed_sources) live.erase(id);
  live.insert(written_sources.begin(), written_sources.end());
  meta.live_sources.assign(live.begin(), live.end());
  meta.exports.push_back(export_line(summary));
  const fs::path meta_temp = temp.path() / "_meta";
  write_dataset_meta_file(meta_temp, meta);
  pending.commit(meta_temp);
  summary.files = pending.count();
  summary.bytes = pending.bytes();
  return summary;
}

}  // namespace pgnbase::dataset
