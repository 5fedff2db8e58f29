// Parquet's RLE / bit-packing hybrid encoding of small integers: definition levels and
// dictionary indices (https://parquet.apache.org/docs/file-format/data-pages/encodings/,
// "Run Length Encoding / Bit-Packing Hybrid").
//
// | run              | header (ULEB128)        | then                                        |
// |------------------|-------------------------|---------------------------------------------|
// | repeated value   | count << 1              | the value in ceil(bit_width / 8) bytes, LE |
// | bit-packed       | (groups of 8) << 1 | 1  | groups * bit_width bytes, LSB first         |
//
// Runs of 8 or more equal values become repeated runs; the rest is bit-packed in whole
// groups of 8, so only the stream's last group carries padding (readers stop at the
// page's value count).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace pgnbase::dataset {

// The number of bits needed for values up to max_value (0 for 0).
int bit_width_for(uint32_t max_value);

// Appends the encoded values to out, without a length prefix. bit_width 0..32.
void append_rle_hybrid(std::span<const uint32_t> values, int bit_width, std::vector<uint8_t>& out);

}  // namespace pgnbase::dataset
