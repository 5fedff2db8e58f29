#include "query/display_width.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <vector>

#include "query/text_encoding.h"

namespace pgnbase::query {

namespace {

struct Range {
  char32_t first, last;
};

constexpr Range kZeroWidth[] = {
    {0x0300, 0x036F}, {0x0483, 0x0489}, {0x0591, 0x05BD}, {0x0610, 0x061A}, {0x064B, 0x065F},
    {0x0E31, 0x0E31}, {0x0E34, 0x0E3A}, {0x0E47, 0x0E4E}, {0x1AB0, 0x1AFF}, {0x1DC0, 0x1DFF},
    {0x200B, 0x200F}, {0x2060, 0x2064}, {0x20D0, 0x20FF}, {0xFE00, 0xFE0F}, {0xFE20, 0xFE2F},
    {0xFEFF, 0xFEFF}, {0x1F3FB, 0x1F3FF}, {0xE0100, 0xE01EF},
};

constexpr Range kDoubleWidth[] = {
    {0x1100, 0x115F},   {0x231A, 0x231B},   {0x2329, 0x232A},   {0x23E9, 0x23EC},   {0x23F0, 0x23F0},
    {0x23F3, 0x23F3},   {0x25FD, 0x25FE},   {0x2614, 0x2615},   {0x2648, 0x2653},   {0x267F, 0x267F},
    {0x2693, 0x2693},   {0x26A1, 0x26A1},   {0x26AA, 0x26AB},   {0x26BD, 0x26BE},   {0x26C4, 0x26C5},
    {0x26CE, 0x26CE},   {0x26D4, 0x26D4},   {0x26EA, 0x26EA},   {0x26F2, 0x26F3},   {0x26F5, 0x26F5},
    {0x26FA, 0x26FA},   {0x26FD, 0x26FD},   {0x2705, 0x2705},   {0x270A, 0x270B},   {0x2728, 0x2728},
    {0x274C, 0x274C},   {0x274E, 0x274E},   {0x2753, 0x2755},   {0x2757, 0x2757},   {0x2795, 0x2797},
    {0x27B0, 0x27B0},   {0x27BF, 0x27BF},   {0x2B1B, 0x2B1C},   {0x2B50, 0x2B50},   {0x2B55, 0x2B55},
    {0x2E80, 0x303E},   {0x3041, 0x33FF},   {0x3400, 0x4DBF},   {0x4E00, 0x9FFF},   {0xA000, 0xA4CF},
    {0xA960, 0xA97F},   {0xAC00, 0xD7A3},   {0xF900, 0xFAFF},   {0xFE10, 0xFE19},   {0xFE30, 0xFE6F},
    {0xFF00, 0xFF60},   {0xFFE0, 0xFFE6},   {0x16FE0, 0x16FE4}, {0x17000, 0x18CFF}, {0x1B000, 0x1B2FF},
    {0x1F004, 0x1F004}, {0x1F0CF, 0x1F0CF}, {0x1F18E, 0x1F18E}, {0x1F191, 0x1F19A}, {0x1F200, 0x1F251},
    {0x1F300, 0x1F320}, {0x1F32D, 0x1F335}, {0x1F337, 0x1F37C}, {0x1F37E, 0x1F393}, {0x1F3A0, 0x1F3CA},
    {0x1F3CF, 0x1F3D3}, {0x1F3E0, 0x1F3F0}, {0x1F3F4, 0x1F3F4}, {0x1F3F8, 0x1F3FA}, {0x1F400, 0x1F43E},
    {0x1F440, 0x1F440}, {0x1F442, 0x1F4FC}, {0x1F4FF, 0x1F53D}, {0x1F54B, 0x1F54E}, {0x1F550, 0x1F567},
    {0x1F57A, 0x1F57A}, {0x1F595, 0x1F596}, {0x1F5A4, 0x1F5A4}, {0x1F5FB, 0x1F64F}, {0x1F680, 0x1F6C5},
    {0x1F6CC, 0x1F6CC}, {0x1F6D0, 0x1F6D2}, {0x1F6D5, 0x1F6D7}, {0x1F6EB, 0x1F6EC}, {0x1F6F4, 0x1F6FC},
    {0x1F7E0, 0x1F7EB}, {0x1F90C, 0x1F93A}, {0x1F93C, 0x1F945}, {0x1F947, 0x1F9FF}, {0x1FA70, 0x1FAFF},
    {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD},
};

bool in(const Range* begin, const Range* end, char32_t c) {
  const Range* r = std::upper_bound(begin, end, c, [](char32_t v, const Range& x) { return v < x.first; });
  return r != begin && c <= (r - 1)->last;
}

}  // namespace

int code_point_width(char32_t c) {
  if (in(std::begin(kZeroWidth), std::end(kZeroWidth), c)) return 0;
  if (c >= 0x1100 && in(std::begin(kDoubleWidth), std::end(kDoubleWidth), c)) return 2;
  return 1;
}

size_t display_width(std::string_view text) {
  size_t n = 0;
  for (size_t i = 0; i < text.size();) {
    const Character ch = read_character(text, i);
    n += size_t(code_point_width(ch.code_point));
    i += ch.bytes;
  }
  return n;
}

std::string_view fitting_prefix(std::string_view text, size_t width) {
  size_t used = 0, end = 0;
  for (size_t i = 0; i < text.size();) {
    const Character ch = read_character(text, i);
    const size_t w = size_t(code_point_width(ch.code_point));
    if (used + w > width) break;
    used += w;
    i += ch.bytes;
    end = i;
  }
  return text.substr(0, end);
}

std::string_view fitting_suffix(std::string_view text, size_t width) {
  // Character starts, so the text can be walked backwards a whole character at a time.
  std::vector<size_t> starts;
  for (size_t i = 0; i < text.size(); i += read_character(text, i).bytes) starts.push_back(i);
  size_t used = 0, begin = text.size();
  for (size_t k = starts.size(); k-- > 0;) {
    const size_t w = size_t(code_point_width(read_character(text, starts[k]).code_point));
    if (used + w > width) break;
    used += w;
    begin = starts[k];
  }
  // A combining mark must not start the cut text without its base.
  while (begin < text.size() && code_point_width(read_character(text, begin).code_point) == 0)
    begin += read_character(text, begin).bytes;
  return text.substr(begin);
}

}  // namespace pgnbase::query
