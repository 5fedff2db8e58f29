#include "search/time_control.h"

#include <algorithm>
#include <array>

namespace pgnbase::search {

namespace {

constexpr double kEstimatedMoves = 40;
constexpr double kCorrespondenceSeconds = 21600;

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_blank(char c) { return c == ' ' || c == '\t'; }

std::string_view trim(std::string_view text) {
  while (!text.empty() && is_blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_blank(text.back())) text.remove_suffix(1);
  return text;
}

// Reads the digits at the front of text into value (at most 2^32 - 1) and drops them.
TimeControlError read_count(std::string_view& text, uint32_t& value) {
  size_t digits = 0;
  uint64_t number = 0;
  while (digits < text.size() && is_digit(text[digits])) {
    number = number * 10 + uint64_t(text[digits] - '0');
    if (number > UINT32_MAX) return TimeControlError::NumberTooLarge;
    ++digits;
  }
  if (digits == 0) {
    const bool separator_next = text.empty() || std::string_view("/+:").find(text.front()) != std::string_view::npos;
    return separator_next ? TimeControlError::MissingNumber : TimeControlError::UnexpectedCharacter;
  }
  value = uint32_t(number);
  text.remove_prefix(digits);
  return TimeControlError::None;
}

// Reads seconds, whole or with up to three decimals, as milliseconds.
TimeControlError read_time(std::string_view& text, uint64_t& milliseconds) {
  uint32_t seconds = 0;
  if (TimeControlError e = read_count(text, seconds); e != TimeControlError::None) return e;
  milliseconds = uint64_t(seconds) * 1000;
  if (text.empty() || text.front() != '.') return TimeControlError::None;
  text.remove_prefix(1);
  size_t decimals = 0;
  uint64_t scale = 100;
  while (decimals < text.size() && is_digit(text[decimals])) {
    if (decimals == 3) return TimeControlError::BadFraction;
    milliseconds += uint64_t(text[decimals] - '0') * scale;
    scale /= 10;
    ++decimals;
  }
  if (decimals == 0) return TimeControlError::BadFraction;
  text.remove_prefix(decimals);
  return TimeControlError::None;
}

// One period: [moves "/"] seconds ["+" increment], up to the next ':' or the end.
TimeControlError read_period(std::string_view& text, TimePeriod& period) {
  // Read the leading number as a time; it is a move count when a '/' follows.
  const std::string_view start = text;
  if (TimeControlError e = read_time(text, period.milliseconds); e != TimeControlError::None) return e;
  if (!text.empty() && text.front() == '/') {
    text = start;
    if (TimeControlError e = read_count(text, period.moves); e != TimeControlError::None) return e;
    if (text.front() != '/') return TimeControlError::UnexpectedCharacter;  // "40.5/7200"
    text.remove_prefix(1);
    if (period.moves == 0) return TimeControlError::ZeroMoves;
    if (TimeControlError e = read_time(text, period.milliseconds); e != TimeControlError::None) return e;
  }
  if (!text.empty() && text.front() == '+') {
    text.remove_prefix(1);
    if (TimeControlError e = read_time(text, period.increment_milliseconds); e != TimeControlError::None) return e;
  }
  if (!text.empty() && text.front() != ':') return TimeControlError::UnexpectedCharacter;
  return TimeControlError::None;
}

TimeControlError parse_into(std::string_view text, TimeControl& out) {
  text = trim(text);
  if (text.empty()) return TimeControlError::Empty;
  if (text == "?" || text == "*") {
    out.kind = TimeControlKind::Unknown;
    return TimeControlError::None;
  }
  if (text == "-") {
    out.kind = TimeControlKind::None;
    return TimeControlError::None;
  }
  if (text.front() == '*') {
    text.remove_prefix(1);
    if (TimeControlError e = read_time(text, out.sandclock_milliseconds); e != TimeControlError::None) return e;
    if (!text.empty()) return TimeControlError::UnexpectedCharacter;
    out.kind = TimeControlKind::Sandclock;
    return TimeControlError::None;
  }
  for (;;) {
    if (!out.periods.empty() && out.periods.back().moves == 0) return TimeControlError::SuddenDeathNotLast;
    TimePeriod period;
    if (TimeControlError e = read_period(text, period); e != TimeControlError::None) return e;
    out.periods.push_back(period);
    if (text.empty()) break;
    text.remove_prefix(1);  // the ':' read_period stopped at
    if (text.empty()) return TimeControlError::MissingNumber;
  }
  out.kind = TimeControlKind::Periods;
  return TimeControlError::None;
}

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
           return lower(x) == lower(y);
         });
}

constexpr std::array<std::string_view, 7> kCategories = {"ultrabullet", "bullet",         "blitz",  "rapid",
                                                         "classical",   "correspondence", "unknown"};

// Whole seconds of a base+increment pattern as milliseconds, or '*' for any (UINT64_MAX).
bool read_pattern_seconds(std::string_view text, uint64_t& milliseconds) {
  if (text == "*") {
    milliseconds = UINT64_MAX;
    return true;
  }
  uint32_t seconds = 0;
  if (read_count(text, seconds) != TimeControlError::None || !text.empty()) return false;
  milliseconds = uint64_t(seconds) * 1000;
  return true;
}

// Seconds as written: "180", "0.05".
std::string seconds_text(uint64_t milliseconds) {
  std::string text = std::to_string(milliseconds / 1000);
  if (uint64_t fraction = milliseconds % 1000) {
    std::string digits = std::to_string(1000 + fraction).substr(1);
    while (digits.back() == '0') digits.pop_back();
    text.append(1, '.').append(digits);
  }
  return text;
}

}  // namespace

