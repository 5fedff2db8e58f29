// The PGN TimeControl tag (PGN standard, section 9.6.1): parsing every standard form,
// lichess's speed categories, and the matcher behind `pgn-query --time-control`.
//
//   ?              unknown                      -> kind Unknown
//   -              no time control              -> kind None
//   *180           sandclock (hourglass), 180 s -> kind Sandclock
//   300            sudden death, 300 s          -> one period {moves 0, 300 s}
//   180+2          180 s base, 2 s per move     -> one period {moves 0, 180 s, +2 s}
//   40/7200:3600   40 moves in 7200 s, then the rest in 3600 s (periods joined by ':')
//   40/5400+30:1800+30   periods may carry an increment too (FIDE classical)
//   10/2592000     10 moves in 30 days (correspondence)
//
// Times are seconds (at most 2^32 - 1), whole as the standard says, or with up to three
// decimals as some engine-match files write them ("10+0.05", TCEC). Move counts are
// whole numbers. A bare "*" is read as unknown: the
// standard's sandclock form needs its seconds, and files that write "*" mean "not known",
// as the result "*" does. Surrounding blanks are ignored; anything else is an error.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/parsed.h"

namespace pgnbase::search {

enum class TimeControlKind : uint8_t { Unknown, None, Sandclock, Periods };

// Times are kept in milliseconds so that "0.05" is exact.
struct TimePeriod {
  uint32_t moves = 0;                   // moves to play in this period; 0 = the rest of the game
  uint64_t milliseconds = 0;            // time added at the start of the period
  uint64_t increment_milliseconds = 0;  // added after each move of the period
  bool operator==(const TimePeriod&) const = default;
};

struct TimeControl {
  TimeControlKind kind = TimeControlKind::Unknown;
  uint64_t sandclock_milliseconds = 0;  // kind Sandclock only
  std::vector<TimePeriod> periods;      // kind Periods only; a period with moves 0 is last
  bool operator==(const TimeControl&) const = default;
};

enum class TimeControlError : uint8_t {
  None,
  Empty,               // nothing but blanks
  MissingNumber,       // a '/', '+', ':' or '*' without digits where a number belongs
  NumberTooLarge,      // more than 2^32 - 1 (moves or seconds)
  BadFraction,         // "1." or finer than a millisecond ("1.0001")
  ZeroMoves,           // "0/300": a period of no moves
  SuddenDeathNotLast,  // "3600:40/7200": a period without a move count ends the game
  UnexpectedCharacter, // any other character ("5 min", "90'+30''", "40.5/7200")
};

const char* describe(TimeControlError error);

// Parses a TimeControl tag value into out (left as kind Unknown on error).
TimeControlError parse_time_control(std::string_view text, TimeControl& out);

// Writes the canonical form: "?", "-", "*180", "180+2", "300", "40/7200:3600", "10+0.05".
// An increment of 0 is left out, so parse(to_string(t)) == t.
std::string to_string(const TimeControl& time_control);

// lichess's estimate of a game's duration: the time available for 40 moves, i.e.
// base + 40 * increment for "base+increment". With several periods it sums the periods
// that the first 40 moves use (each with its increments); when the periods run out
// before 40 moves, the last one repeats (so "10/2592000" counts 4 x 30 days). The
// sandclock's seconds for a sandclock; nullopt for unknown and for no time control.
std::optional<double> estimated_seconds(const TimeControl& time_control);

// lichess's speed categories by the estimate (lichess.org/faq#time-controls):
// "ultrabullet" < 30 s <= "bullet" < 180 s <= "blitz" < 480 s <= "rapid" < 1500 s <=
// "classical" < 21600 s (6 hours) <= "correspondence". No time control ("-", which
// lichess writes for its correspondence and unlimited games) is "correspondence";
// unknown is "unknown". The views are static strings.
std::string_view speed_category(const TimeControl& time_control);

// Speed category of a raw tag value; "unknown" when it does not parse.
std::string_view speed_category(std::string_view tag_value);

// What `--time-control PATTERN` selects. PATTERN is one of:
//   - a speed category: ultrabullet, bullet, blitz, rapid, classical, correspondence,
//     unknown (case-insensitive);
//   - a TimeControl value ("180+2", "40/7200:3600", "-", "?"): games whose tag means the
//     same, compared after parsing ("600" matches "600+0");
//   - base+increment with '*' for any number: "180+*" (3 minutes, any increment),
//     "*+0" (no increment), "*+*" (any single-period clock); whole seconds.
// A game without a TimeControl tag counts as "?". A database holds few distinct
// TimeControl values: callers may evaluate the matcher once per distinct value.
// Immutable after parse; safe to share between threads.
class TimeControlMatcher {
 public:
  static Parsed<TimeControlMatcher> parse(std::string_view pattern);

  bool matches(std::string_view tag_value) const;
  bool matches(const TimeControl& time_control) const;

 private:
  enum class Mode : uint8_t { Category, Exact, BaseIncrement };
  static constexpr uint64_t kAny = UINT64_MAX;

  Mode mode_ = Mode::Exact;
  std::string_view category_;  // Mode::Category
  TimeControl exact_;          // Mode::Exact
  uint64_t base_milliseconds_ = kAny;  // Mode::BaseIncrement; kAny for '*'
  uint64_t increment_milliseconds_ = kAny;
};

}  // namespace pgnbase::search
