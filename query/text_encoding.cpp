#include "query/text_encoding.h"

namespace pgnbase::query {

void append_printable(std::string_view text, std::string& out, LineBreaks line_breaks) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  const bool keep = line_breaks == LineBreaks::Keep;
  for (size_t i = 0; i < text.size();) {
    const Character ch = read_character(text, i);
    const char32_t c = ch.code_point;
    const bool layout = c == '\n' || c == '\t' || (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n');
    if (is_control(c) && !(keep && layout)) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      append_utf8(c, out);
    }
    i += ch.bytes;
  }
}

}  // namespace pgnbase::query
