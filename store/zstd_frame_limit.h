// What a zstd frame read from a database can decompress to, so that a decoder sizes
// its buffer by the bytes it was given, never by the size the frame claims.
//
// A frame is a header of at least 6 bytes and blocks; a block that produces output
// costs at least 4 bytes (a 3-byte block header and one byte: an RLE block) and
// produces at most ZSTD_BLOCKSIZE_MAX (128 KiB), RFC 8878 section 3.1.1.2. So n bytes
// never decompress to more than n / 4 * 128 KiB (a ratio of 32,768), whatever the
// frame header says.
#pragma once

#include <zstd.h>

#include <cstddef>
#include <cstdint>

namespace pgnbase::store {

inline constexpr uint64_t zstd_max_output(size_t compressed_bytes) {
  return uint64_t(compressed_bytes / 4) * uint64_t(ZSTD_BLOCKSIZE_MAX);
}

}  // namespace pgnbase::store
