#include "store/clock_eval_text.h"

namespace pgnbase::store {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Reads 1..max_digits digits at pos (advanced) into value; false when there are none or more.
bool read_digits(std::string_view text, size_t& pos, size_t max_digits, int64_t& value) {
  const size_t start = pos;
  value = 0;
  while (pos < text.size() && is_digit(text[pos])) {
    if (pos - start == max_digits) return false;
    value = value * 10 + (text[pos++] - '0');
  }
  return pos > start;
}

// Two digits 00..59 at pos (advanced).
bool read_sixty(std::string_view text, size_t& pos, int64_t& value) {
  if (pos + 2 > text.size() || !is_digit(text[pos]) || !is_digit(text[pos + 1])) return false;
  value = (text[pos] - '0') * 10 + (text[pos + 1] - '0');
  pos += 2;
  return value < 60;
}

}  // namespace

std::optional<ParsedClock> parse_clock(std::string_view text) {
  size_t pos = 0;
  int64_t hours, minutes, seconds;
  if (!read_digits(text, pos, 2, hours) || pos == text.size() || text[pos++] != ':') return std::nullopt;
  if (!read_sixty(text, pos, minutes) || pos == text.size() || text[pos++] != ':') return std::nullopt;
  if (!read_sixty(text, pos, seconds)) return std::nullopt;
  ParsedClock clock{int32_t(((hours * 60 + minutes) * 60 + seconds) * 10), false};
  if (pos == text.size()) return clock;
  if (text[pos] != '.' || pos + 2 != text.size() || !is_digit(text[pos + 1])) return std::nullopt;
  clock.tenths += text[pos + 1] - '0';
  clock.fraction = true;
  return clock;
}

void append_clock_seconds(int32_t tenths, std::string& out) {
  out += std::to_string(tenths / 10);
  if (tenths % 10 != 0) (out += '.') += char('0' + tenths % 10);
}

void append_clock(int32_t tenths, bool fraction, std::string& out) {
  // Written into a buffer and appended once: export puts back one clock per move.
  char text[16];
  char* end = text + sizeof text;
  char* p = end;
  if (fraction) {
    *--p = char('0' + tenths % 10);
    *--p = '.';
  }
  int32_t seconds = tenths / 10;
  for (int part = 0; part < 2; ++part, seconds /= 60) {
    *--p = char('0' + seconds % 60 % 10);
    *--p = char('0' + seconds % 60 / 10);
    *--p = ':';
  }
  do *--p = char('0' + seconds % 10);
  while ((seconds /= 10) > 0);
  out.append(p, size_t(end - p));
}

std::optional<Evaluation> parse_eval(std::string_view text) {
  if (const size_t comma = text.find(','); comma != std::string_view::npos) {
    size_t pos = comma + 1;
    int64_t depth;
    if (!read_digits(text, pos, 4, depth) || pos != text.size()) return std::nullopt;
    text = text.substr(0, comma);
  }
  size_t pos = 0;
  const bool mate = !text.empty() && text[0] == '#';
  pos += mate;
  bool negative = false;
  if (pos < text.size() && (text[pos] == '-' || text[pos] == '+')) negative = text[pos++] == '-';
  int64_t whole;
  if (!read_digits(text, pos, mate ? 5 : 7, whole)) return std::nullopt;
  if (mate) {
    if (pos != text.size()) return std::nullopt;
    return Evaluation{EvalKind::Mate, int32_t(negative ? -whole : whole)};
  }
  int64_t hundredths = 0;
  if (pos < text.size()) {
    if (text[pos++] != '.') return std::nullopt;
    const size_t start = pos;
    int64_t decimals;
    if (!read_digits(text, pos, 2, decimals) || pos != text.size()) return std::nullopt;
    hundredths = pos - start == 1 ? decimals * 10 : decimals;
  }
  const int64_t cp = whole * 100 + hundredths;
  return Evaluation{EvalKind::Centipawns, int32_t(negative ? -cp : cp)};
}

void append_eval(Evaluation eval, std::string& out) {
  char text[24];
  char* end = text + sizeof text;
  char* p = end;
  int64_t magnitude = eval.value < 0 ? -int64_t(eval.value) : int64_t(eval.value);
  if (eval.kind == EvalKind::Centipawns) {
    const int64_t hundredths = magnitude % 100;
    if (hundredths % 10 != 0) *--p = char('0' + hundredths % 10);
    *--p = char('0' + hundredths / 10);
    *--p = '.';
    magnitude /= 100;
  }
  do *--p = char('0' + magnitude % 10);
  while ((magnitude /= 10) > 0);
  if (eval.value < 0) *--p = '-';
  if (eval.kind == EvalKind::Mate) *--p = '#';
  out.append(p, size_t(end - p));
}

std::optional<std::string_view> command_value(std::string_view comment, std::string_view name) {
  for (size_t at = comment.find("[%"); at != std::string_view::npos; at = comment.find("[%", at + 2)) {
    const size_t after = at + 2 + name.size();
    if (comment.substr(at + 2, name.size()) != name || after >= comment.size() || comment[after] != ' ') continue;
    const size_t close = comment.find(']', after);
    if (close == std::string_view::npos) return std::nullopt;
    std::string_view value = comment.substr(after, close - after);
    while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
    while (!value.empty() && value.back() == ' ') value.remove_suffix(1);
    return value;
  }
  return std::nullopt;
}

void read_clock_eval(std::string_view entry_text, PlyClockEval& out) {
  bool clock_seen = out.clock >= 0, eval_seen = out.eval.kind != EvalKind::None;
  int depth = 0;  // variations open
  for (size_t i = 0; i < entry_text.size() && !(clock_seen && eval_seen); ++i) {
    const char c = entry_text[i];
    if (c == '(') ++depth;
    else if (c == ')') depth -= depth > 0;
    if (c != '{') continue;
    // Stored comments hold no '}' (the importer writes it as ')').
    const size_t close = entry_text.find('}', i + 1);
    const std::string_view comment = entry_text.substr(i + 1, close == std::string_view::npos ? close : close - i - 1);
    if (depth == 0) {
      if (!clock_seen)
        if (const std::optional<std::string_view> value = command_value(comment, "clk")) {
          clock_seen = true;
          if (const std::optional<ParsedClock> clock = parse_clock(*value)) out.clock = clock->tenths;
        }
      if (!eval_seen)
        if (const std::optional<std::string_view> value = command_value(comment, "eval")) {
          eval_seen = true;
          if (const std::optional<Evaluation> eval = parse_eval(*value)) out.eval = *eval;
        }
    }
    if (close == std::string_view::npos) break;
    i = close;
  }
}

}  // namespace pgnbase::store
