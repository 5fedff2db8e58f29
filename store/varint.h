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

// Writes varints and single bytes through a pointer into a byte buffer (std::string or
// std::vector<uint8_t>) sized for the longest of them, then cuts it to what was written:
// push_back checks the capacity and stores the size at every byte, which hot encoders
// (a clock a move, a block's groups) avoid. max_items: the varints and bytes to come.
template <class Bytes>
class VarintAppender {
 public:
  VarintAppender(Bytes& out, size_t max_items) : out_(out), start_(out.size()) {
    out.resize(start_ + max_items * kMaxVarintBytes);
    next_ = begin() + start_;
  }
  void put(uint64_t value) { next_ = put_varint(next_, value); }
  void put_byte(uint8_t byte) { *next_++ = byte; }
  void done() { out_.resize(size_t(next_ - begin())); }

 private:
  uint8_t* begin() { return reinterpret_cast<uint8_t*>(out_.data()); }

  Bytes& out_;
  size_t start_;
  uint8_t* next_;
};

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
