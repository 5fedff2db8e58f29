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

// Bumped when the dataset's layout or columns change incompatibly.
inline constexpr int kDatasetFormatVersion = 1;

struct DatasetMeta {
  int format_version = kDatasetFormatVersion;
  int schema_version = 0;        // of the database exported (indexer/store/schema.h)
  int bucket_bits = 6;           // positions/ and explorer/ folders kb=N: the key's top bits
  std::string database_id;       // content hash of the database's first source: the same database
  int64_t last_game_id = 0;      // games with larger ids are what the next export writes
  std::vector<std::string> exports;  // one line per export: "N: games A..B, ..."
};

// Reads dir/_meta; nullopt when it does not exist. Throws DatasetError when it exists
// but is not a file this build wrote (a line it cannot read, a newer format).
std::optional<DatasetMeta> read_dataset_meta(const std::filesystem::path& dir);

// Writes dir/_meta atomically (a temporary file, then rename).
void write_dataset_meta(const std::filesystem::path& dir, const DatasetMeta& meta);

// The text of _meta (also what write_dataset_meta writes).
std::string format_dataset_meta(const DatasetMeta& meta);

}  // namespace pgnbase::dataset
