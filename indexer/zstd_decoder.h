// Streams a zstd file (one or more concatenated frames) back into its bytes.
#pragma once

#include <memory>

#include "indexer/stream_decoder.h"

namespace pgnbase::indexer {

// Decodes input, whose first bytes are a zstd frame magic. Errors (corrupt or truncated
// data) surface from read() as InputError.
std::unique_ptr<StreamDecoder> make_zstd_decoder(RawInput input);

}  // namespace pgnbase::indexer
