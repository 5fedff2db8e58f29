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

}  // namespace pgnbase
