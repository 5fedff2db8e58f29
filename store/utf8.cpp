#include "store/utf8.h"

#include <cstdint>

namespace pgnbase::store {

namespace {

bool continuation(uint8_t c) { return (c & 0xC0) == 0x80; }

// Length of the valid UTF-8 sequence starting at s[i] (a non-ASCII lead byte), or 0:
// no overlong forms, no surrogates, nothing above U+10FFFF (RFC 3629, table 3-7).
size_t utf8_sequence(std::string_view s, size_t i) {
  auto at = [&](size_t k) { return i + k < s.size() ? uint8_t(s[i + k]) : uint8_t(0); };
  const uint8_t c = at(0);
  if (c >= 0xC2 && c <= 0xDF) return continuation(at(1)) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    const uint8_t c1 = at(1);
    const bool ok = c == 0xE0 ? (c1 >= 0xA0 && c1 <= 0xBF) : c == 0xED ? (c1 >= 0x80 && c1 <= 0x9F) : continuation(c1);
    return ok && continuation(at(2)) ? 3 : 0;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    const uint8_t c1 = at(1);
    const bool ok = c == 0xF0 ? (c1 >= 0x90 && c1 <= 0xBF) : c == 0xF4 ? (c1 >= 0x80 && c1 <= 0x8F) : continuation(c1);
    return ok && continuation(at(2)) && continuation(at(3)) ? 4 : 0;
  }
  return 0;
}

}  // namespace

Character read_character(std::string_view text, size_t i) {
  const uint8_t c = uint8_t(text[i]);
  if (c < 0x80) return {c, 1};
  const size_t n = utf8_sequence(text, i);
  if (n == 0) return {c, 1};  // the byte as a Latin-1 character
  char32_t value = c & (0x7F >> n);
  for (size_t k = 1; k < n; ++k) value = (value << 6) | (uint8_t(text[i + k]) & 0x3F);
  return {value, n};
}

std::string as_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const Character c = read_character(text, i);
    append_utf8(c.code_point, out);
    i += c.bytes;
  }
  return out;
}

}  // namespace pgnbase::store
