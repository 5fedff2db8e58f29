#include "dataset/dataset_export.h"

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <map>
#include <memory>

#include "core/move_code.h"
#include "dataset/dataset_key.h"
#include "dataset/dataset_meta.h"
#include "dataset/dataset_tables.h"
#include "dataset/posting_buckets.h"
#include "indexer/store/blob_codec.h"
#include "indexer/store/moves_codec.h"
#include "query/game_row.h"
#include "query/game_sql.h"

namespace pgnbase::dataset {

namespace {

namespace fs = std::filesystem;

// One snapshot of the database for the whole export (BEGIN ... COMMIT).
class ReadSnapshot {
 public:
  explicit ReadSnapshot(store::Database& db) : db_(db) { db_.exec("BEGIN"); }
  ~ReadSnapshot() {
    try {
      db_.exec("COMMIT");
    } catch (...) {  // a read transaction has nothing to lose
    }
  }

 private:
  store::Database& db_;
};

// Files written under temporary dot-names beside their final names, renamed into
// place together by commit(); the destructor removes the temporary files of an export
// that did not get that far.
class PendingFiles {
 public:
  fs::path add(const fs::path& final_path) {
    fs::create_directories(final_path.parent_path());
    const fs::path temp =
        final_path.parent_path() / ("." + final_path.filename().string() + ".tmp-" + std::to_string(::getpid()));
    files_.emplace_back(temp, final_path);
    return temp;
  }

  // Renames every file into place; refuses (renaming none) when a final name exists.
  void commit() {
    for (const auto& [temp, final_path] : files_)
      if (fs::exists(final_path)) throw DatasetError(final_path.string() + ": already exists; nothing was replaced");
    for (const auto& [temp, final_path] : files_) {
      if (::renameat2(AT_FDCWD, temp.c_str(), AT_FDCWD, final_path.c_str(), RENAME_NOREPLACE) != 0)
        throw DatasetError(final_path.string() + ": cannot rename into place: " + std::strerror(errno));
      bytes_ += fs::file_size(final_path);
    }
    committed_ = true;
  }

  ~PendingFiles() {
    if (committed_) return;
    for (const auto& [temp, final_path] : files_) {
      std::error_code ignored;
      fs::remove(temp, ignored);
    }
  }

  size_t count() const { return files_.size(); }
  uint64_t bytes() const { return bytes_; }

