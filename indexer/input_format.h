// What the first bytes of an input say about it: which compression wraps it. The test
// looks at content only, never at the file name.
//
// Compression, by magic bytes at offset 0:
//   zstd 28 B5 2F FD | gzip 1F 8B 08 | bzip2 "BZh" + '1'..'9' | xz FD "7zXZ" 00 |
//   zip "PK" 03 04 (a member) or "PK" 05 06 (an empty archive)
#pragma once

#include <cstddef>
#include <string_view>

namespace pgnbase::indexer {

enum class Compression { None, Zstd, Gzip, Bzip2, Xz, Zip };

// Bytes that detect_compression needs to see (the xz magic is the longest).
constexpr size_t kMagicBytes = 6;

// The compression whose magic head starts with; None for anything else.
Compression detect_compression(std::string_view head);

// "zstd", "gzip", "bzip2", "xz", "zip", or "plain", for messages.
std::string_view compression_name(Compression compression);

}  // namespace pgnbase::indexer
