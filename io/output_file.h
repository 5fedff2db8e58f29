// Buffered output to a file or stdout: callers append to buffer() and call
// maybe_flush() after each record; the bytes go out in large fwrite()s.
// A file is written through a ReplacingFile (io/replacing_file.h): under a
// temporary name, renamed over the asked one by close(), so a failed or interrupted
// command leaves the old file (or none) under that name, never half of a new one.
// Write failures (disk full, closed pipe) throw OutputError naming the file.
#pragma once

#include <cstdio>
#include <memory>
#include <string>

#include "io/replacing_file.h"

namespace pgnbase::io {

class OutputFile {
 public:
  static constexpr size_t kFlushBytes = size_t{1} << 20;

  // "-" (or "") is stdout; any other path is replaced when close() succeeds.
  explicit OutputFile(const std::string& path);
  // Into MEMORY instead of a file (a server's answer): flush() and close() append the
  // buffer to it. MEMORY must outlive the OutputFile.
  explicit OutputFile(std::string* memory);
  // Without close(), a file's temporary copy is removed and the asked name keeps what
  // it held; stdout gets what is buffered.
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  std::string& buffer() { return buffer_; }
  void maybe_flush() {
    if (buffer_.size() >= kFlushBytes) flush();
  }
  void flush();
  // Flushes, closes and puts the file in place; throws on failure.
  void close();
  bool is_stdout() const { return stdout_; }
  // Whether the bytes go to a terminal (stdout or a path like /dev/tty), which acts on
  // control characters.
  bool is_terminal() const { return terminal_; }
  const std::string& name() const { return name_; }

 private:
  std::string name_;
  std::unique_ptr<ReplacingFile> target_;
  std::FILE* file_ = nullptr;
  bool stdout_ = false;
  bool terminal_ = false;
  std::string buffer_;
  std::string* memory_ = nullptr;
};

}  // namespace pgnbase::io
