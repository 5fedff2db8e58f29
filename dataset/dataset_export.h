// pgn-query export-dataset: a database as a Hive-partitioned Parquet dataset
// (docs/dataset.md):
//
//   DIR/_meta                              format, key definition, how far the exports went
//   DIR/games/source=S/part-E.parquet      one row per game of source S, by id
//   DIR/positions/kb=N/part-E.parquet      one row per position of every game, by key
//   DIR/explorer/kb=N/part-E.parquet       counts per (key, source, next move), by key
//   DIR/removed/part-E.parquet             the sources removed from the database
//
// E is the export's number (000001, 000002, ...). Every positions and explorer row
// carries its game's source_id, so a removed source's rows can be skipped by readers
// without rewriting a file. An export writes only new files: every file is written
// under a temporary dot-name, and all are renamed into place (never over an existing
// file) once every one is complete; then _meta is replaced. A folder that holds files
// but no _meta, or whose _meta names another database, layout or format, is refused.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <vector>

#include "dataset/dataset_error.h"
#include "indexer/store/database.h"

namespace pgnbase::dataset {

struct ExportOptions {
  static constexpr int kDefaultBucketBits = 6;
  // kb=N buckets: the key's top bits. Unset: 6 for a new dataset, an existing one's own;
  // set to another number than an existing dataset's, the export is refused.
  std::optional<int> bucket_bits;
  size_t position_group_rows = 65536;  // rows per positions/explorer row group (cut between keys)
  size_t game_group_rows = 16384;    // rows per games row group
  size_t page_rows = 8192;
  int zstd_level = 3;
};

struct ExportSummary {
  int export_number = 0;             // 0: nothing new to export, no file written
  int64_t first_game_id = 0, last_game_id = 0, games = 0;  // the new games (ids above the last export's)
  int64_t moved_games = 0;           // earlier games written again under the source they moved to
  int64_t removed_games = 0;         // earlier games removed from the database since
  std::vector<int64_t> removed_sources;  // sources removed since, listed in removed/part-E
  uint64_t postings = 0, explorer_rows = 0, files = 0, bytes = 0;
};

// Exports what changed in db since the export dir/_meta records (everything for a new or
// empty dir): the games with ids above its last_game_id; the earlier games that moved to
// another source (game_changes), written again under it; and the sources of the dataset
// that the database no longer has, listed in removed/ so that readers skip their rows.
// db is read in one read transaction (one snapshot). Throws DatasetError (the dataset
// folder or a file) or a store error (the database); the files of a failed export are
// removed, those of earlier exports never touched.
ExportSummary export_dataset(store::Database& db, const std::filesystem::path& dir, const ExportOptions& options = {});

}  // namespace pgnbase::dataset
