#include "dataset/dataset_meta.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <string_view>

#include "dataset/parquet_writer.h"
#include "io/file_io.h"

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

constexpr uintmax_t kMaxMetaBytes = uintmax_t{64} << 20;

// At most 60 bytes of text from the file, control bytes and non-ASCII as '?': for
// messages, which must stay one line and never reach a terminal raw.
std::string shown(std::string_view text) {
  std::string out;
  for (char c : text.substr(0, 60)) out += (c >= 0x20 && c < 0x7F) ? c : '?';
  if (text.size() > 60) out += "...";
  return out;
}

int64_t parse_int(const std::filesystem::path& file, const std::string& name, const std::string& value, int64_t min,
                  int64_t max) {
  int64_t v = 0;
  const char* end = value.data() + value.size();
  const auto [at, error] = std::from_chars(value.data(), end, v);
  const std::string where = file.string() + ": " + name + " " + shown(value);
  if (error == std::errc::result_out_of_range) throw DatasetError(where + " is out of range");
  if (error != std::errc() || at != end || value.empty())
    throw DatasetError(file.string() + ": bad " + name + " '" + shown(value) + "'");
  if (v < min || v > max)
    throw DatasetError(where + " is not " + std::to_string(min) +
                       (max == std::numeric_limits<int64_t>::max() ? " or more" : ".." + std::to_string(max)));
  return v;
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
  std::error_code size_error;
  if (const uintmax_t size = std::filesystem::file_size(file, size_error); !size_error && size > kMaxMetaBytes)
    throw DatasetError(file.string() + ": " + std::to_string(size) + " bytes, larger than any _meta pgnbase writes");
  constexpr int64_t kMaxInt64 = std::numeric_limits<int64_t>::max();
  DatasetMeta m;
  std::set<std::string> seen;
  for (std::string line; std::getline(in, line);) {
    const size_t colon = line.find(": ");
    const std::string name = line.substr(0, colon), value = colon == std::string::npos ? "" : line.substr(colon + 2);
    if (line.rfind("export ", 0) == 0) {
      const size_t number_end = line.find(':');
      const std::string number = line.substr(7, number_end == std::string::npos ? std::string::npos : number_end - 7);
      const int64_t expected = int64_t(m.exports.size()) + 1;
      if (parse_int(file, "export number", number, 1, 999999) != expected)
        throw DatasetError(file.string() + ": export " + number + " where export " + std::to_string(expected) +
                           " was expected");
      m.exports.push_back(line.substr(7));
      continue;
    }
    const bool known = name == "pgnbase_dataset" || name == "database_schema_version" || name == "database_id" ||
                       name == "bucket_bits" || name == "last_game_id" || name == "last_change" ||
                       name == "live_sources" || line == "live_sources:";
    if (known && !seen.insert(line == "live_sources:" ? "live_sources" : name).second)
      throw DatasetError(file.string() + ": " + name + " given twice");
    if (name == "pgnbase_dataset") {
      const int64_t format = parse_int(file, name, value, 1, kMaxInt64);
      if (format > kDatasetFormatVersion)
        throw DatasetError(file.string() + ": dataset format " + shown(value) + " is newer than this pgnbase's (" +
                           std::to_string(kDatasetFormatVersion) + ")");
      m.format_version = int(format);
    } else if (name == "database_schema_version") {
      m.schema_version = int(parse_int(file, name, value, 1, std::numeric_limits<int>::max()));
    } else if (name == "database_id") {
      const bool printable = std::all_of(value.begin(), value.end(), [](char c) { return c > 0x20 && c < 0x7F; });
      if (value.empty() || value.size() > 200 || !printable)
        throw DatasetError(file.string() + ": bad database_id '" + shown(value) + "'");
      m.database_id = value;
    } else if (name == "bucket_bits") {
      m.bucket_bits = int(parse_int(file, name, value, 0, kMaxBucketBits));
    } else if (name == "last_game_id") {
      m.last_game_id = parse_int(file, name, value, 0, kMaxInt64);
    } else if (name == "last_change") {
      m.last_change = parse_int(file, name, value, 0, kMaxInt64);
    } else if (name == "live_sources" || line == "live_sources:") {
      std::istringstream ids(value);
      for (std::string id; ids >> id;) m.live_sources.push_back(parse_int(file, "source id", id, 1, UINT32_MAX));
      std::sort(m.live_sources.begin(), m.live_sources.end());
      if (std::adjacent_find(m.live_sources.begin(), m.live_sources.end()) != m.live_sources.end())
        throw DatasetError(file.string() + ": a source listed twice in live_sources");
    } else if (line != kKeyLine && line != kIdsLine && line != kChangesLine && line != kRemovedLine &&
               name != "bucket" && !line.empty()) {
      throw DatasetError(file.string() + ": unexpected line '" + shown(line) + "'");
    }
  }
  if (!seen.count("pgnbase_dataset")) throw DatasetError(file.string() + ": not a pgnbase dataset _meta file");
  // Format 1 had no changes and no live sources; it is read only to be refused by name.
  std::vector<const char*> required = {"database_schema_version", "database_id", "bucket_bits", "last_game_id"};
  if (m.format_version >= 2) required.insert(required.end(), {"last_change", "live_sources"});
  for (const char* name : required)
    if (!seen.count(name)) throw DatasetError(file.string() + ": no " + name + " line");
  return m;
}

void write_dataset_meta_file(const std::filesystem::path& file, const DatasetMeta& meta) {
  const std::string text = format_dataset_meta(meta);
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw DatasetError(file.string() + ": cannot create: " + std::strerror(errno));
  if (const int error = io::write_all(fd, text.data(), text.size())) {
    ::close(fd);
    throw DatasetError(file.string() + ": write failed: " + std::strerror(error));
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0)
    throw DatasetError(file.string() + ": write failed: " + std::strerror(errno));
}

void write_dataset_meta(const std::filesystem::path& dir, const DatasetMeta& meta) {
  const std::filesystem::path file = dir / "_meta", temp = dir / (".meta.tmp-" + std::to_string(::getpid()));
  try {
    write_dataset_meta_file(temp, meta);
  } catch (...) {
    ::unlink(temp.c_str());
    throw;
  }
  std::error_code error;
  std::filesystem::rename(temp, file, error);
  if (error) {
    ::unlink(temp.c_str());
    throw DatasetError(file.string() + ": " + error.message());
  }
}

}  // namespace pgnbase::dataset
