// How many terminal columns text takes, so that tables stay aligned with accents
// (combining marks take none), CJK and emoji (two each). A small fixed table of the
// Unicode ranges that matter for names, after Markus Kuhn's wcwidth
// (https://www.cl.cam.ac.uk/~mgk25/ucs/wcwidth.c), so output does not depend on the
// locale the program runs under.
#pragma once

#include <cstddef>
#include <string_view>

namespace pgnbase::query {

// Columns one code point takes: 0 (combining marks, zero-width joiners, variation
// selectors), 2 (East Asian wide and fullwidth, emoji) or 1.
int code_point_width(char32_t c);

// Columns UTF-8 text takes (stray bytes count one each).
size_t display_width(std::string_view text);

// The longest prefix (from_end: suffix) of UTF-8 text that fits in width columns,
// never splitting a character; a combining mark stays with its base.
std::string_view fitting_prefix(std::string_view text, size_t width);
std::string_view fitting_suffix(std::string_view text, size_t width);

}  // namespace pgnbase::query
