#include "dataset/rle_hybrid_reader.h"

#include <algorithm>

#include "store/varint.h"

namespace pgnbase::dataset {

bool decode_rle_hybrid(std::span<const uint8_t> in, int bit_width, size_t count, std::vector<uint32_t>& out) {
  if (bit_width < 0 || bit_width > 32) return false;
  const uint8_t* p = in.data();
  const uint8_t* const end = in.data() + in.size();
  const size_t target = out.size() + count;
  const uint64_t mask = bit_width == 32 ? 0xFFFFFFFFull : (uint64_t{1} << bit_width) - 1;
  while (out.size() < target) {
    uint64_t header = 0;
    if (!store::get_varint(p, end, header)) return false;
    if ((header & 1) == 0) {  // repeated run: count << 1, then the value in whole bytes
      const uint64_t run = header >> 1;
      const int bytes = (bit_width + 7) / 8;
      if (run == 0 || end - p < bytes) return false;
      uint32_t value = 0;
      for (int b = 0; b < bytes; ++b) value |= uint32_t(p[b]) << (8 * b);
      p += bytes;
      if (uint64_t(value) > mask) return false;
      const size_t take = size_t(std::min<uint64_t>(run, target - out.size()));
      out.insert(out.end(), take, value);
      continue;
    }
    // Bit-packed run: (groups of 8) << 1 | 1, then groups * bit_width bytes.
    const uint64_t groups = header >> 1;
    if (groups == 0 || groups > (uint64_t(1) << 40)) return false;
    const size_t values = size_t(std::min<uint64_t>(groups * 8, target - out.size()));
    const uint64_t run_bytes = groups * uint64_t(bit_width);
    const uint64_t needed_bytes = (uint64_t(values) * uint64_t(bit_width) + 7) / 8;
    if (needed_bytes > uint64_t(end - p)) return false;
    uint64_t buffer = 0;
    int bits = 0;
    const uint8_t* q = p;
    for (size_t i = 0; i < values; ++i) {
      while (bits < bit_width) {
        buffer |= uint64_t(*q++) << bits;
        bits += 8;
      }
      out.push_back(uint32_t(buffer & mask));
      buffer >>= bit_width;
      bits -= bit_width;
    }
    p += std::min<uint64_t>(run_bytes, uint64_t(end - p));
  }
  return true;
}

}  // namespace pgnbase::dataset
