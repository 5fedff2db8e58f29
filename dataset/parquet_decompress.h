// Decompression of a Parquet page: UNCOMPRESSED, SNAPPY (libsnappy), GZIP (zlib) and
// ZSTD (libzstd). The page header states the uncompressed size; a page that does not
// decompress to exactly that many bytes is damaged. Every library used checks its input,
// so hostile bytes give an error, never a read or write out of bounds.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "dataset/parquet_format.h"

namespace pgnbase::dataset::parquet {

// True for the codecs decompress() reads.
bool can_decompress(Codec codec);

// Decompresses in into out (resized to expected_size). Returns nullopt on success, else
// why not ("corrupt snappy data", ...). The codec must be one can_decompress() accepts.
std::optional<std::string> decompress(Codec codec, std::span<const uint8_t> in, size_t expected_size,
                                      std::vector<uint8_t>& out);

}  // namespace pgnbase::dataset::parquet
