// LEB128 varints: 7 bits per byte, low group first, high bit set on all but the last byte.
// Decoders check bounds and length, so a corrupt buffer reads as an error, never past its end.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace pgnbase::store {

constexpr size_t kMaxVarintBytes = 10;

inline void put_varint(std::vector<uint8_t>& out, uint64_t value) {
  while (value >= 0x80) {
    out.push_back(static_cast<uint8_t>(value | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<uint8_t>(value));
}

// Writes the varint at out (room for kMaxVarintBytes) and returns the byte after it.
inline uint8_t* put_varint(uint8_t* out, uint64_t value) {
  while (value >= 0x80) {
    *out++ = static_cast<uint8_t>(value | 0x80);
    value >>= 7;
  }
  *out++ = static_cast<uint8_t>(value);
  return out;
}

// Reads one varint at p, advancing p. Returns false (p unspecified) when the bytes end
// inside the varint or it is longer than 10 bytes.
inline bool get_varint(const uint8_t*& p, const uint8_t* end, uint64_t& value) {
  uint64_t result = 0;
  for (int shift = 0; shift < 64 && p < end; shift += 7) {
    uint8_t byte = *p++;
    result |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if (byte < 0x80) {
      value = result;
      return true;
    }
  }
  return false;
}

// Advances p over count varints; false when the bytes end first.
inline bool skip_varints(const uint8_t*& p, const uint8_t* end, uint64_t count) {
  for (; count > 0; --count) {
    while (p < end && *p >= 0x80) ++p;
    if (p == end) return false;
    ++p;
  }
  return true;
}

}  // namespace pgnbase::store
