// Annotations as `show` prints them for reading: NAGs as the symbols of chess books
// ($1 "!", $14 "⩲", ...) and lichess's [%clk ...] and [%eval ...] commands taken out of
// the comments, to stand in columns of their own.
#pragma once

#include <string>
#include <string_view>

namespace pgnbase::query {

// The symbol of a NAG (1 -> "!", 14 -> "⩲"); empty for a NAG without a common symbol.
std::string_view nag_symbol(int nag);

struct ReadableAnnotation {
  std::string text;   // NAGs as symbols, comments without their clock and evaluation
  std::string clock;  // "0:03:00", or empty
  std::string eval;   // "+0.17", "#-3", or empty
};

// Takes "[%NAME value]" (lichess's clk, eval, ...) out of a comment's text; the value
// without trailing blanks, or "" when the comment has none.
std::string take_comment_command(std::string& comment, std::string_view name);

// Rewrites one annotation entry's text (store/annotations.h: "{comment}", "$14",
// "(variation)"); a comment left empty once its commands are out disappears.
ReadableAnnotation readable_annotation(std::string_view text);

}  // namespace pgnbase::query
