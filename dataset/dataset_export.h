// pgn-query export-dataset: a database as a Hive-partitioned Parquet dataset
// (docs/dataset.md):
//
//   DIR/_meta                              format, key definition, last exported game id
//   DIR/games/source=S/part-E.parquet      one row per game of source S, by id
//   DIR/positions/kb=N/part-E.parquet     one row per position of every game, by key
//   DIR/explorer/kb=N/part-E.parquet      counts per (key, next move), by key
//
// E is the export's number (000001, 000002, ...). An export writes the games with ids
// above _meta's last_game_id and only new files: every file is written under a
// temporary dot-name, and all are renamed into place (never over an existing file) once
// every one is complete; then _meta is replaced. A folder that holds files but no _meta,
// or whose _meta names another database, layout or format, is refused.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>

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
  int64_t first_game_id = 0, last_game_id = 0, games = 0;
  uint64_t postings = 0, explorer_rows = 0, files = 0, bytes = 0;
};

// Exports db's games with ids above what dir/_meta records (all of them for a new or
// empty dir). db is read in one read transaction (one snapshot). Throws DatasetError
// (the dataset folder or a file) or a store error (the database); the files of a failed
// export are removed, those of earlier exports never touched.
ExportSummary export_dataset(store::Database& db, const std::filesystem::path& dir, const ExportOptions& options = {});

}  // namespace pgnbase::dataset
