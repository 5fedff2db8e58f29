// Text from the database as the output formats need it. Stored names, tags and reasons
// are bytes as the PGN file had them: usually UTF-8, in old files often Latin-1, and in
// a hostile file anything, terminal escape sequences included. One reading rule for
// every output: a valid UTF-8 sequence is its character; any other byte is a Latin-1
// character (0x80-0x9F being the C1 controls).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "store/utf8.h"

namespace pgnbase::query {

// The reading rule above and UTF-8 encoding are the store's (stored text is read the
// same way by every reader: store/utf8.h).
using store::append_utf8;
using store::Character;
using store::read_character;

// Whether c is a control character a terminal may act on: C0 (below 0x20), DEL, C1.
constexpr bool is_control(char32_t c) { return c < 0x20 || (c >= 0x7F && c <= 0x9F); }

enum class LineBreaks {
  Escape,  // one line of a table: '\n', '\r' and '\t' are escaped too
  Keep,    // a block of text: '\n', '\t' and "\r\n" stay, a lone '\r' is escaped
};

// Appends text as UTF-8 that is safe to show on a terminal: Latin-1 bytes become their
// characters, and every control character becomes \xHH, its code point in hex
// ("\x1B" for ESC, "\x9B" for the C1 CSI), so nothing can move the cursor, retitle
// the window or clear the screen. Other characters, the backslash included, are kept.
void append_printable(std::string_view text, std::string& out, LineBreaks line_breaks = LineBreaks::Escape);

inline std::string printable(std::string_view text) {
  std::string out;
  append_printable(text, out);
  return out;
}

}  // namespace pgnbase::query
