// Bit-level writing and reading, least significant bit first, for the parts of a
// posting block that a byte-oriented compressor cannot shrink: fixed-width fields
// and Rice codes (https://en.wikipedia.org/wiki/Golomb_coding#Rice_coding).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

namespace pgnbase::store {

// A quotient this large is written as kRiceEscape ones followed by the whole value in
// 64 bits, so one outlier never costs more than 96 bits.
constexpr int kRiceEscape = 32;

inline constexpr uint64_t low_bits_mask(int bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

// Appends bits to a byte vector. Call finish() before using the bytes.
class BitWriter {
 public:
  explicit BitWriter(std::vector<uint8_t>& out) : out_(out) {}

  // Writes the low `bits` bits of value (0 <= bits <= 64).
  void write(uint64_t value, int bits) {
    if (bits > 32) {
      write(value & 0xffffffffu, 32);
      write(value >> 32, bits - 32);
      return;
    }
    // Fewer than 32 bits wait in the buffer between writes, so these fit; they go out
    // four bytes at a time.
    buffer_ |= (value & low_bits_mask(bits)) << count_;
    count_ += bits;
    if (count_ >= 32) flush_word();
  }

  // Writes value as a Rice code with parameter k: the quotient value >> k in unary
  // (ones ended by a zero), then the k low bits.
  void write_rice(uint64_t value, int k) {
    uint64_t quotient = value >> k;
    if (quotient >= static_cast<uint64_t>(kRiceEscape)) {
      write(low_bits_mask(kRiceEscape), kRiceEscape);
      write(value, 64);
      return;
    }
    int q = static_cast<int>(quotient);
    write(low_bits_mask(q), q + 1);
    write(value, k);
  }

  // Writes the bits left, the last byte padded with zero bits.
  void finish() {
    for (; count_ > 0; count_ -= 8) {
      out_.push_back(static_cast<uint8_t>(buffer_));
      buffer_ >>= 8;
    }
    buffer_ = 0;
    count_ = 0;
  }

 private:
  // Out of line, so that write() stays small enough to inline.
  [[gnu::noinline]] void flush_word() {
    const uint8_t bytes[4] = {uint8_t(buffer_), uint8_t(buffer_ >> 8), uint8_t(buffer_ >> 16), uint8_t(buffer_ >> 24)};
    out_.insert(out_.end(), bytes, bytes + 4);
    buffer_ >>= 32;
    count_ -= 32;
  }

  std::vector<uint8_t>& out_;
  uint64_t buffer_ = 0;
  int count_ = 0;
};

// The number of bits write_rice(value, k) produces.
inline uint64_t rice_length(uint64_t value, int k) {
  uint64_t quotient = value >> k;
  if (quotient >= static_cast<uint64_t>(kRiceEscape)) return kRiceEscape + 64;
  return quotient + 1 + static_cast<uint64_t>(k);
}

// Reads bits from a byte range that must stay alive while the reader is used.
// Reading past the end yields zeros and sets failed(), so corrupt input is detected
// by one check after decoding rather than on every read.
class BitReader {
 public:
  explicit BitReader(std::span<const uint8_t> bytes) : bytes_(bytes), size_bits_(bytes.size() * 8) {}

  uint64_t read(int bits) {
    if (bits > 56) {
      uint64_t low = read(32);
      return low | (read(bits - 32) << 32);
    }
    if (bits == 0) return 0;
    if (position_ + static_cast<size_t>(bits) > size_bits_) {
      failed_ = true;
      position_ = size_bits_;
      return 0;
    }
    uint64_t value = (peek_word() >> (position_ & 7)) & low_bits_mask(bits);
    position_ += static_cast<size_t>(bits);
    return value;
  }

  uint64_t read_rice(int k) {
    int quotient = 0;
    for (;;) {
      // Up to 56 bits can be looked at in one go.
      size_t available = size_bits_ - position_;
      if (available == 0) {
        failed_ = true;
        return 0;
      }
      int window = available < 56 ? static_cast<int>(available) : 56;
      uint64_t bits = (peek_word() >> (position_ & 7)) & low_bits_mask(window);
      int ones = std::countr_one(bits);
      if (ones > window) ones = window;
      if (quotient + ones >= kRiceEscape) {
        position_ += static_cast<size_t>(kRiceEscape - quotient);
        return read(64);
      }
      quotient += ones;
      position_ += static_cast<size_t>(ones);
      if (ones < window) {
        ++position_;  // the terminating zero
        return (static_cast<uint64_t>(quotient) << k) | read(k);
      }
    }
  }

  // Moves to an absolute bit position (for fixed-width random access).
  void seek(size_t bit_position) {
    if (bit_position > size_bits_) {
      failed_ = true;
      bit_position = size_bits_;
    }
    position_ = bit_position;
  }

  bool failed() const { return failed_; }

 private:
  // The 8 bytes starting at the current byte, zero-filled past the end.
  uint64_t peek_word() const {
    size_t byte = position_ >> 3;
    uint64_t word = 0;
    size_t n = bytes_.size() - byte < 8 ? bytes_.size() - byte : 8;
    std::memcpy(&word, bytes_.data() + byte, n);
    if constexpr (std::endian::native == std::endian::big) word = __builtin_bswap64(word);
    return word;
  }

  std::span<const uint8_t> bytes_;
  size_t size_bits_;
  size_t position_ = 0;
  bool failed_ = false;
};

}  // namespace pgnbase::store
