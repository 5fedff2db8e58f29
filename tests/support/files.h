// Whole-file reads and writes for tests. Both throw std::runtime_error naming the path
// when the file cannot be read or written, so that a test never compares against the
// empty text of a file that is not there (GoogleTest reports the exception as a
// failure of the test; the fuzz replays, which do not link GoogleTest, abort).
#pragma once

#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <string_view>

namespace pgnbase::test {

// Returns the bytes of the file at path.
inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Writes bytes to path, replacing any file there.
inline void write_file(const std::filesystem::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

}  // namespace pgnbase::test
