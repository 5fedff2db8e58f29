// Clocks and evaluations: the command values (store/clock_eval_text.h), what the import
// lifts out of the comments and how reading puts it back (store/clock_eval_codec.h), and
// the annotations payload that carries them (store/annotations.h). The texts here are
// hand-made edge cases, each named; real games are checked in
// tests/query/clock_eval_data_test.cpp.
#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <string>
#include <vector>

#include "store/annotations.h"
#include "store/blob_codec.h"
#include "store/clock_eval_codec.h"
#include "store/clock_eval_text.h"
#include "store/game_annotations.h"

namespace pgnbase::store {
namespace {

TEST(ClockEvalText, ParsesClocksWithHoursAndTenths) {
  EXPECT_EQ(parse_clock("0:03:00")->tenths, 1800);
  EXPECT_FALSE(parse_clock("0:03:00")->fraction);
  EXPECT_EQ(parse_clock("1:40:12")->tenths, (3600 + 40 * 60 + 12) * 10);
  EXPECT_EQ(parse_clock("01:30:00")->tenths, 54000);  // two-digit hours read (not lifted: lichess writes "1:30:00")
  EXPECT_EQ(parse_clock("99:59:59.9")->tenths, kMaxClockTenths);
  const std::optional<ParsedClock> tenths = parse_clock("0:00:05.3");
  ASSERT_TRUE(tenths);
  EXPECT_EQ(tenths->tenths, 53);
  EXPECT_TRUE(tenths->fraction);
  for (const char* bad : {"", "0:3:00", "0:60:00", "0:00:60", "0:00:05.35", "0:00:05.", "100:00:00", "0:00", "a:00:00",
                          "0:00:00 ", "-0:00:01"})
    EXPECT_FALSE(parse_clock(bad)) << bad;
}

TEST(ClockEvalText, WritesClocksAsLichessDoes) {
  auto text = [](int32_t tenths, bool fraction) {
    std::string out;
    append_clock(tenths, fraction, out);
    return out;
  };
  EXPECT_EQ(text(1800, false), "0:03:00");
  EXPECT_EQ(text(53, true), "0:00:05.3");
  EXPECT_EQ(text(50, true), "0:00:05.0");
  EXPECT_EQ(text(60120, false), "1:40:12");
  EXPECT_EQ(text(kMaxClockTenths, true), "99:59:59.9");
}

TEST(ClockEvalText, ParsesCentipawnsMatesAndDepths) {
  EXPECT_EQ(parse_eval("0.17"), (Evaluation{EvalKind::Centipawns, 17}));
  EXPECT_EQ(parse_eval("0.3"), (Evaluation{EvalKind::Centipawns, 30}));
  EXPECT_EQ(parse_eval("-1.5"), (Evaluation{EvalKind::Centipawns, -150}));
  EXPECT_EQ(parse_eval("+0.17"), (Evaluation{EvalKind::Centipawns, 17}));
  EXPECT_EQ(parse_eval("12"), (Evaluation{EvalKind::Centipawns, 1200}));
  EXPECT_EQ(parse_eval("-999.99"), (Evaluation{EvalKind::Centipawns, -99999}));
  EXPECT_EQ(parse_eval("0.17,23"), (Evaluation{EvalKind::Centipawns, 17}));
  EXPECT_EQ(parse_eval("#3"), (Evaluation{EvalKind::Mate, 3}));
  EXPECT_EQ(parse_eval("#-3"), (Evaluation{EvalKind::Mate, -3}));
  EXPECT_EQ(parse_eval("#-12,40"), (Evaluation{EvalKind::Mate, -12}));
  for (const char* bad : {"", "#", "#-", "0.123", "1.", ".5", "abc", "0.17,", "0.17,x", "#3.5", "12345678", "1 2", "--1"})
    EXPECT_FALSE(parse_eval(bad)) << bad;
}

TEST(ClockEvalText, WritesEvaluationsAsLichessDoes) {
  auto text = [](Evaluation e) {
    std::string out;
    append_eval(e, out);
    return out;
  };
  EXPECT_EQ(text({EvalKind::Centipawns, 0}), "0.0");
  EXPECT_EQ(text({EvalKind::Centipawns, 30}), "0.3");
  EXPECT_EQ(text({EvalKind::Centipawns, 17}), "0.17");
  EXPECT_EQ(text({EvalKind::Centipawns, -5}), "-0.05");
  EXPECT_EQ(text({EvalKind::Centipawns, 100}), "1.0");
  EXPECT_EQ(text({EvalKind::Centipawns, 1205}), "12.05");
  EXPECT_EQ(text({EvalKind::Centipawns, -99999}), "-999.99");
  EXPECT_EQ(text({EvalKind::Mate, 3}), "#3");
  EXPECT_EQ(text({EvalKind::Mate, -3}), "#-3");
}

TEST(ClockEvalText, EntryTextGivesTheFirstCommandOutsideVariations) {
  PlyClockEval got;
  read_clock_eval("(5... Nf6 {[%clk 0:09:00] [%eval 9.9]}) {[%eval #-2] [%clk 0:01:00.5]} {[%clk 0:00:01]}", got);
  EXPECT_EQ(got.clock, 605);
  EXPECT_EQ(got.eval, (Evaluation{EvalKind::Mate, -2}));
  // The first [%clk] decides, even when its value is not a clock.
  PlyClockEval bad;
  read_clock_eval("{[%clk soon]} {[%clk 0:00:10]} {[%eval 0.5,20]}", bad);
  EXPECT_EQ(bad.clock, -1);
  EXPECT_EQ(bad.eval, (Evaluation{EvalKind::Centipawns, 50}));
  // A value already known is kept.
  PlyClockEval known{3, 100, {EvalKind::Centipawns, 1}};
  read_clock_eval("{[%clk 0:00:20] [%eval 2.0]}", known);
  EXPECT_EQ(known, (PlyClockEval{3, 100, {EvalKind::Centipawns, 1}}));
}

struct LiftCase {
  const char* text;
  const char* stored;  // nullptr: nothing lifted
};

TEST(ClockEvalCodec, LiftsExactlyTheLayoutsThatWriteBackTheSame) {
  const LiftCase cases[] = {
      {"{[%eval 0.3] [%clk 0:01:00]}", ""},                      // lichess with analysis
      {"{[%clk 0:01:00]}", ""},                                  // lichess
      {"{[%clk 0:00:05.3]}", ""},                                // tenths (chess.com style)
      {"{[%clk 1:40:12] [%eval #-3]}", ""},                      // clock first, hours, mate
      {"$4 {[%eval -5.23] [%clk 0:02:51]} {Blunder.} (13. Nf6 e5)", "$4 {Blunder.} (13. Nf6 e5)"},
      {"$2 $13 {[%clk 0:02:51]}", "$2 $13"},
      {"{[%clk 1:30:00] Good move, [%cal Ra1a8]}", "{Good move, [%cal Ra1a8]}"},
      {"{[%eval 0.2] [%clk bad] text}", "{[%clk bad] text}"},   // the clock that does not parse stays
      {"{[%clk 0:01:00]} (1... e5 {[%clk 0:01:00]})", "(1... e5 {[%clk 0:01:00]})"},
      {"{[%clk 01:30:00]}", nullptr},                           // lichess writes the hour with one digit
      {"{[%eval +0.17]}", nullptr},
      {"{[%eval 0.17,23]}", nullptr},
      {"{[%eval 0.10]}", nullptr},
      {"{Nice [%clk 0:01:00]}", nullptr},
      {"{[%clk  0:01:00]}", nullptr},
      {"{[%clk 0:01:00]x}", nullptr},
      {"{[%clk 0:01:00] }", nullptr},
      {"(1... e5 {[%clk 0:01:00]})", nullptr},
      {"{[%clk 0:01:00]} $4", nullptr},                          // a NAG after the comment: not its layout
      {"$4x {[%clk 0:01:00]}", nullptr},
      {"{(=)}", nullptr},
  };
  for (const LiftCase& c : cases) {
    std::string stored;
    LiftedCommands lifted;
    const bool done = lift_commands(7, c.text, stored, lifted);
    ASSERT_EQ(done, c.stored != nullptr) << c.text;
    if (!done) continue;
    EXPECT_EQ(stored, c.stored) << c.text;
    EXPECT_EQ(lifted.ply, 7u);
    std::string back;
    ASSERT_TRUE(restore_commands(stored, lifted, back)) << c.text;
    EXPECT_EQ(back, c.text);
  }
  std::string stored;
  LiftedCommands lifted;
  EXPECT_FALSE(lift_commands(0, "{[%clk 0:01:00]}", stored, lifted)) << "ply 0 has no move, so no clock";
}

// Nearly every lifted ply is one comment of commands only, which lift_commands decides
// without writing the text back (its spelling test instead): over hand-made spellings of
// each value, lifted exactly when writing the numbers back gives the text, and then
// restored byte for byte.
TEST(ClockEvalCodec, WholeCommentsLiftExactlyWhenTheirSpellingWritesBack) {
  std::vector<std::string> clocks, evals;
  for (const char* hours : {"0", "1", "9", "00", "01", "09", "10", "99"})
    for (const char* minutes_seconds : {":00:00", ":07:59", ":59:05"})
      for (const char* tenths : {"", ".0", ".7"}) clocks.push_back(std::string(hours) + minutes_seconds + tenths);
  for (const char* e : {"0.0", "0.00", "0", "-0.0", "+0.17", "0.17", "0.3", "0.30", "-1.5", "12", "12.05", "012.05", "#3",
                        "#-3", "#03", "#+3", "#0", "0.17,23", "-999.99"})
    evals.push_back(e);
  auto written_back = [](const std::string& clock, const std::string& eval) {
    std::string out;
    if (!clock.empty()) {
      const std::optional<ParsedClock> c = parse_clock(clock);
      if (!c) return false;
      std::string back;
      append_clock(c->tenths, c->fraction, back);
      if (back != clock) return false;
    }
    if (!eval.empty()) {
      const std::optional<Evaluation> e = parse_eval(eval);
      if (!e) return false;
      std::string back;
      append_eval(*e, back);
      if (back != eval) return false;
    }
    return true;
  };
  size_t lifted_count = 0;
  auto check = [&](const std::string& text, const std::string& clock, const std::string& eval) {
    std::string stored;
    LiftedCommands lifted;
    const bool done = lift_commands(3, text, stored, lifted);
    ASSERT_EQ(done, written_back(clock, eval)) << text;
    if (!done) return;
    ++lifted_count;
    EXPECT_EQ(stored, "") << text;
    std::string back;
    ASSERT_TRUE(restore_commands(stored, lifted, back)) << text;
    EXPECT_EQ(back, text);
  };
  for (const std::string& c : clocks) {
    check("{[%clk " + c + "]}", c, "");
    for (const std::string& e : evals) {
      check("{[%eval " + e + "] [%clk " + c + "]}", c, e);
      check("{[%clk " + c + "] [%eval " + e + "]}", c, e);
    }
  }
  for (const std::string& e : evals) check("{[%eval " + e + "]}", "", e);
  EXPECT_GT(lifted_count, 100u);  // the written-back spellings are among them
}

TEST(ClockEvalCodec, SectionRoundTripsWithGapsHoursTenthsAndMates) {
  auto layout = [](uint8_t bits) { return bits; };
  const std::vector<LiftedCommands> lifted = {
      {1, layout(LIFT_CLOCK | LIFT_CLOCK_FIRST), 10800, {}},                       // 0:18:00
      {2, layout(LIFT_CLOCK | LIFT_EVAL), 72000, {EvalKind::Centipawns, 17}},     // 2:00:00
      {3, layout(LIFT_EVAL | LIFT_JOINED), 0, {EvalKind::Centipawns, -350}},      // no clock
      {6, layout(LIFT_CLOCK | LIFT_TENTHS | LIFT_CLOCK_FIRST), 53, {}},           // after a gap, 0:00:05.3
      {7, layout(LIFT_CLOCK | LIFT_EVAL), 71990, {EvalKind::Mate, -3}},
      {8, layout(LIFT_CLOCK | LIFT_EVAL), 0, {EvalKind::Mate, 4}},
      {9, layout(LIFT_CLOCK | LIFT_EVAL | LIFT_CLOCK_FIRST), kMaxClockTenths - 9, {EvalKind::Centipawns, 99999}},
  };
  std::string section;
  encode_lifted(lifted, section);
  std::vector<LiftedCommands> back;
  ASSERT_TRUE(decode_lifted(section, back));
  EXPECT_EQ(back, lifted);
  // Every shorter prefix and every longer buffer is corrupt, never read past.
  for (size_t n = 0; n < section.size(); ++n) EXPECT_FALSE(decode_lifted(section.substr(0, n), back)) << n;
  EXPECT_FALSE(decode_lifted(section + '\0', back));
}

TEST(ClockEvalCodec, WholeSecondClocksTakeOneBytePerMoveInABulletGame) {
  // 60 plies of a 1+0 game, a second or two per move, with an evaluation on each.
  std::vector<LiftedCommands> lifted;
  for (uint32_t ply = 1; ply <= 60; ++ply)
    lifted.push_back({ply, LIFT_CLOCK | LIFT_EVAL, int32_t(600 - (ply / 2) * 15 / 10 * 10),
                      {EvalKind::Centipawns, int32_t(ply % 7) * 10 - 30}});
  std::string section;
  encode_lifted(lifted, section);
  std::vector<LiftedCommands> back;
  ASSERT_TRUE(decode_lifted(section, back));
  EXPECT_EQ(back, lifted);
  EXPECT_LE(section.size(), 4 + 60 + 2 * 60u);
}

TEST(ClockEvalCodec, RandomBytesNeverCrashTheSectionReader) {
  std::mt19937 random(26);
  std::vector<LiftedCommands> out;
  int accepted = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string bytes(random() % 24, '\0');
    for (char& b : bytes) b = char(random() % 4 == 0 ? random() % 256 : random() % 4);
    if (decode_lifted(bytes, out)) {
      ++accepted;
      for (const LiftedCommands& l : out) {
        EXPECT_GE(l.ply, 1u);
        EXPECT_LE(l.clock, kMaxClockTenths);
        EXPECT_GE(l.clock, 0);
      }
    }
  }
  EXPECT_GT(accepted, 0);
}

// The entries as encode_game_annotations takes them (views of the texts).
std::vector<AnnotationView> views_of(const std::vector<AnnotationEntry>& entries) {
  std::vector<AnnotationView> views;
  for (const AnnotationEntry& e : entries) views.push_back({e.ply, e.text});
  return views;
}

TEST(GameAnnotations, ReaderGivesBackTheTextAndTheNumbers) {
  const std::vector<AnnotationEntry> entries = {
      {0, "{Opening remarks}"},
      {1, "{[%eval 0.3] [%clk 0:01:00]}"},
      {2, "$2 {[%eval 1.05] [%clk 0:00:58]} (2... Nf6 {[%clk 0:00:30]})"},
      {3, "{[%clk 01:00:00]}"},  // stays in the text, still read as a number
      {4, "{[%eval #-3]}"},
      {5, "{(=)}"},
  };
  std::string payload, blob;
  encode_game_annotations(views_of(entries), payload);
  std::string plain;
  encode_annotations(entries, plain);
  EXPECT_LT(payload.size(), plain.size());
  encode_blob(payload, 3, blob);
  AnnotationReader reader;
  ASSERT_TRUE(reader.read(blob));
  ASSERT_EQ(reader.entries().size(), entries.size());
  for (size_t i = 0; i < entries.size(); ++i) {
    EXPECT_EQ(reader.entries()[i].ply, entries[i].ply);
    EXPECT_EQ(reader.entries()[i].text, entries[i].text);
  }
  const std::vector<PlyClockEval> expected = {
      {1, 600, {EvalKind::Centipawns, 30}},
      {2, 580, {EvalKind::Centipawns, 105}},
      {3, 36000, {}},
      {4, -1, {EvalKind::Mate, -3}},
  };
  EXPECT_EQ(reader.clock_evals(), expected);
  // A game of clocks alone stores no text at all.
  std::string only_clocks;
  encode_game_annotations(views_of({{1, "{[%clk 0:01:00]}"}, {2, "{[%clk 0:01:00]}"}}), only_clocks);
  std::vector<AnnotationView> stored;
  std::string_view section;
  ASSERT_TRUE(decode_annotations(only_clocks, stored, section));
  EXPECT_TRUE(stored.empty());
  EXPECT_FALSE(section.empty());
}

TEST(GameAnnotations, PayloadWithoutSectionReadsAsBefore) {
  // A schema 5 payload: every command in the text.
  const std::vector<AnnotationEntry> entries = {{1, "{[%clk 0:01:00]}"}, {2, "{[%eval -0.5] [%clk 0:00:59]}"}};
  std::string payload, blob;
  encode_annotations(entries, payload);
  encode_blob(payload, 3, blob);
  AnnotationReader reader;
  ASSERT_TRUE(reader.read(blob));
  ASSERT_EQ(reader.entries().size(), 2u);
  EXPECT_EQ(reader.entries()[1].text, entries[1].text);
  const std::vector<PlyClockEval> expected = {{1, 600, {}}, {2, 590, {EvalKind::Centipawns, -50}}};
  EXPECT_EQ(reader.clock_evals(), expected);
}

TEST(GameAnnotations, DamagedSectionsAreCorrupt) {
  std::string payload;
  encode_game_annotations(views_of({{1, "$1 {[%clk 0:01:00] well played}"}}), payload);
  std::string blob;
  encode_blob(payload, 0, blob);
  AnnotationReader reader;
  ASSERT_TRUE(reader.read(blob));
  EXPECT_EQ(reader.entries()[0].text, "$1 {[%clk 0:01:00] well played}");
  // Two sections, or a joined comment whose text lost its "{": corrupt.
  const std::string twice = payload + payload;
  blob.clear();
  encode_blob(twice, 0, blob);
  EXPECT_FALSE(reader.read(blob));
  std::string section;
  encode_lifted({{1, LIFT_CLOCK | LIFT_JOINED, 600, {}}}, section);
  std::string no_brace;
  append_varint(kLiftedSectionKey, no_brace);
  append_varint(section.size(), no_brace);
  no_brace += section;
  encode_annotations({{1, "$1"}}, no_brace);
  blob.clear();
  encode_blob(no_brace, 0, blob);
  EXPECT_FALSE(reader.read(blob));
}

}  // namespace
}  // namespace pgnbase::store
