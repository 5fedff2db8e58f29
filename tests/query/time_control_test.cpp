#include "search/time_control.h"

#include <gtest/gtest.h>

#include <string>

namespace pgnbase::query {
namespace {

search::TimeControl parsed(std::string_view text) {
  search::TimeControl time_control;
  const search::TimeControlError error = search::parse_time_control(text, time_control);
  EXPECT_EQ(error, search::TimeControlError::None) << "'" << text << "': " << describe(error);
  return time_control;
}

search::TimeControlError error_of(std::string_view text) {
  search::TimeControl time_control;
  const search::TimeControlError error = search::parse_time_control(text, time_control);
  EXPECT_EQ(time_control, search::TimeControl{}) << "'" << text << "' left a partial result";
  return error;
}

double estimate(std::string_view text) { return search::estimated_seconds(parsed(text)).value_or(-1); }

TEST(TimeControl, QuestionMarkIsUnknown) {
  const search::TimeControl t = parsed("?");
  EXPECT_EQ(t.kind, search::TimeControlKind::Unknown);
  EXPECT_TRUE(t.periods.empty());
  EXPECT_FALSE(search::estimated_seconds(t).has_value());
  EXPECT_EQ(search::speed_category(t), "unknown");
  EXPECT_EQ(to_string(t), "?");
}

TEST(TimeControl, BareAsteriskIsUnknown) {
  EXPECT_EQ(parsed("*").kind, search::TimeControlKind::Unknown);
}

TEST(TimeControl, DashIsNoTimeControl) {
  const search::TimeControl t = parsed("-");
  EXPECT_EQ(t.kind, search::TimeControlKind::None);
  EXPECT_FALSE(search::estimated_seconds(t).has_value());
  EXPECT_EQ(search::speed_category(t), "correspondence");  // lichess writes "-" for correspondence games
  EXPECT_EQ(to_string(t), "-");
}

TEST(TimeControl, SandclockHoldsItsSeconds) {
  const search::TimeControl t = parsed("*180");
  EXPECT_EQ(t.kind, search::TimeControlKind::Sandclock);
  EXPECT_EQ(t.sandclock_milliseconds, 180000u);
  EXPECT_EQ(estimate("*180"), 180);
  EXPECT_EQ(search::speed_category(t), "blitz");
  EXPECT_EQ(to_string(t), "*180");
}

TEST(TimeControl, SecondsAloneIsSuddenDeath) {
  const search::TimeControl t = parsed("300");
  ASSERT_EQ(t.kind, search::TimeControlKind::Periods);
  ASSERT_EQ(t.periods.size(), 1u);
  EXPECT_EQ(t.periods[0], (search::TimePeriod{0, 300000, 0}));
  EXPECT_EQ(estimate("300"), 300);
  EXPECT_EQ(search::speed_category(t), "blitz");
  EXPECT_EQ(to_string(t), "300");
}

TEST(TimeControl, BasePlusIncrement) {
  const search::TimeControl t = parsed("180+2");
  ASSERT_EQ(t.periods.size(), 1u);
  EXPECT_EQ(t.periods[0], (search::TimePeriod{0, 180000, 2000}));
  EXPECT_EQ(estimate("180+2"), 180 + 40 * 2);
  EXPECT_EQ(search::speed_category(t), "blitz");
  EXPECT_EQ(to_string(t), "180+2");
  // lichess writes a zero increment; it means the same as none.
  EXPECT_EQ(parsed("600+0"), parsed("600"));
  EXPECT_EQ(to_string(parsed("600+0")), "600");
}

TEST(TimeControl, MovesInSecondsThenSuddenDeath) {
  const search::TimeControl t = parsed("40/7200:3600");
  ASSERT_EQ(t.periods.size(), 2u);
  EXPECT_EQ(t.periods[0], (search::TimePeriod{40, 7200000, 0}));
  EXPECT_EQ(t.periods[1], (search::TimePeriod{0, 3600000, 0}));
  EXPECT_EQ(estimate("40/7200:3600"), 7200);  // the first 40 moves use the first period
  EXPECT_EQ(search::speed_category(t), "classical");
  EXPECT_EQ(to_string(t), "40/7200:3600");
}

TEST(TimeControl, PeriodsWithIncrements) {
  const search::TimeControl t = parsed("40/5400+30:1800+30");
  ASSERT_EQ(t.periods.size(), 2u);
  EXPECT_EQ(t.periods[0], (search::TimePeriod{40, 5400000, 30000}));
  EXPECT_EQ(t.periods[1], (search::TimePeriod{0, 1800000, 30000}));
  EXPECT_EQ(estimate("40/5400+30:1800+30"), 5400 + 40 * 30);
  EXPECT_EQ(to_string(t), "40/5400+30:1800+30");
  // Two controls before move 40.
  EXPECT_EQ(estimate("20/3600:20/1800:900"), 3600 + 1800);
  EXPECT_EQ(estimate("30/1800+10:600+10"), 1800 + 30 * 10 + 600 + 10 * 10);
}

TEST(TimeControl, CorrespondenceDaysPerMove) {
  const search::TimeControl t = parsed("10/2592000");
  ASSERT_EQ(t.periods.size(), 1u);
  EXPECT_EQ(t.periods[0], (search::TimePeriod{10, 2592000000, 0}));
  EXPECT_EQ(estimate("10/2592000"), 4.0 * 2592000);  // the period repeats until move 40
  EXPECT_EQ(search::speed_category(t), "correspondence");
  EXPECT_EQ(search::speed_category(parsed("1/86400")), "correspondence");
  EXPECT_EQ(to_string(t), "10/2592000");
}

TEST(TimeControl, LichessCategoryThresholds) {
  struct Case {
    const char* value;
    const char* category;
  };
  const Case cases[] = {
      {"15+0", "ultrabullet"}, {"29", "ultrabullet"},   {"0+1", "bullet"},        {"30", "bullet"},
      {"60+0", "bullet"},      {"120+1", "bullet"},     {"179", "bullet"},        {"180", "blitz"},
      {"180+0", "blitz"},      {"300+3", "blitz"},      {"479", "blitz"},         {"480", "rapid"},
      {"600+5", "rapid"},      {"900+10", "rapid"},     {"1499", "rapid"},        {"1500", "classical"},
      {"1800+30", "classical"}, {"5400+30", "classical"}, {"21599", "classical"}, {"21600", "correspondence"},
  };
  for (const Case& c : cases) EXPECT_EQ(search::speed_category(parsed(c.value)), c.category) << c.value;
  EXPECT_EQ(search::speed_category(std::string_view("300+3")), "blitz");
  EXPECT_EQ(search::speed_category(std::string_view("5 min")), "unknown");
}

// TCEC writes sub-second increments for its fastest bonus games.
TEST(TimeControl, FractionalSecondsAreKeptExactly) {
  const search::TimeControl t = parsed("10+0.05");
  ASSERT_EQ(t.periods.size(), 1u);
  EXPECT_EQ(t.periods[0], (search::TimePeriod{0, 10000, 50}));
  EXPECT_DOUBLE_EQ(estimate("10+0.05"), 12);
  EXPECT_EQ(search::speed_category(t), "ultrabullet");
  EXPECT_EQ(to_string(t), "10+0.05");
  EXPECT_EQ(to_string(parsed("1.500+0.250")), "1.5+0.25");
  EXPECT_EQ(parsed("*0.5").sandclock_milliseconds, 500u);
}

TEST(TimeControl, SurroundingBlanksAreIgnored) {
  EXPECT_EQ(parsed(" 180+2\t"), parsed("180+2"));
}

TEST(TimeControl, MalformedValuesSayWhy) {
  EXPECT_EQ(error_of(""), search::TimeControlError::Empty);
  EXPECT_EQ(error_of("   "), search::TimeControlError::Empty);
  EXPECT_EQ(error_of("180+"), search::TimeControlError::MissingNumber);
  EXPECT_EQ(error_of("+2"), search::TimeControlError::MissingNumber);
  EXPECT_EQ(error_of("40/"), search::TimeControlError::MissingNumber);
  EXPECT_EQ(error_of("/7200"), search::TimeControlError::MissingNumber);
  EXPECT_EQ(error_of("40/7200:"), search::TimeControlError::MissingNumber);
  EXPECT_EQ(error_of(":3600"), search::TimeControlError::MissingNumber);
  EXPECT_EQ(error_of("40/7200::3600"), search::TimeControlError::MissingNumber);
  EXPECT_EQ(error_of("0/300"), search::TimeControlError::ZeroMoves);
  EXPECT_EQ(error_of("4294967296"), search::TimeControlError::NumberTooLarge);
  EXPECT_EQ(error_of("40/99999999999"), search::TimeControlError::NumberTooLarge);
  EXPECT_EQ(error_of("3600:40/7200"), search::TimeControlError::SuddenDeathNotLast);
  EXPECT_EQ(error_of("40/7200:3600:900"), search::TimeControlError::SuddenDeathNotLast);
  EXPECT_EQ(error_of("5 min"), search::TimeControlError::UnexpectedCharacter);
  EXPECT_EQ(error_of("40.5/7200"), search::TimeControlError::UnexpectedCharacter);
  EXPECT_EQ(error_of("1."), search::TimeControlError::BadFraction);
  EXPECT_EQ(error_of("60+0.0001"), search::TimeControlError::BadFraction);
  EXPECT_EQ(error_of("60+.5"), search::TimeControlError::UnexpectedCharacter);
  EXPECT_EQ(error_of("90'+30''"), search::TimeControlError::UnexpectedCharacter);
  EXPECT_EQ(error_of("180+2+3"), search::TimeControlError::UnexpectedCharacter);
  EXPECT_EQ(error_of("-5"), search::TimeControlError::UnexpectedCharacter);
  EXPECT_EQ(error_of("--"), search::TimeControlError::UnexpectedCharacter);
  EXPECT_EQ(error_of("??"), search::TimeControlError::UnexpectedCharacter);
  EXPECT_EQ(error_of("*180+2"), search::TimeControlError::UnexpectedCharacter);
  EXPECT_EQ(error_of("*x"), search::TimeControlError::UnexpectedCharacter);
  EXPECT_STREQ(describe(search::TimeControlError::ZeroMoves), "a period of zero moves");
}

TEST(TimeControl, CanonicalTextRoundTrips) {
  for (const char* value : {"?", "-", "*60", "0", "60", "60+1", "40/7200:3600", "40/5400+30:1800+30",
                            "10/2592000", "20/3600:20/1800:900", "4294967295", "10+0.05", "*0.125"}) {
    EXPECT_EQ(to_string(parsed(value)), value);
    EXPECT_EQ(parsed(to_string(parsed(value))), parsed(value)) << value;
  }
}

search::TimeControlMatcher matcher(std::string_view pattern) {
  Parsed<search::TimeControlMatcher> m = search::TimeControlMatcher::parse(pattern);
  EXPECT_TRUE(m) << pattern << ": " << (m ? "" : m.error());
  return m ? *m : *search::TimeControlMatcher::parse("?");
}

TEST(TimeControlMatcher, CategoryName) {
  const search::TimeControlMatcher blitz = matcher("blitz");
  EXPECT_TRUE(blitz.matches("180+0"));
  EXPECT_TRUE(blitz.matches("300+3"));
  EXPECT_TRUE(blitz.matches("*300"));
  EXPECT_FALSE(blitz.matches("60+0"));
  EXPECT_FALSE(blitz.matches("600"));
  EXPECT_FALSE(blitz.matches("?"));
  EXPECT_TRUE(matcher("BLITZ").matches("180+2"));
  EXPECT_TRUE(matcher("UltraBullet").matches("15+0"));
  EXPECT_TRUE(matcher("classical").matches("40/7200:3600"));
  EXPECT_TRUE(matcher("correspondence").matches("-"));
  EXPECT_TRUE(matcher("correspondence").matches("1/259200"));
  const search::TimeControlMatcher unknown = matcher("unknown");
  EXPECT_TRUE(unknown.matches("?"));
  EXPECT_TRUE(unknown.matches("5 min"));  // unparsable counts as unknown
  EXPECT_FALSE(unknown.matches("-"));
}

TEST(TimeControlMatcher, ExactValueComparedByMeaning) {
  const search::TimeControlMatcher m = matcher("180+2");
  EXPECT_TRUE(m.matches("180+2"));
  EXPECT_TRUE(m.matches(" 180+2 "));
  EXPECT_FALSE(m.matches("180+3"));
  EXPECT_FALSE(m.matches("180"));
  EXPECT_TRUE(matcher("600").matches("600+0"));
  EXPECT_TRUE(matcher("40/7200:3600").matches("40/7200:3600"));
  EXPECT_FALSE(matcher("40/7200:3600").matches("40/7200:1800"));
  EXPECT_TRUE(matcher("-").matches("-"));
  EXPECT_FALSE(matcher("-").matches("?"));
  EXPECT_TRUE(matcher("?").matches("?"));
  EXPECT_FALSE(matcher("?").matches("5 min"));
  EXPECT_TRUE(matcher("*60").matches("*60"));
}

TEST(TimeControlMatcher, BaseIncrementWithWildcards) {
  const search::TimeControlMatcher three_minutes = matcher("180+*");
  EXPECT_TRUE(three_minutes.matches("180+0"));
  EXPECT_TRUE(three_minutes.matches("180+2"));
  EXPECT_TRUE(three_minutes.matches("180"));
  EXPECT_FALSE(three_minutes.matches("300+2"));
  EXPECT_FALSE(three_minutes.matches("40/180"));
  const search::TimeControlMatcher no_increment = matcher("*+0");
  EXPECT_TRUE(no_increment.matches("60+0"));
  EXPECT_TRUE(no_increment.matches("300"));
  EXPECT_FALSE(no_increment.matches("300+3"));
  EXPECT_FALSE(no_increment.matches("40/7200:3600"));
  const search::TimeControlMatcher any_clock = matcher("*+*");
  EXPECT_TRUE(any_clock.matches("60+1"));
  EXPECT_FALSE(any_clock.matches("-"));
  EXPECT_FALSE(any_clock.matches("?"));
  EXPECT_FALSE(any_clock.matches("*60"));
  EXPECT_TRUE(matcher("*+2").matches("600+2"));
}

TEST(TimeControlMatcher, MalformedPatternIsRefusedWithAMessage) {
  for (const char* pattern : {"", "*", "superfast", "180+x", "x+*", "180+*+1", "*/60", "3 min", "*+0.5"}) {
    const Parsed<search::TimeControlMatcher> m = search::TimeControlMatcher::parse(pattern);
    ASSERT_FALSE(m) << pattern;
    EXPECT_NE(m.error().find(pattern), std::string::npos) << m.error();
  }
  EXPECT_FALSE(search::TimeControlMatcher::parse("blitzz"));
}

}  // namespace
}  // namespace pgnbase::query
