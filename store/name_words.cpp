#include "store/name_words.h"

#include <cctype>

#include <array>

#include "store/utf8.h"

namespace pgnbase::store {

namespace {

// Windows-1252 letters at 0x80-0x9F (Š Œ Ž š œ ž Ÿ); other bytes there stay C1 controls.
char32_t windows_1252(unsigned char byte) {
  switch (byte) {
    case 0x8A: return 0x160;
    case 0x8C: return 0x152;
    case 0x8E: return 0x17D;
    case 0x9A: return 0x161;
    case 0x9C: return 0x153;
    case 0x9E: return 0x17E;
    case 0x9F: return 0x178;
    default: return byte;
  }
}

// The character at text[i] and its length: valid UTF-8, else one Windows-1252 byte.
char32_t decode(std::string_view text, size_t i, size_t& length) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char b = byte(i);
  length = 1;
  if (b < 0x80) return b;
  const size_t n = b >= 0xF0 && b <= 0xF4 ? 4 : b >= 0xE0 && b < 0xF0 ? 3 : b >= 0xC2 && b < 0xE0 ? 2 : 0;
  if (n == 0 || i + n > text.size()) return windows_1252(b);
  char32_t c = b & (0x7F >> n);
  for (size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return windows_1252(b);
    c = (c << 6) | (byte(i + k) & 0x3F);
  }
  // Overlong forms and surrogates are not valid UTF-8.
  if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 || c > 0x10FFFF)) || (c >= 0xD800 && c <= 0xDFFF))
    return windows_1252(b);
  length = n;
  return c;
}

// Base letters of U+00C0-U+00FF, lowercase; '#' marks what folds to two letters or is
// not a letter (handled in fold_latin).
constexpr std::string_view kLatin1 = "aaaaaa#ceeeeiiiidnooooo#ouuuuy##aaaaaa#ceeeeiiiidnooooo#ouuuuy#y";
// Base letters of U+0100-U+017F (Latin Extended-A), lowercase; '#' as above.
constexpr std::string_view kLatinA =
    "aaaaaaccccccccddddeeeeeeeeeegggggggghhhhiiiiiiiiii##jjkkkllllllllllnnnnnnnnnoooooo##rrrrrrssssssssttttttuuuuuu"
    "uuuuuuwwyyyzzzzzzs";
static_assert(kLatin1.size() == 64 && kLatinA.size() == 128);

// Appends the folded form of letter or digit c; returns false when c separates words.
bool fold_character(char32_t c, std::string& out) {
  if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z')) return out += char(c), true;
  if (c >= 'A' && c <= 'Z') return out += char(c - 'A' + 'a'), true;
  if (c < 0xC0) return false;                  // ASCII punctuation, Latin-1 symbols
  if (c >= 0x300 && c <= 0x36F) return true;  // a combining accent: dropped, the word goes on
  if (c <= 0x17F) {
    const char base = c <= 0xFF ? kLatin1[c - 0xC0] : kLatinA[c - 0x100];
    if (base != '#') return out += base, true;
    switch (c) {
      case 0xC6: case 0xE6: out += "ae"; return true;  // Æ æ
      case 0xDE: case 0xFE: out += "th"; return true;  // Þ þ
      case 0xDF: out += "ss"; return true;             // ß
      case 0x132: case 0x133: out += "ij"; return true;
      case 0x152: case 0x153: out += "oe"; return true;
      default: return false;  // × ÷
    }
  }
  if (c >= 0x218 && c <= 0x21B) return out += c < 0x21A ? 's' : 't', true;  // Romanian Ș ș Ț ț
  if (c >= 0x391 && c <= 0x3A9) c += 0x20;                                  // Greek capitals
  else if (c >= 0x410 && c <= 0x42F) c += 0x20;                             // Cyrillic capitals
  else if (c >= 0x400 && c <= 0x40F) c += 0x50;                             // Ё, Є, Ї ...
  else if (c >= 0x2000 && c <= 0x206F) return false;                        // general punctuation
  else if (c == 0x3000 || c == 0xFEFF) return false;                        // ideographic space, BOM
  append_utf8(c, out);
  return true;
}

std::vector<std::string> fold_words(std::string_view text, bool wildcards) {
  std::vector<std::string> words;
  std::string word;
  for (size_t i = 0; i < text.size();) {
    size_t length;
    const char32_t c = decode(text, i, length);
    i += length;
    if (wildcards && (c == '*' || c == '?')) {
      word += char(c);
    } else if (!fold_character(c, word) && !word.empty()) {
      words.push_back(std::move(word));
      word.clear();
    }
  }
  if (!word.empty()) words.push_back(std::move(word));
  return words;
}

// Length of the UTF-8 character starting with byte b (folded words are valid UTF-8).
size_t utf8_length(unsigned char b) { return b < 0x80 ? 1 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2; }

}  // namespace

std::vector<std::string> fold_name_words(std::string_view name) { return fold_words(name, false); }

std::vector<std::string> fold_pattern_words(std::string_view pattern) { return fold_words(pattern, true); }

bool word_matches(std::string_view pattern, std::string_view word) { return glob_matches(pattern, word, false); }

bool glob_matches(std::string_view pattern, std::string_view word, bool ignore_ascii_case) {
  auto same = [ignore_ascii_case](char a, char b) {
    if (!ignore_ascii_case) return a == b;
    return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
  };
  // Iterative glob with one backtrack point (the last '*'): linear in practice, never
  // exponential on patterns like "*a*a*a*b".
  size_t p = 0, w = 0, star = std::string_view::npos, star_w = 0;
  while (w < word.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      star_w = w;
    } else if (p < pattern.size() && pattern[p] == '?') {
      ++p;
      w += utf8_length(static_cast<unsigned char>(word[w]));
    } else if (p < pattern.size() && same(pattern[p], word[w])) {
      ++p;
      ++w;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      star_w += utf8_length(static_cast<unsigned char>(word[star_w]));
      w = star_w;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

}  // namespace pgnbase::store
