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
// without rewriting a file. An export writes only new files: every file is written in
// the temporary folder DIR/.export-tmp-PID, and all are renamed into place (never over
// an existing file) once every one is complete, _meta last. A folder that holds files
// but no _meta, or whose _meta names another database, layout or format, is refused.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "dataset/dataset_error.h"
#include "dataset/dataset_meta.h"
#include "dataset/export_temporaries.h"
#include "store/database.h"

namespace pgnbase::dataset {

// The longest game the dataset takes: positions rows count plies in 16 bits inside the
// export. A longer game cannot be played under the rules (the 75-move rule ends every
// game within 17,697 plies); one in a made-up file is skipped and named (ExportSummary).
inline constexpr size_t kMaxPlies = 65535;

struct ExportOptions {
  static constexpr int kDefaultBucketBits = 6;
  // kb=N buckets: the key's top bits. Unset: 6 for a new dataset, an existing one's own;
  // set to another number than an existing dataset's, the export is refused.
  std::optional<int> bucket_bits;
  size_t position_group_rows = 65536;  // rows per positions/explorer row group (cut between keys)
  size_t game_group_rows = 16384;    // rows per games row group, at most
  size_t game_group_bytes = size_t{16} << 20;  // a games row group ends at this many bytes of values too
  size_t page_rows = 8192;
  int zstd_level = 3;
  // Called, before anything else happens, when the export removed what ended exports
  // left in the folder (kill -9): the files, their bytes and the processes.
  std::function<void(const StaleExportFiles&)> on_stale_files;
};

struct ExportSummary {
  int export_number = 0;             // 0: nothing new to export, no file written
  int64_t first_game_id = 0, last_game_id = 0, games = 0;  // the new games (ids above the last export's)
  int64_t moved_games = 0;           // earlier games written again under the source they moved to
  int64_t removed_games = 0;         // earlier games removed from the database since
  // Games not exported because they are longer than kMaxPlies: (id, plies), by id. They
  // count in no other field, and a later export does not try them again.
  std::vector<std::pair<int64_t, int64_t>> skipped_games;
  std::vector<int64_t> removed_sources;  // sources removed since, listed in removed/part-E
  uint64_t postings = 0, explorer_rows = 0, files = 0, bytes = 0;
};

// Exports what changed in db since the export dir/_meta records (everything for a new or
// empty dir): the games with ids above its last_game_id; the earlier games that moved to
// another source (game_changes), written again under it; and the sources of the dataset
// that the database no longer has, listed in removed/ so that readers skip their rows.
// db is read in one read transaction (one snapshot). Throws DatasetError (the dataset
// folder or a file) or a store error (the database). Every file is written in
// dir/.export-tmp-PID (export_temporaries.h) and renamed into place with the new _meta,
// all or none; a failed export leaves dir as it found it, and earlier exports' files are
// never touched.
ExportSummary export_dataset(store::Database& db, const std::filesystem::path& dir, const ExportOptions& options = {});

}  // namespace pgnbase::dataset
