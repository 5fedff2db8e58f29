#include "query/output_file.h"

#include <cerrno>
#include <cstring>

namespace pgnbase::query {

OutputFile::OutputFile(const std::string& path) : name_(path.empty() || path == "-" ? "<stdout>" : path) {
  if (path.empty() || path == "-") {
    file_ = stdout;
    stdout_ = true;
  } else {
    file_ = std::fopen(path.c_str(), "wb");
    if (!file_) throw OutputError("cannot write '" + path + "': " + std::strerror(errno));
  }
  buffer_.reserve(kFlushBytes + (kFlushBytes >> 2));
}

OutputFile::~OutputFile() {
  if (!file_) return;
  if (!buffer_.empty()) std::fwrite(buffer_.data(), 1, buffer_.size(), file_);
  if (stdout_) std::fflush(file_);
  else std::fclose(file_);
}

void OutputFile::flush() {
  if (!file_) throw OutputError("'" + name_ + "' is closed");
  if (!buffer_.empty() && std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size())
    throw OutputError("writing '" + name_ + "' failed: " + std::strerror(errno));
  buffer_.clear();
}

void OutputFile::close() {
  flush();
  std::FILE* f = file_;
  file_ = nullptr;
  int rc = stdout_ ? std::fflush(f) : std::fclose(f);
  if (rc != 0) throw OutputError("writing '" + name_ + "' failed: " + std::strerror(errno));
}

}  // namespace pgnbase::query
