#include "io/replacing_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "io/removed_on_signal.h"

namespace pgnbase::io {

namespace fs = std::filesystem;

namespace {

bool written_in_place(const std::string& path) {
  if (path.starts_with("/dev/") || path.starts_with("/proc/")) return true;
  struct stat info {};
  return stat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode);
}

std::string system_message(int error) { return std::strerror(error); }

}  // namespace

ReplacingFile::ReplacingFile(const std::string& path) : path_(path), target_(path), write_path_(path) {
  if (written_in_place(path)) {
    in_place_ = true;
    return;
  }
  std::error_code ec;
  if (fs::is_symlink(fs::symlink_status(path, ec))) {
    const fs::path resolved = fs::weakly_canonical(path, ec);
    if (!ec) target_ = resolved.string();
  }
  struct stat old {};
  const bool replaces = stat(target_.c_str(), &old) == 0;
  // NAME.tmp-PID beside the target; names near the 255-byte limit are shortened.
  const fs::path target(target_);
  std::string stem = target.filename().string().substr(0, 200);
  const std::string base = (target.parent_path() / stem).string() + ".tmp-" + std::to_string(getpid());
  int fd = -1;
  for (int attempt = 0; fd < 0; ++attempt) {
    write_path_ = attempt == 0 ? base : base + "-" + std::to_string(attempt);
    // Named for the signal handler before it exists, so that no signal finds the file
    // made and not yet named; a name taken by another file is released unopened.
    signal_slot_ = remove_on_signal(write_path_);
    fd = open(write_path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) break;
    const int error = errno;
    forget_on_signal(signal_slot_);
    signal_slot_ = -1;
    if (error != EEXIST || attempt == 100) {
      write_path_ = path;
      throw OutputError("cannot write '" + path + "': cannot create a temporary file beside it: " + system_message(error));
    }
  }
  if (replaces) fchmod(fd, old.st_mode & 07777);
  close(fd);
}

ReplacingFile::~ReplacingFile() {
  if (in_place_ || committed_) return;
  unlink(write_path_.c_str());
  forget_on_signal(signal_slot_);
}

void ReplacingFile::commit() {
  if (in_place_ || committed_) return;
  // Synced before the rename, so that a crash cannot leave the new name with no data.
  const int fd = open(write_path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0 || fsync(fd) != 0) {
    const int error = errno;
    if (fd >= 0) close(fd);
    throw OutputError("writing '" + path_ + "' failed: " + system_message(error));
  }
  close(fd);
  if (rename(write_path_.c_str(), target_.c_str()) != 0)
    throw OutputError("cannot put '" + path_ + "' in place: " + system_message(errno));
  committed_ = true;
  forget_on_signal(signal_slot_);
}

}  // namespace pgnbase::io
