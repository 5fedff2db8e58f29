#include "tools/rejects_file.h"

#include <filesystem>

namespace pgnbase::tools {

RejectsFile::RejectsFile(const std::string& path) : path_(path), target_(path) {
  stream_.open(target_.write_path(), std::ios::binary | std::ios::trunc);
  if (!stream_) throw io::OutputError("cannot write rejects file '" + path + "'");
}

void RejectsFile::begin_input() {
  if (!target_.in_place()) stream_.seekp(kept_);
}

void RejectsFile::keep_input() {
  if (!target_.in_place()) kept_ = stream_.tellp();
}

void RejectsFile::commit() {
  stream_.close();
  if (!stream_) throw io::OutputError("writing rejects file '" + path_ + "' failed");
  std::error_code ec;
  if (!target_.in_place()) std::filesystem::resize_file(target_.write_path(), uintmax_t(kept_), ec);
  if (ec) throw io::OutputError("writing rejects file '" + path_ + "' failed: " + ec.message());
  target_.commit();
}

}  // namespace pgnbase::tools
