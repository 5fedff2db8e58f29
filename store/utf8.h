// UTF-8 encoding of one code point: shared by the stored names' folding (name_words) and
// query's text output (text_encoding), which both turn Latin-1 bytes into characters.
#pragma once

#include <string>

namespace pgnbase::store {

// Appends c (at most U+10FFFF) to out as UTF-8.
inline void append_utf8(char32_t c, std::string& out) {
  if (c < 0x80) {
    out += char(c);
  } else if (c < 0x800) {
    out += char(0xC0 | (c >> 6));
    out += char(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += char(0xE0 | (c >> 12));
    out += char(0x80 | ((c >> 6) & 0x3F));
    out += char(0x80 | (c & 0x3F));
  } else {
    out += char(0xF0 | (c >> 18));
    out += char(0x80 | ((c >> 12) & 0x3F));
    out += char(0x80 | ((c >> 6) & 0x3F));
    out += char(0x80 | (c & 0x3F));
  }
}

}  // namespace pgnbase::store
