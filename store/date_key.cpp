#include "store/date_key.h"

namespace pgnbase::store {

namespace {

enum class PartKind { Number, Unknown, Invalid };

// One part of a date: digits (at most max_digits), or question marks for "unknown".
PartKind read_part(std::string_view part, size_t max_digits, int64_t& value) {
  if (part.empty() || part.size() > max_digits) return PartKind::Invalid;
  if (part.find_first_not_of('?') == std::string_view::npos) return PartKind::Unknown;
  if (part.find_first_not_of("0123456789") != std::string_view::npos) return PartKind::Invalid;
  value = 0;
  for (char c : part) value = value * 10 + (c - '0');
  return PartKind::Number;
}

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

int days_in_month(int64_t year, int64_t month) {
  static constexpr int kDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : kDays[month - 1];
}

std::optional<int64_t> date_key_of(std::string_view date) {
  date = trimmed(date);
  std::string_view parts[3];
  size_t count = 0;
  for (;;) {
    if (count == 3) return std::nullopt;  // text after the day
    const size_t separator = date.find_first_of(".-/");
    parts[count++] = date.substr(0, separator);
    if (separator == std::string_view::npos) break;
    date.remove_prefix(separator + 1);
  }
  int64_t year = 0, month = 0, day = 0;
  if (read_part(parts[0], 4, year) != PartKind::Number || parts[0].size() != 4 || year == 0) return std::nullopt;
  const PartKind month_kind = count > 1 ? read_part(parts[1], 2, month) : PartKind::Unknown;
  const PartKind day_kind = count > 2 ? read_part(parts[2], 2, day) : PartKind::Unknown;
  if (month_kind == PartKind::Invalid || day_kind == PartKind::Invalid) return std::nullopt;
  if (month_kind == PartKind::Unknown || month < 1 || month > 12) return year * 10000;
  if (day_kind == PartKind::Unknown || day < 1 || day > days_in_month(year, month)) day = 0;
  return year * 10000 + month * 100 + day;
}

}  // namespace pgnbase::store