 private:
  std::vector<std::pair<fs::path, fs::path>> files_;
  uint64_t bytes_ = 0;
  bool committed_ = false;
};

// The spill folder of the posting buckets, removed afterwards.
class TempFolder {
 public:
  explicit TempFolder(fs::path path) : path_(std::move(path)) { fs::create_directories(path_); }
  ~TempFolder() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

std::string part_name(int export_number, int piece) {
  char name[48];
  if (piece == 0) std::snprintf(name, sizeof name, "part-%06d.parquet", export_number);
  else std::snprintf(name, sizeof name, "part-%06d-%d.parquet", export_number, piece + 1);
  return name;
}

// kb=N without leading zeros, so that engines infer the partition column as an integer.
std::string bucket_folder(uint32_t bucket) { return "kb=" + std::to_string(bucket); }

std::string text_of(store::Database& db, std::string_view sql) {
  store::Statement s = db.prepare(sql);
  return s.step() && !s.column_is_null(0) ? std::string(s.column_text(0)) : std::string();
}

// The dataset's _meta as this export will leave it, after checking that dir is either
// new, empty, or an earlier export of this same database with this layout.
DatasetMeta prepare_meta(store::Database& db, const fs::path& dir, const ExportOptions& options, int64_t max_id) {
  DatasetMeta meta;
  meta.database_id = text_of(db, "SELECT content_hash FROM sources ORDER BY id LIMIT 1");
  meta.schema_version = std::atoi(text_of(db, "SELECT value FROM meta WHERE key = 'schema_version'").c_str());
  meta.bucket_bits = options.bucket_bits.value_or(ExportOptions::kDefaultBucketBits);
  const std::optional<DatasetMeta> existing = read_dataset_meta(dir);
  if (!existing) {
    if (fs::exists(dir) && !fs::is_empty(dir))
      throw DatasetError(dir.string() + ": holds files but no _meta: not a pgnbase dataset (give a new or empty folder)");
    return meta;
  }
  const std::string where = (dir / "_meta").string() + ": ";
  if (existing->database_id != meta.database_id)
    throw DatasetError(where + "exported from another database (first source " + existing->database_id + ")");
  if (existing->schema_version != meta.schema_version)
    throw DatasetError(where + "exported from schema version " + std::to_string(existing->schema_version) +
                       ", this database has " + std::to_string(meta.schema_version));
  if (options.bucket_bits && *options.bucket_bits != existing->bucket_bits)
    throw DatasetError(where + "the dataset has " + std::to_string(existing->bucket_bits) + " bucket bits, not " +
                       std::to_string(*options.bucket_bits));
  if (max_id < existing->last_game_id)
    throw DatasetError(where + "games up to id " + std::to_string(existing->last_game_id) +
                       " were exported, but this database ends at " + std::to_string(max_id));
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

// Writes the games files (one per source run) and fills buckets and facts by replaying
// every game's stored moves.
void export_games(store::Database& db, int64_t after_id, const fs::path& dir, int export_number,
                  const ExportOptions& options, PendingFiles& pending, PostingBuckets& buckets,
                  GameFactsTable& facts, ExportSummary& summary) {
  query::SqlQuery q = query::build_games_after_id_query();
  store::Statement s = db.prepare(q.sql);
  s.bind_int64(1, after_id);
  query::GameRow row;
  std::vector<MoveCode> codes;
  std::vector<ColumnValues> columns(games_columns().size());
  std::unique_ptr<ParquetWriter> writer;
  std::map<int64_t, int> pieces;  // files written per source (a source whose ids are not contiguous)
  int64_t source = -1;
  auto finish_file = [&] {
    if (!writer) return;
    writer->write_row_group(columns);
    for (ColumnValues& c : columns) c.clear();
    writer->finish();
    writer.reset();
  };
  while (s.step()) {
    query::read_game_row(s, row);
    if (row.source_id != source) {
      finish_file();
      source = row.source_id;
      const fs::path path =
          dir / "games" / ("source=" + std::to_string(source)) / part_name(export_number, pieces[source]++);
      writer = std::make_unique<ParquetWriter>(pending.add(path), games_columns(), parquet_options(options, {0}, export_number));
    }
    Board board;
    const std::string where = "game " + std::to_string(row.id) + ": ";
    if (row.id > int64_t(UINT32_MAX)) throw DatasetError(where + "id above 2^32-1");
    if (!indexer::stored_start_position(row.variant, row.start_fen, board) ||
        !indexer::decode_moves(row.moves, board, codes) ||
        !add_game_row(row, codes, columns))
      throw DatasetError(where + "its stored moves, tags or annotations are corrupt");
    if (codes.size() > 0xFFFF) throw DatasetError(where + "more than 65535 plies");
    GameFacts& f = facts.facts[size_t(row.id - facts.first_id)];
    f.result = uint8_t(row.result);
    f.black_starts = board.side_to_move() == BLACK;
    f.white_elo = row.white_elo ? int32_t(*row.white_elo) : -1;
    f.black_elo = row.black_elo ? int32_t(*row.black_elo) : -1;
    for (size_t ply = 0; ply <= codes.size(); ++ply) {
      const MoveCode code = ply < codes.size() ? codes[ply] : kNullMoveCode;
      buckets.add({board.key(), uint32_t(row.id), uint16_t(ply), code});
      if (ply == codes.size()) break;
      Move m;
      UndoInfo undo;
      if (!decode_stored_move(board, code, m)) throw DatasetError(where + "stored move " + std::to_string(ply + 1) + " is corrupt");
      query::play(board, m, undo);
    }
    ++summary.games;
    if (columns[0].rows() >= options.game_group_rows) {
      writer->write_row_group(columns);
      for (ColumnValues& c : columns) c.clear();
    }
  }
  finish_file();
}

}  // namespace

ExportSummary export_dataset(store::Database& db, const fs::path& dir, const ExportOptions& options) {
  if (options.bucket_bits && (*options.bucket_bits < 0 || *options.bucket_bits > 12))
    throw DatasetError("bucket bits must be 0..12");
  ReadSnapshot snapshot(db);
  store::Statement range = db.prepare("SELECT coalesce(max(id), 0) FROM games");
  range.step();
  const int64_t max_id = range.column_int64(0);
  DatasetMeta meta = prepare_meta(db, dir, options, max_id);

  ExportSummary summary;
  store::Statement first = db.prepare("SELECT min(id) FROM games WHERE id > ?1");
  first.bind_int64(1, meta.last_game_id);
  if (!first.step() || first.column_is_null(0)) return summary;  // nothing new
  summary.first_game_id = first.column_int64(0);
  summary.last_game_id = max_id;
  summary.export_number = int(meta.exports.size()) + 1;

  fs::create_directories(dir);
  PendingFiles pending;
  {
    TempFolder spill(dir / (".export-tmp-" + std::to_string(::getpid())));
    PostingBuckets buckets(spill.path(), meta.bucket_bits);
    GameFactsTable facts;
    facts.first_id = summary.first_game_id;
    facts.facts.resize(size_t(max_id - summary.first_game_id + 1));
    export_games(db, meta.last_game_id, dir, summary.export_number, options, pending, buckets, facts, summary);
    summary.postings = buckets.postings();
    for (uint32_t b = 0; b < buckets.buckets(); ++b) {
      const std::vector<DatasetPosting> sorted = buckets.read_sorted(b);
      if (sorted.empty()) continue;
      const std::string folder = bucket_folder(b), name = part_name(summary.export_number, 0);
      ParquetWriter positions(pending.add(dir / "positions" / folder / name), positions_columns(),
                              parquet_options(options, {0, 1, 2}, summary.export_number));
      write_positions(sorted, facts, options.position_group_rows, positions);
      positions.finish();
      ParquetWriter explorer(pending.add(dir / "explorer" / folder / name), explorer_columns(),
                             parquet_options(options, {0, 1}, summary.export_number));
      summary.explorer_rows += write_explorer(sorted, facts, options.position_group_rows, explorer);
      explorer.finish();
    }
  }
  pending.commit();
  summary.files = pending.count();
  summary.bytes = pending.bytes();
  meta.last_game_id = max_id;
  meta.exports.push_back(std::to_string(summary.export_number) + ": games " + std::to_string(summary.first_game_id) +
                         ".." + std::to_string(max_id) + " (" + std::to_string(summary.games) + " games, " +
                         std::to_string(summary.postings) + " positions) at " + utc_now());
  write_dataset_meta(dir, meta);
  return summary;
}

}  // namespace pgnbase::dataset
