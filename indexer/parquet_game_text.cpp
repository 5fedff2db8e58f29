#include "indexer/parquet_game_text.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstring>

#include "indexer/input_source.h"

namespace pgnbase::indexer {

namespace {

using dataset::ParquetValueKind;
using dataset::parquet::TimeUnit;

constexpr std::array<std::string_view, 7> kRoster = {"Event", "Site", "Date", "Round", "White", "Black", "Result"};
constexpr int64_t kSecondsPerDay = 86400;

bool is_letter(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }

bool is_tag_name(std::string_view name) {
  if (name.empty() || !is_letter(name[0])) return false;
  for (char c : name)
    if (!is_letter(c) && !(c >= '0' && c <= '9') && c != '_') return false;
  return true;
}

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if ((a[i] | 0x20) != (b[i] | 0x20)) return false;
  return true;
}

void append_digits(std::string& out, int64_t value, int width) {
  char buffer[24];
  const char* end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
  for (int pad = width - int(end - buffer); pad > 0; --pad) out.push_back('0');
  out.append(buffer, size_t(end - buffer));
}

void append_integer(std::string& out, int64_t value, bool with_sign) {
  if (with_sign && value >= 0) out.push_back('+');
  append_digits(out, value, 0);
}

int64_t floor_div(int64_t a, int64_t b) { return a / b - (a % b != 0 && (a < 0) != (b < 0)); }

// YYYY.MM.DD of days since 1970-01-01 (civil_from_days of
// http://howardhinnant.github.io/date_algorithms.html).
void append_date(std::string& out, int64_t days) {
  if (days < -1'000'000'000 || days > 1'000'000'000) {  // far outside years 0-9999; keeps the sums below in range
    out += "????.??.??";
    return;
  }
  days += 719468;
  const int64_t era = floor_div(days, 146097);
  const int64_t doe = days - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int64_t day = doy - (153 * mp + 2) / 5 + 1;
  const int64_t month = mp < 10 ? mp + 3 : mp - 9;
  const int64_t year = yoe + era * 400 + (month <= 2);
  if (year < 0 || year > 9999) {
    out += "????.??.??";
    return;
  }
  append_digits(out, year, 4);
  out.push_back('.');
  append_digits(out, month, 2);
  out.push_back('.');
  append_digits(out, day, 2);
}

int64_t units_per_second(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::Millis: return 1'000;
    case TimeUnit::Micros: return 1'000'000;
    case TimeUnit::Nanos: return 1'000'000'000;
  }
  return 1'000;
}

// HH:MM:SS of a second of the day (0 <= seconds < 86400).
void append_time_of_day(std::string& out, int64_t seconds) {
  append_digits(out, seconds / 3600, 2);
  out.push_back(':');
  append_digits(out, seconds / 60 % 60, 2);
  out.push_back(':');
  append_digits(out, seconds % 60, 2);
}

// A tag value: quotes and backslashes escaped, line breaks and other control bytes as
// spaces, so that the pair stays on its line.
void append_escaped(std::string& out, std::string_view text) {
  for (char c : text) {
    if (c == '"' || c == '\\') out.push_back('\\');
    out.push_back(static_cast<unsigned char>(c) < 0x20 ? ' ' : c);
  }
}

bool is_result(std::string_view text) { return text == "1-0" || text == "0-1" || text == "1/2-1/2" || text == "*"; }

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Whether movetext (trailing blanks removed) ends with a result token.
bool ends_with_result(std::string_view movetext) {
  for (std::string_view result : {"1-0", "0-1", "1/2-1/2", "*"})
    if (movetext.ends_with(result) &&
        (movetext.size() == result.size() || is_blank(movetext[movetext.size() - result.size() - 1])))
      return true;
  return false;
}

}  // namespace

