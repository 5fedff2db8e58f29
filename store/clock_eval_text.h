// Clocks and evaluations as PGN comments write them (lichess, most broadcasts):
// "[%clk 0:03:00]", "[%clk 0:00:05.3]", "[%eval 0.17]", "[%eval -1.5]", "[%eval #-3]",
// "[%eval 0.17,23]" (an engine depth after the comma, read and dropped). The values as
// numbers, and back as text in lichess's own spelling.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace pgnbase::store {

enum class EvalKind : uint8_t { None, Centipawns, Mate };

// An evaluation from White's side: centipawns, or moves to mate (negative: Black mates).
struct Evaluation {
  EvalKind kind = EvalKind::None;
  int32_t value = 0;
  friend bool operator==(const Evaluation&, const Evaluation&) = default;
};

// The clock and evaluation after one main-line ply (ply 1 is the first move).
struct PlyClockEval {
  uint32_t ply = 0;
  int32_t clock = -1;  // tenths of a second left on the mover's clock; -1 none
  Evaluation eval;
  friend bool operator==(const PlyClockEval&, const PlyClockEval&) = default;
};

// The largest clock read, 99:59:59.9, in tenths of a second (in milliseconds it still
// fits the dataset's 32-bit column).
inline constexpr int32_t kMaxClockTenths = 99 * 36000 + 35999;

struct ParsedClock {
  int32_t tenths = 0;
  bool fraction = false;  // written with a tenths digit ("0:00:05.3")
};
// "H:MM:SS" or "H:MM:SS.d" (hours 1 or 2 digits, minutes and seconds 00-59); nullopt
// for anything else.
std::optional<ParsedClock> parse_clock(std::string_view text);
// Appends the clock as lichess writes it ("0:03:00"), with its tenths digit when fraction.
void append_clock(int32_t tenths, bool fraction, std::string& out);
// Appends the clock as a JSON number of seconds ("180", "5.3"): export's JSON Lines and
// the web API.
void append_clock_seconds(int32_t tenths, std::string& out);

// "0.17", "+0.17", "-1.5", "12", "#3", "#-3", each optionally followed by ",depth";
// at most two decimals, up to 7 integer digits, mates up to 5 digits. nullopt otherwise.
std::optional<Evaluation> parse_eval(std::string_view text);
// Appends the evaluation as lichess writes it: pawns with one or two decimals and no
// plus sign ("0.0", "0.3", "-0.17", "12.05"), mates as "#3" / "#-3".
void append_eval(Evaluation eval, std::string& out);

// The value of the first "[%NAME value]" command in a comment's text (blanks around the
// value dropped), or nullopt when there is none or it has no closing bracket.
std::optional<std::string_view> command_value(std::string_view comment, std::string_view name);

// The clock and evaluation an annotation entry's text (store/annotations.h: comments,
// NAGs, variations) holds for its ply: the first [%clk] and the first [%eval] command of
// its comments outside variations, each when its value parses. Fields found are set only
// where `out` has none yet.
void read_clock_eval(std::string_view entry_text, PlyClockEval& out);

}  // namespace pgnbase::store
