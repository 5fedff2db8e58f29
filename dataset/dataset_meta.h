// The _meta file of an exported dataset (docs/dataset.md): what a later export must
// agree with before it appends, and how far the earlier exports went.
//
// A text file of "name: value" lines, written whole under a temporary name and renamed
// over the old one, so a reader sees the old or the new file, never half of one.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace pgnbase::dataset {

// Bumped when the dataset's layout or columns change incompatibly. Format 2 added
// source_id to positions and explorer rows and the removed/ table; format 3 the plies/
// table (clocks and evaluations). An older dataset is read here but not appended to (a
// format 1 dataset's rows could not be marked removed, a format 2 dataset's earlier games
// would have no plies rows).
inline constexpr int kDatasetFormatVersion = 3;

// bucket_bits is 0..12: at most 4,096 kb=N folders per table.
inline constexpr int kMaxBucketBits = 12;

struct DatasetMeta {
  int format_version = kDatasetFormatVersion;
  int schema_version = 0;        // of the database exported (store/schema.h)
  int bucket_bits = 6;           // positions/ and explorer/ folders kb=N: the key's top bits
  std::string database_id;       // the database's identity (store/database_identity.h)
  int64_t last_game_id = 0;      // games with larger ids are what the next export writes
  int64_t last_change = 0;       // game_changes rows up to this seq are in the dataset
  std::vector<int64_t> live_sources;  // sorted: sources with rows in the dataset, not in removed/
  std::vector<std::string> exports;   // one line per export: "N: games A..B, ..."
};

// Reads dir/_meta; nullopt when it does not exist. Throws DatasetError, one line naming
// the file, when it exists but is not a file this build wrote: a line it cannot read, a
// newer format, a value out of its range (bucket_bits 0..12, ids and counters 0..2^63-1,
// source ids 1..2^32-1, export lines numbered 1, 2, ...), a required line missing or
// given twice, a file over 64 MiB.
std::optional<DatasetMeta> read_dataset_meta(const std::filesystem::path& dir);

// Writes dir/_meta atomically (a temporary file beside it, synced, then rename).
void write_dataset_meta(const std::filesystem::path& dir, const DatasetMeta& meta);

// Writes meta to file (created or emptied) and syncs it to disk; for an export that
// renames it over _meta itself. Throws DatasetError.
void write_dataset_meta_file(const std::filesystem::path& file, const DatasetMeta& meta);

// The text of _meta (also what write_dataset_meta writes).
std::string format_dataset_meta(const DatasetMeta& meta);

}  // namespace pgnbase::dataset