ParquetGameText::ParquetGameText(const dataset::ParquetReader& reader) : reader_(reader) {
  const std::vector<dataset::ParquetColumn>& columns = reader.columns();
  std::optional<size_t> movetext, date, utc_date;
  std::vector<size_t> others;
  for (size_t c = 0; c < columns.size(); ++c) {
    const std::string& name = columns[c].name;
    if (equals_ignoring_case(name, "movetext") && !movetext) {
      movetext = c;
      continue;
    }
    if (name.starts_with("__")) continue;  // pandas' hidden index columns: not the games' data
    if (!is_tag_name(name))
      throw InputError("cannot read '" + reader.name() + "': its column '" + name +
                       "' cannot be a PGN tag name (a letter, then letters, digits and _)");
    if (name == "Date") date = c;
    if (name == "UTCDate") utc_date = c;
    if (name == "Result") result_ = c;
    others.push_back(c);
  }
  if (!movetext)
    throw InputError("cannot read '" + reader.name() +
                     "': a Parquet file of games needs a movetext column (the moves as PGN, as lichess's has)");
  movetext_ = *movetext;
  auto tag_of = [&](size_t c, std::string name) {
    return Tag{std::move(name), c, columns[c].name.ends_with("RatingDiff")};
  };
  for (std::string_view roster : kRoster) {
    if (roster == "Date" && !date && utc_date) tags_.push_back(tag_of(*utc_date, "Date"));
    for (size_t c : others)
      if (columns[c].name == roster) tags_.push_back(tag_of(c, columns[c].name));
  }
  for (size_t c : others)
    if (std::find(kRoster.begin(), kRoster.end(), columns[c].name) == kRoster.end())
      tags_.push_back(tag_of(c, columns[c].name));
}

void ParquetGameText::append_value(std::string& out, const Tag& tag) const {
  const dataset::ParquetColumn& column = reader_.columns()[tag.column];
  switch (column.kind) {
    case ParquetValueKind::Text:
      append_escaped(out, reader_.text(tag.column));
      return;
    case ParquetValueKind::Integer:
      append_integer(out, reader_.number(tag.column), tag.signed_number);
      return;
    case ParquetValueKind::Unsigned: {
      char buffer[24];
      const char* end = std::to_chars(buffer, buffer + sizeof buffer, uint64_t(reader_.number(tag.column))).ptr;
      out.append(buffer, size_t(end - buffer));
      return;
    }
    case ParquetValueKind::Boolean:
      out += reader_.number(tag.column) != 0 ? "true" : "false";
      return;
    case ParquetValueKind::Real: {
      const double value = reader_.real(tag.column);
      if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 9e15) {
        append_integer(out, int64_t(value), tag.signed_number);
        return;
      }
      char buffer[32];
      const char* end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
      out.append(buffer, size_t(end - buffer));
      return;
    }
    case ParquetValueKind::Date:
      append_date(out, reader_.number(tag.column));
      return;
    case ParquetValueKind::Time: {
      const int64_t seconds = floor_div(reader_.number(tag.column), units_per_second(column.unit));
      if (seconds < 0 || seconds >= kSecondsPerDay) out += "??:??:??";
      else append_time_of_day(out, seconds);
      return;
    }
    case ParquetValueKind::Timestamp: {
      const int64_t seconds = floor_div(reader_.number(tag.column), units_per_second(column.unit));
      append_date(out, floor_div(seconds, kSecondsPerDay));
      out.push_back(' ');
      append_time_of_day(out, seconds - floor_div(seconds, kSecondsPerDay) * kSecondsPerDay);
      return;
    }
  }
}

void ParquetGameText::append_movetext(std::string& out) const {
  std::string_view movetext = reader_.present(movetext_) ? reader_.text(movetext_) : std::string_view();
  while (!movetext.empty() && is_blank(movetext.front())) movetext.remove_prefix(1);
  while (!movetext.empty() && is_blank(movetext.back())) movetext.remove_suffix(1);
  // A line that starts with '[' or '%' would be a tag or an escape line: an empty
  // comment first keeps such a movetext (broken in any case) one game.
  if (!movetext.empty() && (movetext.front() == '[' || movetext.front() == '%')) out += "{} ";
  const size_t start = out.size();
  out += movetext;
  // memchr, not a loop over every byte: the movetext is most of the text (this loop was
  // a fifth of the reading thread's time).
  for (char line_break : {'\n', '\r'})
    for (char* p = out.data() + start; (p = static_cast<char*>(std::memchr(p, line_break, size_t(out.data() + out.size() - p))));)
      *p++ = ' ';
  if (!ends_with_result(movetext)) {
    if (!movetext.empty()) out.push_back(' ');
    const std::string_view result =
        result_ && reader_.present(*result_) && reader_.columns()[*result_].kind == ParquetValueKind::Text
            ? reader_.text(*result_)
            : std::string_view();
    out += is_result(result) ? result : "*";
  }
  out += "\n\n";
}

void ParquetGameText::append_row(std::string& out) const {
  for (const Tag& tag : tags_) {
    if (!reader_.present(tag.column)) continue;
    out.push_back('[');
    out += tag.name;
    out += " \"";
    append_value(out, tag);
    out += "\"]\n";
  }
  out.push_back('\n');
  append_movetext(out);
}

}  // namespace pgnbase::indexer
