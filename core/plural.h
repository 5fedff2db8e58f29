// "1 game", "2 games", "0 games": counts in messages as people write them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace pgnbase {

// n and the noun, with "s" added unless n is 1 (plural_form for irregular nouns).
inline std::string plural(int64_t n, std::string_view noun, std::string_view plural_form = {}) {
  std::string out = std::to_string(n) + ' ';
  if (n == 1) out += noun;
  else if (!plural_form.empty()) out += plural_form;
  else (out += noun) += 's';
  return out;
}

// n with a comma between each group of three digits: 1459666 -> "1,459,666".
inline std::string thousands(int64_t n) {
  std::string digits = std::to_string(n < 0 ? -n : n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return n < 0 ? "-" + out : out;
}

// plural() with the count written by thousands(): "1,622 games", "1 game".
inline std::string plural_thousands(int64_t n, std::string_view noun) {
  const std::string word = plural(n, noun);
  return thousands(n) + word.substr(word.find(' '));
}

}  // namespace pgnbase
