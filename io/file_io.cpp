#include "io/file_io.h"

#include <unistd.h>

#include <cerrno>

namespace pgnbase::io {

namespace {

// Calls move(done) until size bytes are moved: each call moves some of the rest, returning
// how many (as write() and read() do). 0 when all were; else the errno, or `stopped` when a
// call moved nothing.
template <typename Move>
int move_all(size_t size, int stopped, const Move& move) {
  for (size_t done = 0; done < size;) {
    const ssize_t n = move(done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return n < 0 ? errno : stopped;
    done += size_t(n);
  }
  return 0;
}

}  // namespace

int write_all(int fd, const void* data, size_t size) {
  const char* at = static_cast<const char*>(data);
  return move_all(size, ENOSPC, [&](size_t done) { return ::write(fd, at + done, size - done); });
}

int read_exactly(int fd, void* data, size_t size) {
  char* at = static_cast<char*>(data);
  return move_all(size, EIO, [&](size_t done) { return ::read(fd, at + done, size - done); });
}

int pwrite_all(int fd, const void* data, size_t size, uint64_t offset) {
  const char* at = static_cast<const char*>(data);
  return move_all(size, ENOSPC,
                  [&](size_t done) { return ::pwrite(fd, at + done, size - done, off_t(offset + done)); });
}

int pread_exactly(int fd, void* data, size_t size, uint64_t offset) {
  char* at = static_cast<char*>(data);
  return move_all(size, EIO, [&](size_t done) { return ::pread(fd, at + done, size - done, off_t(offset + done)); });
}

}  // namespace pgnbase::io
