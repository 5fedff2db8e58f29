// Stored text as characters. Stored names, tags and reasons are bytes as the PGN file had
// them: usually UTF-8, in old files often Latin-1, and in a hostile file anything. One
// reading rule for every reader (query's outputs, the dataset export, the name folding):
// a valid UTF-8 sequence is its character; any other byte is a Latin-1 character (0x80-
// 0x9F being the C1 controls).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace pgnbase::store {

struct Character {
  char32_t code_point;
  size_t bytes;  // how many bytes of the text it took (1 for a Latin-1 byte)
};

// Reads the character at text[i] (i < text.size()) by the rule above.
Character read_character(std::string_view text, size_t i);

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

// The text as valid UTF-8 by the rule above (Latin-1 bytes become their characters).
std::string as_utf8(std::string_view text);

}  // namespace pgnbase::store
