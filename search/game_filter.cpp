#include "search/game_filter.h"

#include <algorithm>
#include <cctype>

#include "search/name_match.h"
#include "search/row_filter.h"
#include "search/site_match.h"
#include "store/date_key.h"

namespace pgnbase::search {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

std::string quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

// "C60", "C6" or "C": one letter A-E and up to two digits; upper-cased into out.
bool parse_eco_code(std::string_view text, std::string& out) {
  if (text.empty() || text.size() > 3) return false;
  char letter = char(std::toupper(static_cast<unsigned char>(text[0])));
  if (letter < 'A' || letter > 'E') return false;
  if (!std::all_of(text.begin() + 1, text.end(), is_digit)) return false;
  out.assign(1, letter);
  out.append(text.substr(1));
  return true;
}

// The smallest string greater than every string that starts with prefix.
std::string successor(std::string prefix) {
  prefix.back() = char(prefix.back() + 1);
  return prefix;
}

}  // namespace

bool GameFilter::has_sql_filters() const {
  return eco || white || black || player || event || site || min_elo || max_elo || date_from_key ||
         date_to_key || result || min_plies || max_plies || has_row_filters();
}

store::GameConditions GameFilter::sql_conditions(store::Database& db) const {
  store::GameConditions c;
  if (eco) {
    c.eco_low = eco->low;
    c.eco_high_exclusive = eco->high_exclusive;
  }
  auto ids = [&db](const std::optional<NamePattern>& name) -> std::optional<store::NameIds> {
    if (!name) return std::nullopt;
    return matching_names(db, *name);
  };
  c.white = ids(white);
  c.black = ids(black);
  c.player = ids(player);
  if (player) c.opponent = ids(opponent);
  c.event = ids(event);
  if (site) c.site = matching_sites(db, *site);
  c.min_elo = min_elo;
  c.max_elo = max_elo;
  c.elo_either = elo_either;
  c.date_from_key = date_from_key;
  c.date_to_key = date_to_key;
  c.result = result;
  c.min_plies = min_plies;
  c.max_plies = max_plies;
  if (has_row_filters()) c.game_ids = games_passing_row_filters(db, *this, c);
  return c;
}

Parsed<EcoRange> parse_eco_range(std::string_view text) {
  std::string low, high;
  size_t dash = text.find('-');
  bool ok = dash == std::string_view::npos
                ? parse_eco_code(text, low) && parse_eco_code(text, high)
                : parse_eco_code(text.substr(0, dash), low) && parse_eco_code(text.substr(dash + 1), high) &&
                      low.size() == high.size();
  if (!ok)
    return ParseError{"bad ECO " + quoted(text) +
                      ": expected a code like C60, a range like C60-C99, a prefix like C6, or a volume letter A-E"};
  if (high < low) return ParseError{"bad ECO range " + quoted(text) + ": the first code is after the second"};
  EcoRange range;
  range.low = low;
  range.high_exclusive = successor(high);
  return range;
}

Parsed<int64_t> parse_date_bound(std::string_view text, bool upper) {
  // Up to three numeric parts: year (4 digits), month and day (2 digits or "??").
  int64_t parts[3] = {0, upper ? 99 : 0, upper ? 99 : 0};
  bool known[3] = {false, false, false};
  size_t pos = 0;
  int index = 0;
  bool ok = !text.empty();
  while (ok && pos <= text.size() && index < 3) {
    size_t end = text.find_first_of(".-/", pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view part = text.substr(pos, end - pos);
    size_t width = index == 0 ? 4 : 2;
    if (part.size() == width && part.find_first_not_of("0123456789") == std::string_view::npos) {
      int64_t value = 0;
      for (char c : part) value = value * 10 + (c - '0');
      parts[index] = value;
      known[index] = true;
    } else if (part.size() == width && part.find_first_not_of('?') == std::string_view::npos && index > 0) {
      // unknown part: keep the open bound
    } else {
      ok = false;
    }
    ++index;
    if (end == text.size()) break;
    pos = end + 1;
    if (index == 3) ok = false;  // text after the day
  }
  if (ok && known[1] && (parts[1] < 1 || parts[1] > 12)) ok = false;
  if (ok && known[2] && (parts[2] < 1 || parts[2] > 31)) ok = false;
  if (!ok) return ParseError{"bad date " + quoted(text) + ": expected YYYY, YYYY.MM or YYYY.MM.DD"};
  // A bound that takes in a whole month or year is written as the month's or year's key,
  // so that a game dated only "1959.05" or "1959" can lie inside it (see game_sql.cpp).
  if (!known[1]) parts[2] = upper ? 99 : 0;  // a day without its month says nothing
  if (upper) {
    if (known[1] && known[2] && parts[2] >= store::days_in_month(parts[0], parts[1])) parts[2] = 99;
    if (parts[1] == 12 && parts[2] == 99) parts[1] = 99;
  } else {
    if (parts[2] == 1) parts[2] = 0;
    if (parts[1] == 1 && parts[2] == 0) parts[1] = 0;
  }
  return parts[0] * 10000 + parts[1] * 100 + parts[2];
}

Parsed<int> parse_result(std::string_view text) {
  if (text == "1-0") return 1;
  if (text == "0-1") return 3;
  if (text == "1/2-1/2" || text == "1/2" || text == "draw" || text == "\xC2\xBD-\xC2\xBD") return 2;
  if (text == "*") return 0;
  return ParseError{"bad result " + quoted(text) + ": expected 1-0, 0-1, 1/2-1/2 or *"};
}

Parsed<GameOrder> parse_order(std::string_view text) {
  if (text == "id") return GameOrder::Id;
  if (text == "date") return GameOrder::Date;
  if (text == "elo") return GameOrder::Elo;
  return ParseError{"bad order " + quoted(text) + ": expected id, date or elo"};
}

std::string like_pattern(const NamePattern& pattern) {
  std::string out;
  out.reserve(pattern.text.size() + 4);
  for (char c : pattern.text) {
    if (c == '*') out += '%';
    else if (c == '%' || c == '_' || c == '\\') out += '\\', out += c;
    else out += c;
  }
  return out;
}

Parsed<TagCondition> parse_tag_condition(std::string_view text) {
  TagCondition tag;
  const size_t equals = text.find('=');
  tag.name = std::string(text.substr(0, equals));
  if (equals != std::string_view::npos) tag.value = std::string(text.substr(equals + 1));
  const bool name_ok = !tag.name.empty() && std::all_of(tag.name.begin(), tag.name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
  if (!name_ok) return ParseError{"bad --tag " + quoted(text) + ": expected NAME=VALUE or NAME (a tag name: letters, digits, _)"};
  return tag;
}

}  // namespace pgnbase::search
