// Whole reads and writes on a file descriptor: retried after EINTR and short counts, so
// a caller either moved every byte or has the one errno that stopped it.
#pragma once

#include <cstddef>
#include <cstdint>

namespace pgnbase::io {

// 0 when every byte was written; else the errno of the failure (ENOSPC when write()
// wrote nothing).
int write_all(int fd, const void* data, size_t size);

// 0 when exactly size bytes were read; else the errno of the failure (EIO when the file
// ended first).
int read_exactly(int fd, void* data, size_t size);

// The same at a place in the file (pwrite, pread), the file's offset left as it was.
int pwrite_all(int fd, const void* data, size_t size, uint64_t offset);
int pread_exactly(int fd, void* data, size_t size, uint64_t offset);

}  // namespace pgnbase::io
