// games.date_key: a Date tag as real files write it, reduced to a sortable number.
//
//   date_key = year * 10000 + month * 100 + day, an unknown month or day as 00
//   "1957.05.17" -> 19570517   "1957.05" -> 19570500   "1957" -> 19570000
//
// Forms read: year, year.month, year.month.day, with '.', '-' or '/' between the parts
// (1957-05-17, 1957/05/17); month and day in one or two digits (2012.8.1); an unknown
// part as question marks (1957.??.??) or zeros; blanks around the value ignored.
// A month outside 1-12 (2013.30.4: day and month swapped) keeps only the year, and a
// day outside the month keeps year and month; a day without its month is dropped. No
// date_key when the year is unknown (????.??.??) or the text is no date at all.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace pgnbase::store {

std::optional<int64_t> date_key_of(std::string_view date);

// 28 to 31; month 1-12.
int days_in_month(int64_t year, int64_t month);

}  // namespace pgnbase::store