const char* describe(TimeControlError error) {
  switch (error) {
    case TimeControlError::None: return "no error";
    case TimeControlError::Empty: return "empty time control";
    case TimeControlError::MissingNumber: return "a number is missing";
    case TimeControlError::NumberTooLarge: return "number too large";
    case TimeControlError::BadFraction: return "seconds with a bad fraction";
    case TimeControlError::ZeroMoves: return "a period of zero moves";
    case TimeControlError::SuddenDeathNotLast: return "a period follows a sudden-death period";
    case TimeControlError::UnexpectedCharacter: return "unexpected character";
  }
  return "unknown error";
}

TimeControlError parse_time_control(std::string_view text, TimeControl& out) {
  out = TimeControl{};
  TimeControlError error = parse_into(text, out);
  if (error != TimeControlError::None) out = TimeControl{};
  return error;
}

std::string to_string(const TimeControl& time_control) {
  switch (time_control.kind) {
    case TimeControlKind::Unknown: return "?";
    case TimeControlKind::None: return "-";
    case TimeControlKind::Sandclock:
      return std::string(1, '*').append(seconds_text(time_control.sandclock_milliseconds));
    case TimeControlKind::Periods: break;
  }
  std::string text;
  for (const TimePeriod& period : time_control.periods) {
    if (!text.empty()) text += ':';
    if (period.moves) text.append(std::to_string(period.moves)).push_back('/');
    text += seconds_text(period.milliseconds);
    if (period.increment_milliseconds) text.append(1, '+').append(seconds_text(period.increment_milliseconds));
  }
  return text;
}

std::optional<double> estimated_seconds(const TimeControl& time_control) {
  switch (time_control.kind) {
    case TimeControlKind::Unknown:
    case TimeControlKind::None: return std::nullopt;
    case TimeControlKind::Sandclock: return double(time_control.sandclock_milliseconds) / 1000;
    case TimeControlKind::Periods: break;
  }
  if (time_control.periods.empty()) return std::nullopt;
  double total = 0;
  double moves_left = kEstimatedMoves;
  for (size_t i = 0; moves_left > 0; i = std::min(i + 1, time_control.periods.size() - 1)) {
    const TimePeriod& period = time_control.periods[i];
    const double moves = period.moves == 0 ? moves_left : std::min<double>(period.moves, moves_left);
    total += double(period.milliseconds) + moves * double(period.increment_milliseconds);
    moves_left -= moves;
  }
  return total / 1000;
}

std::string_view speed_category(const TimeControl& time_control) {
  if (time_control.kind == TimeControlKind::None) return "correspondence";
  const std::optional<double> seconds = estimated_seconds(time_control);
  if (!seconds) return "unknown";
  if (*seconds < 30) return "ultrabullet";
  if (*seconds < 180) return "bullet";
  if (*seconds < 480) return "blitz";
  if (*seconds < 1500) return "rapid";
  if (*seconds < kCorrespondenceSeconds) return "classical";
  return "correspondence";
}

std::string_view speed_category(std::string_view tag_value) {
  TimeControl time_control;
  if (parse_time_control(tag_value, time_control) != TimeControlError::None) return "unknown";
  return speed_category(time_control);
}

Parsed<TimeControlMatcher> TimeControlMatcher::parse(std::string_view pattern) {
  TimeControlMatcher matcher;
  const std::string_view text = trim(pattern);
  if (text == "*") {
    // As a tag value "*" means unknown, but a user typing it likely means "any": refuse.
    return ParseError{"ambiguous time control '*': use ? for unknown or *+* for any base+increment clock"};
  }
  for (std::string_view category : kCategories) {
    if (equals_ignoring_case(text, category)) {
      matcher.mode_ = Mode::Category;
      matcher.category_ = category;
      return matcher;
    }
  }
  TimeControlError parse_error = parse_time_control(text, matcher.exact_);
  if (parse_error == TimeControlError::None) {
    matcher.mode_ = Mode::Exact;
    return matcher;
  }
  if (const size_t plus = text.find('+'); plus != std::string_view::npos && text.find('*') != std::string_view::npos) {
    if (read_pattern_seconds(text.substr(0, plus), matcher.base_milliseconds_) &&
        read_pattern_seconds(text.substr(plus + 1), matcher.increment_milliseconds_)) {
      matcher.mode_ = Mode::BaseIncrement;
      return matcher;
    }
  }
  return ParseError{"bad time control '" + std::string(pattern) + "' (" + describe(parse_error) +
                    "): expected a speed (ultrabullet, bullet, blitz, rapid, classical, correspondence, unknown), "
                    "a TimeControl value such as 180+2 or 40/7200:3600, or base+increment with * for any (180+*)"};
}

bool TimeControlMatcher::matches(const TimeControl& time_control) const {
  switch (mode_) {
    case Mode::Category: return speed_category(time_control) == category_;
    case Mode::Exact: return time_control == exact_;
    case Mode::BaseIncrement: break;
  }
  if (time_control.kind != TimeControlKind::Periods || time_control.periods.size() != 1) return false;
  const TimePeriod& period = time_control.periods.front();
  return period.moves == 0 && (base_milliseconds_ == kAny || period.milliseconds == base_milliseconds_) &&
         (increment_milliseconds_ == kAny || period.increment_milliseconds == increment_milliseconds_);
}

bool TimeControlMatcher::matches(std::string_view tag_value) const {
  TimeControl time_control;
  if (parse_time_control(tag_value, time_control) != TimeControlError::None) {
    return mode_ == Mode::Category && category_ == "unknown";  // unparsable counts as unknown
  }
  return matches(time_control);
}

}  // namespace pgnbase::search
