#include "indexer/fresh_build.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "io/file_identity.h"
#include "io/removed_on_signal.h"

namespace pgnbase::indexer {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail(const std::string& what, int error) {
  throw std::runtime_error(what + ": " + std::strerror(error));
}

bool exists(const std::string& path) {
  struct stat info;
  return ::stat(path.c_str(), &info) == 0;
}

// SQLite's files beside the build (a hot journal left by a killed import would be
// rolled back into the next build).
void remove_sidecars(const std::string& build_path) {
  std::error_code ignored;
  for (const std::string& file : io::database_files(build_path))
    if (file != build_path) fs::remove(file, ignored);
}

// rename that never replaces: renameat2(RENAME_NOREPLACE), or where the file system
// lacks it, link then unlink (link never replaces either).
int rename_no_replace(const std::string& from, const std::string& to) {
  if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0) return 0;
  if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP) return -1;
  if (::link(from.c_str(), to.c_str()) != 0) return -1;
  ::unlink(from.c_str());
  return 0;
}

void sync_folder_of(const std::string& path) {
  fs::path folder = fs::path(path).parent_path();
  if (folder.empty()) folder = ".";
  const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;  // the rename stands; only its durability across a power loss is unsure
  ::fsync(fd);
  ::close(fd);
}

}  // namespace

std::optional<FreshBuild> FreshBuild::start(const std::string& path, const std::function<void()>& on_wait) {
  const std::string build_path = path + "-building";
  bool waited = false;
  for (;;) {
    if (exists(path)) return std::nullopt;
    const int fd = ::open(build_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) fail("cannot create " + build_path, errno);
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int error = errno;
      if (error != EWOULDBLOCK) {
        ::close(fd);
        fail("cannot lock " + build_path, error);
      }
      if (on_wait && !waited) on_wait();
      waited = true;
      if (::flock(fd, LOCK_EX) != 0) {
        const int lock_error = errno;
        ::close(fd);
        fail("cannot lock " + build_path, lock_error);
      }
    }
    // The import that held the lock may have published (this file is then PATH) or
    // removed its build (this file then has no name): start over.
    struct stat held, named;
    const bool same = ::fstat(fd, &held) == 0 && ::stat(build_path.c_str(), &named) == 0 &&
                      held.st_dev == named.st_dev && held.st_ino == named.st_ino;
    if (!same || exists(path)) {
      ::close(fd);
      continue;
    }
    remove_sidecars(build_path);
    if (::ftruncate(fd, 0) != 0) {
      const int error = errno;
      ::close(fd);
      fail("cannot empty " + build_path, error);
    }
    return FreshBuild(path, build_path, fd);
  }
}

FreshBuild::FreshBuild(std::string path, std::string build_path, int lock_fd)
    : path_(std::move(path)),
      build_path_(std::move(build_path)),
      lock_fd_(lock_fd),
      signal_slot_(io::remove_on_signal(build_path_)),
      writeback_(std::make_unique<WritebackAhead>(lock_fd)) {}

FreshBuild::FreshBuild(FreshBuild&& other) noexcept
    : path_(std::move(other.path_)),
      build_path_(std::move(other.build_path_)),
      lock_fd_(other.lock_fd_),
      signal_slot_(other.signal_slot_),
      keep_(other.keep_),
      writeback_(std::move(other.writeback_)) {
  other.lock_fd_ = -1;
  other.signal_slot_ = -1;
}

FreshBuild::~FreshBuild() {
  if (lock_fd_ < 0) return;
  writeback_.reset();  // before the file it reads goes
  io::forget_on_signal(signal_slot_);
  if (!keep_) {
    // Removed while still locked: an import waiting for the lock then finds no file
    // under the name and starts over (start).
    ::unlink(build_path_.c_str());
    remove_sidecars(build_path_);
  }
  ::close(lock_fd_);
}

void FreshBuild::publish() {
  // The journal is in memory and nothing was synced: the data reaches the disk before
  // the name does, so a power loss never leaves PATH naming a half-written file.
  writeback_.reset();
  if (::fsync(lock_fd_) != 0) fail("cannot sync " + build_path_, errno);
  io::forget_on_signal(signal_slot_);  // from here on a signal must not remove the database
  signal_slot_ = -1;
  if (rename_no_replace(build_path_, path_) != 0) {
    const int error = errno;
    keep_ = true;
    if (error == EEXIST)
      throw std::runtime_error(path_ + " appeared while this import built it; the new database is left as " +
                               build_path_);
    fail("cannot rename " + build_path_ + " to " + path_ + " (the new database is left there)", error);
  }
  keep_ = true;
  sync_folder_of(path_);
}

}  // namespace pgnbase::indexer
