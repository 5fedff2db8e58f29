// Streams a zstd file (one or more concatenated frames) back into its bytes.
//
// A frame states the window it needs, and the decoder must hold that much memory: a
// hostile file could ask for 2 GiB. Frames asking for more than 2^kZstdWindowLogMax
// bytes (128 MiB) are refused, as the zstd command does without --long or --memory
// (ZSTD_WINDOWLOG_LIMIT_DEFAULT). `zstd --long` writes 2^27, the lichess database dumps
// stay within it, and every .zst in ../shared/data uses 8 MiB or less.
#pragma once

#include <memory>

#include "indexer/stream_decoder.h"

namespace pgnbase::indexer {

constexpr int kZstdWindowLogMax = 27;

// Decodes input, whose first bytes are a zstd frame magic. Errors (corrupt or truncated
// data, a window over the limit) surface from read() as InputError.
std::unique_ptr<StreamDecoder> make_zstd_decoder(RawInput input);

}  // namespace pgnbase::indexer
