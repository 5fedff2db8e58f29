// Blobs stored in games.annotations (and the moves of schema 3 and older): one header
// byte, then the payload either raw (0) or as one zstd frame (1). Tiny payloads stay
// raw: a zstd frame costs more than it saves below a few dozen bytes. games.moves is
// written as CompactMoves (2): moves_codec.h.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>


namespace pgnbase::store {

enum class BlobFormat : uint8_t { Raw = 0, Zstd = 1, CompactMoves = 2 };

// Appends the encoded blob of payload to out (zstd only when it is smaller).
void encode_blob(std::string_view payload, int zstd_level, std::string& out);
// False when the blob is corrupt.
bool decode_blob(std::string_view blob, std::string& payload);
// The payload's size as its header states it (what decode_blob would allocate), without
// decoding: for bounding memory by bytes before the work. A corrupt header counts as the
// stored size.
size_t decoded_blob_size(std::string_view blob);

}  // namespace pgnbase::store
