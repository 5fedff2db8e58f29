#include "io/file_io.h"

#include <unistd.h>

#include <cerrno>

namespace pgnbase::io {

int write_all(int fd, const void* data, size_t size) {
  const char* at = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = ::write(fd, at, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return n < 0 ? errno : ENOSPC;
    at += n;
    size -= size_t(n);
  }
  return 0;
}

int read_exactly(int fd, void* data, size_t size) {
  char* at = static_cast<char*>(data);
  while (size > 0) {
    const ssize_t n = ::read(fd, at, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return n < 0 ? errno : EIO;
    at += n;
    size -= size_t(n);
  }
  return 0;
}

}  // namespace pgnbase::io
