#include "indexer/block_spool.h"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

#include "indexer/run_file_cleanup.h"
#include "io/file_io.h"
#include "store/position_posting.h"

namespace pgnbase::indexer {

namespace {

[[noreturn]] void fail(const std::string& doing, const std::filesystem::path& directory, int error) {
  throw store::PositionIndexError("cannot " + doing + " position index blocks waiting in '" + directory.string() +
                                  "': " + (error ? std::strerror(error) : "unexpected end of file"));
}

}  // namespace

BlockSpool::~BlockSpool() {
  if (fd_ >= 0) ::close(fd_);
}

uint64_t BlockSpool::write(std::span<const uint8_t> bytes) {
  std::lock_guard lock(mutex_);
  if (fd_ < 0) {
    remove_run_files_on_signal(directory_);  // the file has a name only until the unlink below
    std::string name = run_file_template(directory_);
    fd_ = ::mkstemps(name.data(), 4);
    if (fd_ < 0) fail("create a file for the", directory_, errno);
    ::unlink(name.c_str());
  }
  const uint64_t offset = end_;
  if (const int error = io::pwrite_all(fd_, bytes.data(), bytes.size(), offset)) fail("write the", directory_, error);
  end_ += bytes.size();
  return offset;
}

void BlockSpool::read(uint64_t offset, size_t size, std::vector<uint8_t>& out) const {
  out.resize(size);
  std::lock_guard lock(mutex_);
  for (size_t done = 0; done < size;) {
    const ssize_t n = ::pread(fd_, out.data() + done, size - done, off_t(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail("read back the", directory_, n < 0 ? errno : 0);
    done += size_t(n);
  }
}

uint64_t BlockSpool::bytes_written() const {
  std::lock_guard lock(mutex_);
  return end_;
}

}  // namespace pgnbase::indexer
