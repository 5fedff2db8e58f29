#include "dataset/rle_hybrid.h"

#include <bit>

#include "store/varint.h"

namespace pgnbase::dataset {

namespace {

size_t run_length(std::span<const uint32_t> values, size_t i) {
  size_t j = i + 1;
  while (j < values.size() && values[j] == values[i]) ++j;
  return j - i;
}

void put_repeated(std::vector<uint8_t>& out, uint32_t value, size_t count, int bit_width) {
  store::put_varint(out, uint64_t(count) << 1);
  for (int byte = 0; byte < (bit_width + 7) / 8; ++byte) out.push_back(uint8_t(value >> (8 * byte)));
}

// Packs values[begin, begin + 8 * groups) (zeros past the end) LSB first.
void put_bit_packed(std::vector<uint8_t>& out, std::span<const uint32_t> values, size_t begin, size_t groups,
                    int bit_width) {
  store::put_varint(out, uint64_t(groups) << 1 | 1);
  uint64_t buffer = 0;
  int bits = 0;
  for (size_t i = begin; i < begin + 8 * groups; ++i) {
    const uint64_t v = i < values.size() ? values[i] : 0;
    buffer |= v << bits;
    bits += bit_width;
    while (bits >= 8) {
      out.push_back(uint8_t(buffer));
      buffer >>= 8;
      bits -= 8;
    }
  }
}

}  // namespace

int bit_width_for(uint32_t max_value) { return std::bit_width(max_value); }

void append_rle_hybrid(std::span<const uint32_t> values, int bit_width, std::vector<uint8_t>& out) {
  size_t i = 0;
  while (i < values.size()) {
    const size_t run = run_length(values, i);
    if (run >= 8) {
      put_repeated(out, values[i], run, bit_width);
      i += run;
      continue;
    }
    // Whole groups of 8 until a run of 8 starts at a group boundary, or the end.
    size_t end = i;
    do {
      end += 8;
    } while (end < values.size() && run_length(values, end) < 8);
    put_bit_packed(out, values, i, (end - i) / 8, bit_width);
    i = end;
  }
}

}  // namespace pgnbase::dataset
