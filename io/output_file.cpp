#include "io/output_file.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace pgnbase::io {

OutputFile::OutputFile(const std::string& path) : name_(path.empty() || path == "-" ? "<stdout>" : path) {
  if (path.empty() || path == "-") {
    file_ = stdout;
    stdout_ = true;
  } else {
    target_ = std::make_unique<ReplacingFile>(path);
    file_ = std::fopen(target_->write_path().c_str(), "wb");
    if (!file_) throw OutputError("cannot write '" + path + "': " + std::strerror(errno));
  }
  terminal_ = isatty(fileno(file_));
  buffer_.reserve(kFlushBytes + (kFlushBytes >> 2));
}

OutputFile::OutputFile(std::string* memory) : name_("<memory>"), memory_(memory) {}

OutputFile::~OutputFile() {
  if (!file_) return;
  // A half-written temporary file is dropped (target_ removes it); a stream or a
  // terminal gets the rest.
  const bool keep_rest = stdout_ || target_->in_place();
  if (keep_rest && !buffer_.empty()) std::fwrite(buffer_.data(), 1, buffer_.size(), file_);
  if (stdout_) std::fflush(file_);
  else std::fclose(file_);
}

void OutputFile::flush() {
  if (memory_) {
    memory_->append(buffer_);
    buffer_.clear();
    return;
  }
  if (!file_) throw OutputError("'" + name_ + "' is closed");
  if (!buffer_.empty() && std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size())
    throw OutputError("writing '" + name_ + "' failed: " + std::strerror(errno));
  buffer_.clear();
}

void OutputFile::close() {
  flush();
  if (memory_) return;
  std::FILE* f = file_;
  file_ = nullptr;
  int rc = stdout_ ? std::fflush(f) : std::fclose(f);
  if (rc != 0) throw OutputError("writing '" + name_ + "' failed: " + std::strerror(errno));
  if (target_) target_->commit();
}

}  // namespace pgnbase::io
