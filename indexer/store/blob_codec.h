// Blobs stored in games.moves and games.annotations: one header byte, then the payload
// either raw (0) or as one zstd frame (1). Tiny payloads stay raw: a zstd frame costs
// more than it saves below a few dozen bytes.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/move_code.h"

namespace pgnbase::indexer {

enum class BlobFormat : uint8_t { Raw = 0, Zstd = 1 };

// Appends the encoded blob of payload to out (zstd only when it is smaller).
void encode_blob(std::string_view payload, int zstd_level, std::string& out);
// False when the blob is corrupt.
bool decode_blob(std::string_view blob, std::string& payload);

// Move codes as little-endian 16-bit words.
void encode_moves(std::span<const MoveCode> codes, int zstd_level, std::string& out);
bool decode_moves(std::string_view blob, std::vector<MoveCode>& codes);

}  // namespace pgnbase::indexer
