// Buffered output to a file or stdout: callers append to buffer() and call
// maybe_flush() after each record; the bytes go out in large fwrite()s.
// Write failures (disk full, closed pipe) throw OutputError naming the file.
#pragma once

#include <cstdio>
#include <stdexcept>
#include <string>

namespace pgnbase::query {

class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class OutputFile {
 public:
  static constexpr size_t kFlushBytes = size_t{1} << 20;

  // "-" (or "") is stdout; any other path is created or truncated.
  explicit OutputFile(const std::string& path);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  std::string& buffer() { return buffer_; }
  void maybe_flush() {
    if (buffer_.size() >= kFlushBytes) flush();
  }
  void flush();
  // Flushes and closes; throws on failure. The destructor closes silently.
  void close();
  bool is_stdout() const { return stdout_; }
  const std::string& name() const { return name_; }

 private:
  std::string name_;
  std::FILE* file_ = nullptr;
  bool stdout_ = false;
  std::string buffer_;
};

}  // namespace pgnbase::query
