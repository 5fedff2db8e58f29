// Decoding of Parquet's RLE / bit-packing hybrid (rle_hybrid.h draws the layout and
// writes it): definition levels and dictionary indices of pages read from untrusted
// files. Every run header and byte count is checked against the input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace pgnbase::dataset {

// Appends count values of bit_width bits (0..32) decoded from in to out. False when the
// input ends before count values or a run is malformed; out then holds what was decoded.
// A last bit-packed run may be cut short after its last needed value (some writers do).
bool decode_rle_hybrid(std::span<const uint8_t> in, int bit_width, size_t count, std::vector<uint32_t>& out);

}  // namespace pgnbase::dataset
