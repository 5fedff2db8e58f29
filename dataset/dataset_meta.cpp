#include "dataset/dataset_meta.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "dataset/parquet_writer.h"

namespace pgnbase::dataset {

namespace {

// The fixed description lines: for people and other tools, checked on read.
constexpr const char* kKeyLine =
    "key: Polyglot Zobrist key (http://hgm.nubati.net/book_format.html) as the signed 64-bit integer with the same "
    "64 bits (two's complement)";
constexpr const char* kIdsLine =
    "ids: games.id of the database; each export writes the games with id > last_game_id, then raises it";
constexpr const char* kChangesLine =
    "changes: game_changes.seq of the database; each export writes again the games moved to another source since "
    "last_change, lists the sources removed since in removed/, then raises it";
constexpr const char* kRemovedLine =
    "removed: a row whose source_id is in removed/ does not count, in every table; live_sources are the others";

int64_t parse_int(const std::filesystem::path& file, const std::string& name, const std::string& value) {
  try {
    size_t used = 0;
    const int64_t v = std::stoll(value, &used);
    if (used == value.size()) return v;
  } catch (const std::exception&) {
  }
  throw DatasetError(file.string() + ": bad " + name + " '" + value + "'");
}

}  // namespace

std::string format_dataset_meta(const DatasetMeta& m) {
  std::ostringstream out;
  out << "pgnbase_dataset: " << m.format_version << "\n"
      << "database_schema_version: " << m.schema_version << "\n"
      << "database_id: " << m.database_id << "\n"
      << kKeyLine << "\n"
      << "bucket_bits: " << m.bucket_bits << "\n"
      << "bucket: kb = the unsigned key >> " << (64 - m.bucket_bits) << ", folder kb=N of positions/ and explorer/\n"
      << kIdsLine << "\n"
      << "last_game_id: " << m.last_game_id << "\n"
      << kChangesLine << "\n"
      << "last_change: " << m.last_change << "\n"
      << kRemovedLine << "\n"
      << "live_sources:";
  for (int64_t id : m.live_sources) out << " " << id;
  out << "\n";
  for (const std::string& e : m.exports) out << "export " << e << "\n";
  return out.str();
}

std::optional<DatasetMeta> read_dataset_meta(const std::filesystem::path& dir) {
  const std::filesystem::path file = dir / "_meta";
  std::ifstream in(file);
  if (!in) {
    if (std::filesystem::exists(file)) throw DatasetError(file.string() + ": cannot read");
    return std::nullopt;
  }
  DatasetMeta m;
  bool seen_format = false;
  for (std::string line; std::getline(in, line);) {
    const size_t colon = line.find(": ");
    const std::string name = line.substr(0, colon), value = colon == std::string::npos ? "" : line.substr(colon + 2);
    if (name == "pgnbase_dataset") {
      m.format_version = int(parse_int(file, name, value));
      seen_format = true;
      if (m.format_version > kDatasetFormatVersion)
        throw DatasetError(file.string() + ": dataset format " + value + " is newer than this pgnbase's (" +
                           std::to_string(kDatasetFormatVersion) + ")");
    } else if (name == "database_schema_version") {
      m.schema_version = int(parse_int(file, name, value));
    } else if (name == "database_id") {
      m.database_id = value;
    } else if (name == "bucket_bits") {
      m.bucket_bits = int(parse_int(file, name, value));
    } else if (name == "last_game_id") {
      m.last_game_id = parse_int(file, name, value);
    } else if (name == "last_change") {
      m.last_change = parse_int(file, name, value);
    } else if (name == "live_sources" || line == "live_sources:") {
      std::istringstream ids(value);
      for (std::string id; ids >> id;) m.live_sources.push_back(parse_int(file, name, id));
      std::sort(m.live_sources.begin(), m.live_sources.end());
    } else if (line.rfind("export ", 0) == 0) {
      m.exports.push_back(line.substr(7));
    } else if (line != kKeyLine && line != kIdsLine && line != kChangesLine && line != kRemovedLine &&
               name != "bucket" && !line.empty()) {
      throw DatasetError(file.string() + ": unexpected line '" + line + "'");
    }
  }
  if (!seen_format) throw DatasetError(file.string() + ": not a pgnbase dataset _meta file");
  return m;
}

void write_dataset_meta(const std::filesystem::path& dir, const DatasetMeta& meta) {
  const std::filesystem::path file = dir / "_meta", temp = dir / (".meta.tmp-" + std::to_string(::getpid()));
  {
    std::ofstream out(temp, std::ios::trunc);
    out << format_dataset_meta(meta);
    out.close();
    if (!out) throw DatasetError(temp.string() + ": write failed");
  }
  std::error_code error;
  std::filesystem::rename(temp, file, error);
  if (error) throw DatasetError(file.string() + ": " + error.message());
}

}  // namespace pgnbase::dataset
