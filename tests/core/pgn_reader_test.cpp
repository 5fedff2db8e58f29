#include "core/pgn_reader.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/files.h"
#include "tests/support/shared_data.h"

namespace pgnbase {
namespace {

// A copy of the text in a heap block of exactly its size, so that ASan reports any
// read past either end.
class ExactBuffer {
 public:
  explicit ExactBuffer(std::string_view text) : data_(new char[text.size()]), size_(text.size()) {
    if (size_ > 0) std::memcpy(data_.get(), text.data(), size_);
  }
  std::string_view view() const { return {data_.get(), size_}; }

 private:
  std::unique_ptr<char[]> data_;
  size_t size_;
};

const char* code_name(PgnErrorCode code) {
  switch (code) {
    case PgnErrorCode::UnterminatedTag: return "UnterminatedTag";
    case PgnErrorCode::MalformedTag: return "MalformedTag";
    case PgnErrorCode::UnterminatedComment: return "UnterminatedComment";
    case PgnErrorCode::UnbalancedParenthesis: return "UnbalancedParenthesis";
    case PgnErrorCode::UnexpectedToken: return "UnexpectedToken";
  }
  return "?";
}

// Writes every callback as a short word: <game OFFSET LINE> [Name=value] | e4 $1 {text}
// (=) ( ) result:1-0 </game> or </game CODE line N 'token'>.
struct EventLog {
  std::vector<std::string> events;
  bool skip_movetext = false;

  // Appends the pieces as one event (built by append: GCC 12 warns falsely on a + chain).
  void add(std::initializer_list<std::string_view> pieces) {
    std::string event;
    for (std::string_view piece : pieces) event.append(piece);
    events.push_back(std::move(event));
  }

  void begin_game(uint64_t offset, uint64_t line) {
    add({"<game ", std::to_string(offset), " ", std::to_string(line), ">"});
  }
  void tag(std::string_view name, std::string_view value) { add({"[", name, "=", value, "]"}); }
  bool end_tags() {
    add({"|"});
    return !skip_movetext;
  }
  void move(std::string_view token) { add({token}); }
  void nag(int value) { add({"$", std::to_string(value)}); }
  void comment(std::string_view text) { add({"{", text, "}"}); }
  void draw_offer() { add({"(=)"}); }
  void begin_variation() { add({"("}); }
  void end_variation() { add({")"}); }
  void result(std::string_view token) { add({"result:", token}); }
  void end_game(const GameText&, const PgnError* error) {
    if (error == nullptr) {
      add({"</game>"});
    } else {
      add({"</game ", code_name(error->code), " line ", std::to_string(error->line), " '", error->token, "'>"});
    }
  }

  std::string joined() const {
    std::string all;
    for (const std::string& event : events) {
      if (!all.empty()) all += ' ';
      all += event;
    }
    return all;
  }
};

std::string events_of(std::string_view text) {
  ExactBuffer buffer(text);
  PgnReader reader(buffer.view());
  EventLog log;
  reader.read_all(log);
  return log.joined();
}

// Only the movetext of a single tagless game, between "|" and the game end.
std::string movetext_of(std::string_view text) {
  std::string all = events_of(text);
  const std::string prefix = "<game 0 1> | ";
  const std::string suffix = " </game>";
  if (all.rfind(prefix, 0) != 0 || all.size() < prefix.size() + suffix.size() ||
      all.compare(all.size() - suffix.size(), suffix.size(), suffix) != 0) {
    return "not one clean game: " + all;
  }
  return all.substr(prefix.size(), all.size() - prefix.size() - suffix.size());
}

// Counts what file-level tests check; moves are counted per game on the main line.
struct GameCounter : PgnVisitorBase {
  struct Game {
    size_t main_line_moves = 0;
    bool failed = false;
    GameText text{};
  };
  std::vector<Game> games;
  std::vector<std::string> errors;
  size_t depth = 0;
  size_t variations = 0;
  size_t nags = 0;
  size_t comments = 0;
  size_t draw_offers = 0;

  void begin_game(uint64_t, uint64_t) {
    games.emplace_back();
    depth = 0;
  }
  void move(std::string_view) {
    if (depth == 0) ++games.back().main_line_moves;
  }
  void nag(int) { ++nags; }
  void comment(std::string_view) { ++comments; }
  void draw_offer() { ++draw_offers; }
  void begin_variation() {
    ++depth;
    ++variations;
  }
  void end_variation() { --depth; }
  void end_game(const GameText& text, const PgnError* error) {
    games.back().text = text;
    games.back().failed = error != nullptr;
    if (error) {
      errors.push_back(std::string(code_name(error->code)) + " at line " + std::to_string(error->line) + ": " +
                       std::string(error->token));
    }
  }
};

GameCounter count_games(std::string_view text) {
  ExactBuffer buffer(text);
  PgnReader reader(buffer.view());
  GameCounter counter;
  reader.read_all(counter);
  return counter;
}

// Counts the games of a file of the shared data.
GameCounter count_file(const std::string& relative_path) {
  return count_games(test::read_file(test::shared_data(relative_path)));
}

// ---------------------------------------------------------------------------------
// Hand-made inputs: one case each.

TEST(PgnReader, HandMadeEmptyRangeHasNoGame) {
  EXPECT_EQ(events_of(""), "");
  PgnReader reader{std::string_view()};
  EventLog log;
  EXPECT_FALSE(reader.read_game(log));
  EXPECT_TRUE(log.events.empty());
}

TEST(PgnReader, HandMadeWhitespaceOnlyHasNoGame) {
  EXPECT_EQ(events_of(" \n\r\n\t  \r \n"), "");
  EXPECT_EQ(events_of("\xEF\xBB\xBF\n"), "");
}

TEST(PgnReader, HandMadeTagsOnlyIsOneGameWithEmptyMovetext) {
  EXPECT_EQ(events_of("[Event \"A\"]\n[Site \"B\"]\n"), "<game 0 1> [Event=A] [Site=B] | </game>");
}

TEST(PgnReader, HandMadeGameCallsTheVisitorInOrder) {
  EXPECT_EQ(events_of("[Event \"A\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 1-0\n"),
            "<game 0 1> [Event=A] [Result=1-0] | e4 e5 Qh5 result:1-0 </game>");
}

TEST(PgnReader, HandMadeTagsAndMovetextOnOneLine) {
  EXPECT_EQ(events_of("[Result \"1-0\"] e4 *\n[Result \"0-1\"] [Round \"2\"] d4 0-1"),
            "<game 0 1> [Result=1-0] | e4 result:* </game> <game 20 2> [Result=0-1] [Round=2] | d4 result:0-1 </game>");
}

TEST(PgnReader, HandMadeBomGluedToFirstTagIsSkipped) {
  EXPECT_EQ(events_of("\xEF\xBB\xBF[Event \"A\"]\n*\n\n\xEF\xBB\xBF[Event \"B\"]\n*\n"),
            "<game 3 1> [Event=A] | result:* </game> <game 21 4> [Event=B] | result:* </game>");
}

TEST(PgnReader, HandMadeCrlfAndMixedLineEndsCountLines) {
  // Lines: 1 tag, 2 blank, 3 movetext, 4 blank (lone CR), 5 tag, 6 blank, 7 movetext with an error.
  const std::string text = "[A \"1\"]\r\n\r\n1. e4 *\r\n\r[B \"2\"]\n\r\n1. d4 ) *\r\n";
  EXPECT_EQ(events_of(text),
            "<game 0 1> [A=1] | e4 result:* </game> <game 21 5> [B=2] | d4 </game UnbalancedParenthesis line 7 ')'>");
}

// The chunk's line count the import takes from the reader after its last game (instead of
// a second pass over the text): the same as a byte loop, whatever the mix of line ends,
// where the text ends (a lone CR last, a CRLF split) and however far the games reached.
TEST(PgnReader, HandMadeLineBreaksCountTheWholeTextOnce) {
  auto byte_loop = [](std::string_view text) {
    uint64_t count = 0;
    for (size_t i = 0; i < text.size(); ++i)
      count += text[i] == '\n' || (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n'));
    return count;
  };
  const char* pieces[] = {"[Event \"A\"]", "\n", "\r\n", "\r", "1. e4 e5 ", "{a\r\nb} ", "1-0", "*", "\n\n", "; c\r\n", ")"};
  uint64_t seed = 7;
  for (int round = 0; round < 300; ++round) {
    std::string text;
    for (int i = 0; i < round % 40; ++i) {
      seed = seed * 6364136223846793005u + 1442695040888963407u;
      text += pieces[(seed >> 33) % std::size(pieces)];
    }
    const ExactBuffer buffer(text);
    PgnReader unread(buffer.view(), 0, 5);
    EXPECT_EQ(unread.line_breaks(), byte_loop(text)) << text;
    PgnReader reader(buffer.view(), 0, 5);
    PgnVisitorBase ignore;
    reader.read_all(ignore);
    EXPECT_EQ(reader.line_breaks(), byte_loop(text)) << text;
  }
}

TEST(PgnReader, HandMadeCrlfSemicolonCommentExcludesTheCarriageReturn) {
  EXPECT_EQ(movetext_of("e4 ; note\r\ne5 *"), "e4 { note} e5 result:*");
}

TEST(PgnReader, HandMadeLatin1BytesInTagsAndCommentsPassThrough) {
  EXPECT_EQ(events_of("[White \"Kramn\xEDk\"]\n1. e4 {Gl\xFC" "ck} *"),
            "<game 0 1> [White=Kramn\xEDk] | e4 {Gl\xFC" "ck} result:* </game>");
}

TEST(PgnReader, HandMadePercentEscapeLinesAreSkipped) {
  EXPECT_EQ(events_of("% header { not a comment\n[Event \"A\"]\n% between tags\n1. e4\n%{ in movetext\ne5 *"),
            "<game 25 2> [Event=A] | e4 e5 result:* </game>");
}

TEST(PgnReader, HandMadePercentInsideALineIsAnError) {
  EXPECT_EQ(events_of("1. e4 % e5 *"), "<game 0 1> | e4 </game UnexpectedToken line 1 '%'>");
}

TEST(PgnReader, HandMadeTagValueKeepsEscapesRaw) {
  EXPECT_EQ(events_of("[Event \"say \\\"hi\\\" \\\\ bye\"]\n*"), "<game 0 1> [Event=say \\\"hi\\\" \\\\ bye] | result:* </game>");
}

TEST(PgnReader, UnescapeTagValueRemovesBackslashEscapes) {
  std::string out = "x";
  unescape_tag_value("say \\\"hi\\\" \\\\ C:\\dir\\", out);
  EXPECT_EQ(out, "xsay \"hi\" \\ C:\\dir\\");
}

TEST(PgnReader, HandMadeUnescapedInnerQuotesEndAtTheQuoteBeforeTheBracket) {
  EXPECT_EQ(events_of("[White \"\"Mephisto\"\"]\n[Site \"C:\\\"]\n[FEN \"8/8 w - - 0 1\"]\n*"),
            "<game 0 1> [White=\"Mephisto\"] [Site=C:\\] [FEN=8/8 w - - 0 1] | result:* </game>");
}

TEST(PgnReader, HandMadeTagNamesAllowDigitsAndUnderscore) {
  EXPECT_EQ(events_of("[ my_Tag2 \"v\" ]\n[Tag\"glued\"]\n*"), "<game 0 1> [my_Tag2=v] [Tag=glued] | result:* </game>");
}

TEST(PgnReader, HandMadeMoveNumberFormsAreSkipped) {
  EXPECT_EQ(movetext_of("12. e4 12... e5 12. ... Nf3 12\xE2\x80\xA6 Nc6 1.e4 12...Nf6 12\xE2\x80\xA6Sf6 13 Bb5 *"),
            "e4 e5 Nf3 Nc6 e4 Nf6 Sf6 Bb5 result:*");
}

TEST(PgnReader, HandMadeGameWithoutMoveNumbers) {
  EXPECT_EQ(movetext_of("e4 e5 Nf3 Nc6 *"), "e4 e5 Nf3 Nc6 result:*");
}

TEST(PgnReader, HandMadeEveryResultTokenEndsTheGame) {
  for (std::string result : {"1-0", "0-1", "1/2-1/2", "\xC2\xBD-\xC2\xBD", "*"}) {
    EXPECT_EQ(events_of("1. e4 " + result + " 1. d4 *"),
              "<game 0 1> | e4 result:" + result + " </game> <game " + std::to_string(7 + result.size()) +
                  " 1> | d4 result:* </game>");
  }
}

TEST(PgnReader, HandMadeLatin1HalfIsAResult) {
  EXPECT_EQ(movetext_of("1. e4 \xBD-\xBD"), "e4 result:\xBD-\xBD");
}

TEST(PgnReader, HandMadeZeroCastlingIsAMoveNotAResult) {
  EXPECT_EQ(movetext_of("9. 0-0 0-0-0 10. O-O+ 0-0-0# 11. 0-0! 1-0"),
            "0-0 0-0-0 O-O+ 0-0-0# 0-0 $1 result:1-0");
}

TEST(PgnReader, HandMadeTaglessGamesFollowOneAnother) {
  EXPECT_EQ(events_of("1. e4 e5 1-0\n1. d4 d5 0-1\ne4 * d4 *"),
            "<game 0 1> | e4 e5 result:1-0 </game> <game 13 2> | d4 d5 result:0-1 </game> "
            "<game 26 3> | e4 result:* </game> <game 31 3> | d4 result:* </game>");
}

TEST(PgnReader, HandMadeMissingResultAtEndOfRangeIsNotAnError) {
  EXPECT_EQ(events_of("[Event \"A\"]\n1. e4 e5 2. Nf3\n\n"), "<game 0 1> [Event=A] | e4 e5 Nf3 </game>");
}

TEST(PgnReader, HandMadeMissingResultEndsAtTheNextTagLine) {
  EXPECT_EQ(events_of("[Event \"A\"]\n1. e4 e5\n  [Event \"B\"]\n1. d4 *"),
            "<game 0 1> [Event=A] | e4 e5 </game> <game 23 3> [Event=B] | d4 result:* </game>");
}

// Games of tags alone (broadcast pairings, forfeits, byes): a tag of the section's key
// name, Event once it holds one, else its first tag's name, begins the next game.
// All hand-made.
TEST(PgnReader, HandMadeTagOnlyGamesWithABlankLineBetweenAreTwoGames) {
  EXPECT_EQ(events_of("[Event \"Club ch\"]\n[White \"Smith, J\"]\n[Result \"1-0\"]\n\n"
                      "[Event \"Club ch\"]\n[White \"Brown, A\"]\n[Result \"0-1\"]\n\n"),
            "<game 0 1> [Event=Club ch] [White=Smith, J] [Result=1-0] | </game> "
            "<game 53 5> [Event=Club ch] [White=Brown, A] [Result=0-1] | </game>");
}

TEST(PgnReader, HandMadeTagOnlyGamesWithoutABlankLineBetweenAreTwoGames) {
  EXPECT_EQ(events_of("[Event \"A\"]\n[Result \"1-0\"]\n[Event \"B\"]\r\n[Result \"0-1\"]\r\n[Event \"C\"]"),
            "<game 0 1> [Event=A] [Result=1-0] | </game> <game 27 3> [Event=B] [Result=0-1] | </game> "
            "<game 56 5> [Event=C] | </game>");
  // On one line too.
  EXPECT_EQ(events_of("[Event \"A\"] [Event \"B\"][Event \"C\"] *"),
            "<game 0 1> [Event=A] | </game> <game 12 1> [Event=B] | </game> <game 23 1> [Event=C] | result:* </game>");
}

TEST(PgnReader, HandMadeTagOnlyGamesWithAndWithoutResultTokens) {
  EXPECT_EQ(events_of("[Event \"A\"]\n[Result \"1-0\"]\n\n1-0\n\n[Event \"B\"]\n[Result \"*\"]\n\n"
                      "[Event \"C\"]\n[Result \"0-1\"]\n\n*\n[Event \"D\"]\n"),
            "<game 0 1> [Event=A] [Result=1-0] | result:1-0 </game> <game 33 6> [Event=B] [Result=*] | </game> "
            "<game 59 9> [Event=C] [Result=0-1] | result:* </game> <game 89 13> [Event=D] | </game>");
}

TEST(PgnReader, HandMadeTagOnlyGameFollowedByAGameWithMoves) {
  EXPECT_EQ(events_of("[Event \"A\"]\n[White \"Bye\"]\n\n[Event \"B\"]\n[White \"X\"]\n\n1. e4 e5 1-0\n"),
            "<game 0 1> [Event=A] [White=Bye] | </game> <game 27 4> [Event=B] [White=X] | e4 e5 result:1-0 </game>");
}

TEST(PgnReader, HandMadeChessBaseBlankLineInsideTagOnlyGamesKeepsEachWhole) {
  // ChessBase writes a blank line after [Event] inside one tag section.
  EXPECT_EQ(events_of("[Event \"A\"]\n\n[Date \"2017.12.04\"]\n[Result \"1-0\"]\n\n"
                      "[Event \"B\"]\n\n[Date \"2017.12.05\"]\n[Result \"0-1\"]\n\n1. d4 0-1\n"),
            "<game 0 1> [Event=A] [Date=2017.12.04] [Result=1-0] | </game> "
            "<game 49 6> [Event=B] [Date=2017.12.05] [Result=0-1] | d4 result:0-1 </game>");
}

TEST(PgnReader, HandMadeSectionWithoutEventIsKeyedByItsFirstTag) {
  EXPECT_EQ(events_of("[White \"a\"]\n[Black \"b\"]\n[White \"c\"]\n[Black \"d\"]\n"),
            "<game 0 1> [White=a] [Black=b] | </game> <game 24 3> [White=c] [Black=d] | </game>");
  // Once the section holds an Event tag, Event is the key: a second Site is one game's.
  EXPECT_EQ(events_of("[Site \"a\"]\n[Event \"x\"]\n[Site \"b\"]\n[Event \"y\"]\n"),
            "<game 0 1> [Site=a] [Event=x] [Site=b] | </game> <game 34 4> [Event=y] | </game>");
}

TEST(PgnReader, HandMadeRepeatedTagOtherThanTheKeyStaysInOneGame) {
  EXPECT_EQ(events_of("[Event \"A\"]\n[Site \"x\"]\n[Site \"y\"]\n[Result \"*\"]\n[Result \"1-0\"]\n\n1. e4 1-0"),
            "<game 0 1> [Event=A] [Site=x] [Site=y] [Result=*] [Result=1-0] | e4 result:1-0 </game>");
}

TEST(PgnReader, HandMadeMalformedKeyTagBeginsTheNextGameAndFailsIt) {
  EXPECT_EQ(events_of("[Event \"A\"]\n[Result \"1-0\"]\n[Event B]\n[Result \"0-1\"]\n[Event \"C\"]\n*"),
            "<game 0 1> [Event=A] [Result=1-0] | </game> <game 27 3> </game MalformedTag line 3 '[Event B]'> "
            "<game 52 5> [Event=C] | result:* </game>");
}

TEST(PgnReader, HandMadeNestedVariationsAreReportedInOrder) {
  EXPECT_EQ(movetext_of("1. e4 (1. d4 d5 (1... Nf6 2. c4) 2. c4) (1. c4) 1... e5 *"),
            "e4 ( d4 d5 ( Nf6 c4 ) c4 ) ( c4 ) e5 result:*");
}

TEST(PgnReader, HandMadeResultInsideAVariationIsDropped) {
  EXPECT_EQ(movetext_of("1. e4 (1. f3 e5 2. g4 Qh4# 0-1) e5 1-0"), "e4 ( f3 e5 g4 Qh4# ) e5 result:1-0");
}

TEST(PgnReader, HundredThousandNestedParenthesesDoNotOverflowTheStack) {
  constexpr size_t kDepth = 100'000;
  std::string text = "1. e4 ";
  for (size_t i = 0; i < kDepth; ++i) text += "(1. d4 ";
  for (size_t i = 0; i < kDepth; ++i) text += ")";
  text += " e5 *";
  const GameCounter counter = count_games(text);
  ASSERT_EQ(counter.games.size(), 1u);
  EXPECT_FALSE(counter.games[0].failed);
  EXPECT_EQ(counter.variations, kDepth);
  EXPECT_EQ(counter.games[0].main_line_moves, 2u);

  // The same depth never closed: one error at the outermost '('.
  const GameCounter unclosed = count_games(text.substr(0, 6 + 7 * kDepth));
  ASSERT_EQ(unclosed.errors.size(), 1u);
  EXPECT_EQ(unclosed.errors[0], "UnbalancedParenthesis at line 1: (");
}

TEST(PgnReader, HandMadeBraceCommentSpansLinesAndDoesNotNest) {
  EXPECT_EQ(movetext_of("1. e4 {a {b\n[%clk 0:01]\n[Event \"x\"]} e5 {} *"),
            "e4 {a {b\n[%clk 0:01]\n[Event \"x\"]} e5 {} result:*");
}

TEST(PgnReader, HandMadeSemicolonCommentRunsToTheLineEnd) {
  EXPECT_EQ(movetext_of("1. e4 ;rest { of line\n e5 ;\n*"), "e4 {rest { of line} e5 {} result:*");
}

TEST(PgnReader, HandMadeSemicolonCommentWithBraceAfterResultBelongsToTheGame) {
  EXPECT_EQ(events_of("[E \"1\"]\n1. e4 1-0 ; { Game Nr. 1\n; GameDuration }\n[E \"2\"]\n1. d4 0-1\n\n; file end\n"),
            "<game 0 1> [E=1] | e4 result:1-0 { { Game Nr. 1} { GameDuration }} </game> "
            "<game 50 4> [E=2] | d4 result:0-1 </game>");
}

TEST(PgnReader, HandMadeCommentsBeforeTheTagsBelongToTheGame) {
  EXPECT_EQ(events_of("{ before } ; line\n[Event \"A\"]\n1. e4 *\n{only a comment}\n"),
            "<game 0 1> [Event=A] | { before } { line} e4 result:* </game>");
}

TEST(PgnReader, HandMadeTaglessGameMayStartWithAComment) {
  EXPECT_EQ(events_of("{opening} 1. e4 *"), "<game 0 1> | {opening} e4 result:* </game>");
}

TEST(PgnReader, HandMadeEnPassantMarkIsSwallowed) {
  EXPECT_EQ(movetext_of("6. exd6 e.p. Nf6 7. exd6 ep Nf6 8. exd6ep Nf6 9. exd6e.p. ep *"),
            "exd6 Nf6 exd6 Nf6 exd6 Nf6 exd6 result:*");
}

TEST(PgnReader, HandMadeDrawOfferIsAMarkNotAVariation) {
  EXPECT_EQ(movetext_of("9. h3 (=) Re8 10. Kb1(=) *"), "h3 (=) Re8 Kb1 (=) result:*");
}

TEST(PgnReader, HandMadeStandaloneAndGluedAnnotationsAreNags) {
  EXPECT_EQ(movetext_of("e4 ! e5 ? Nf3!? Nc6?! Bb5!! a6?? Qh7+! !? $14 $0 *"),
            "e4 $1 e5 $2 Nf3 $5 Nc6 $6 Bb5 $3 a6 $4 Qh7+ $1 $5 $14 $0 result:*");
}

// NOTATION.md's position assessments, as hand-annotated and ChessBase-exported files
// write them: standing alone after a move or in a variation, each one its NAG.
TEST(PgnReader, HandMadeAssessmentSymbolsStandingAloneAreNags) {
  EXPECT_EQ(movetext_of("1. e4 += e5 +/= 2. Nf3 =+ Nc6 =/+ 3. Bb5 +/- a6 -/+ 4. Ba4 +- Nf6 -+ 5. O-O = Be7 inf "
                        "6. Re1 =/inf b5 N 7. Bb3 RR d6 *"),
            "e4 $14 e5 $14 Nf3 $15 Nc6 $15 Bb5 $16 a6 $17 Ba4 $18 Nf6 $19 O-O $10 Be7 $13 Re1 $44 b5 $146 "
            "Bb3 $145 d6 result:*");
}

TEST(PgnReader, HandMadeUnicodeAssessmentSymbolsAreNags) {
  EXPECT_EQ(movetext_of("e4 \xE2\xA9\xB2 e5 \xE2\xA9\xB1 Nf3 \xC2\xB1 Nc6 \xE2\x88\x93 Bb5 +\xE2\x88\x92 "
                        "a6 \xE2\x88\x92+ Ba4 \xE2\x88\x9E Nf6 =/\xE2\x88\x9E O-O \xE2\x96\xA1 Be7 \xCE\x94 "
                        "Re1 \xE2\x88\x86 b5 \xE2\x8C\x93 Bb3 \xB1 *"),
            "e4 $14 e5 $15 Nf3 $16 Nc6 $17 Bb5 $18 a6 $19 Ba4 $13 Nf6 $44 O-O $8 Be7 $140 Re1 $140 b5 $142 "
            "Bb3 $16 result:*");
}

TEST(PgnReader, HandMadeAssessmentGluedToAMoveFollowsIt) {
  EXPECT_EQ(movetext_of("Nd5\xC2\xB1 Nf6\xE2\xA9\xB1 Qh5+- Kd7-+ Qxf7+-+ Ke8+= Qe6= e1=Q+/= Nf3!+= *"),
            "Nd5 $16 Nf6 $15 Qh5 $18 Kd7 $19 Qxf7+ $19 Ke8 $14 Qe6 $10 e1=Q $14 Nf3 $1 $14 result:*");
}

TEST(PgnReader, HandMadeAssessmentsLeaveMovesPromotionsAndResultsAlone) {
  EXPECT_EQ(movetext_of("Nf3 N Nc6 Nxe5 e8=Q e8N exd8=N+ Rxe8+ +- O-O-O -- Sg1-f3 0-0-0 N 1/2-1/2"),
            "Nf3 $146 Nc6 Nxe5 e8=Q e8N exd8=N+ Rxe8+ $18 O-O-O -- Sg1-f3 0-0-0 $146 result:1/2-1/2");
  EXPECT_EQ(movetext_of("e4 (e3 =) (d4 +=)(c4 N) e5 (=) *"), "e4 ( e3 $10 ) ( d4 $14 ) ( c4 $146 ) e5 (=) result:*");
  EXPECT_EQ(movetext_of("Qh7+ -+ 0-1"), "Qh7+ $19 result:0-1");
}

TEST(PgnReader, HandMadeUnusualMoveTokensStayWhole) {
  EXPECT_EQ(movetext_of("\xE2\x99\x98" "f3 L\xC3\x97" "e5 Td3: Dh7\xE2\x80\xA0 Dh7\xE2\x80\xA1 e8(Q) e8=Q e8/Q -- Sg1-f3 "
                        "P@e4 Z0 d7d8q *"),
            "\xE2\x99\x98" "f3 L\xC3\x97" "e5 Td3: Dh7\xE2\x80\xA0 Dh7\xE2\x80\xA1 e8(Q) e8=Q e8/Q -- Sg1-f3 P@e4 Z0 "
            "d7d8q result:*");
}

TEST(PgnReader, HandMadeBracketPromotionIsNotAVariation) {
  EXPECT_EQ(movetext_of("1. e8(Q) (1. e8(N)+) e5(e6) *"), "e8(Q) ( e8(N)+ ) e5 ( e6 ) result:*");
}

TEST(PgnReader, HandMadeMovesGluedToCommentsAndParentheses) {
  EXPECT_EQ(movetext_of("e4{x}e5(d5)Nf3;y\n*"), "e4 {x} e5 ( d5 ) Nf3 {y} result:*");
}

// ---------------------------------------------------------------------------------
// Malformed games: reported with their line, then the next game is read.

TEST(PgnReader, HandMadeUnterminatedTagIsGameError) {
  EXPECT_EQ(events_of("[Event \"A\"]\n[Site \"x\n[Round \"1\"]\n1. e4 *\n\n[Event \"B\"]\n1. d4 *"),
            "<game 0 1> [Event=A] </game UnterminatedTag line 2 '[Site \"x'> <game 42 6> [Event=B] | d4 result:* </game>");
}

TEST(PgnReader, HandMadeTagWithoutBracketIsUnterminated) {
  EXPECT_EQ(events_of("[Event \"A\"\n1. e4 *"), "<game 0 1> </game UnterminatedTag line 1 '[Event \"A\"'>");
}

TEST(PgnReader, HandMadeMalformedTagIsGameError) {
  EXPECT_EQ(events_of("[Event A]\n1. e4 *\n[Event \"B\"]\n*"),
            "<game 0 1> </game MalformedTag line 1 '[Event A]'> <game 18 3> [Event=B] | result:* </game>");
}

TEST(PgnReader, HandMadeStrayClosingParenthesisIsGameError) {
  EXPECT_EQ(events_of("[Event \"A\"]\n1. e4 e5\n2. Nf3) Nc6 *\n1. d4 *\n[Event \"B\"]\n1. c4 *"),
            "<game 0 1> [Event=A] | e4 e5 Nf3 </game UnbalancedParenthesis line 3 ')'> "
            "<game 43 5> [Event=B] | c4 result:* </game>");
}

TEST(PgnReader, HandMadeTagInsideAMovetextLineIsGameError) {
  EXPECT_EQ(events_of("1. e4 [Event \"x\"] e5 *\n[Event \"y\"]\n1. d4 *"),
            "<game 0 1> | e4 </game UnexpectedToken line 1 '[Event'> <game 23 2> [Event=y] | d4 result:* </game>");
}

TEST(PgnReader, HandMadeTagLineInsideAnOpenVariationIsGameError) {
  EXPECT_EQ(events_of("[E \"1\"]\n1. e4 (1. d4\n[E \"2\"]\n1. c4 *"),
            "<game 0 1> [E=1] | e4 ( d4 </game UnbalancedParenthesis line 2 '('> <game 21 3> [E=2] | c4 result:* </game>");
}

TEST(PgnReader, HandMadeUnterminatedCommentAtEndOfRangeIsGameError) {
  EXPECT_EQ(events_of("[E \"1\"]\n1. e4 *\n\n1. d4\n{never closed\n1-0"),
            "<game 0 1> [E=1] | e4 result:* </game> <game 17 4> | d4 </game UnterminatedComment line 5 '{never'>");
}

TEST(PgnReader, HandMadeUnknownAnnotationIsGameError) {
  EXPECT_EQ(events_of("e4 !!! *"), "<game 0 1> | e4 </game UnexpectedToken line 1 '!!!'>");
  EXPECT_EQ(events_of("e4 $ *"), "<game 0 1> | e4 </game UnexpectedToken line 1 '$'>");
  EXPECT_EQ(events_of("e4 + *"), "<game 0 1> | e4 </game UnexpectedToken line 1 '+'>");
  EXPECT_EQ(events_of("e4 =x *"), "<game 0 1> | e4 </game UnexpectedToken line 1 '=x'>");
}

TEST(PgnReader, HandMadeErrorGameTextRunsToTheResynchronisation) {
  const std::string text = "[E \"1\"]\n1. e4 )\n  \n[E \"2\"]\n*";
  ExactBuffer buffer(text);
  PgnReader reader(buffer.view());
  GameCounter counter;
  reader.read_all(counter);
  ASSERT_EQ(counter.games.size(), 2u);
  EXPECT_EQ(counter.games[0].text.text, "[E \"1\"]\n1. e4 )");
  EXPECT_EQ(counter.games[1].text.text, "[E \"2\"]\n*");
  EXPECT_EQ(counter.games[1].text.offset, 19u);
  EXPECT_EQ(counter.games[1].text.line, 4u);
}

TEST(PgnReader, DescribeHasAMessageForEveryCode) {
  for (PgnErrorCode code : {PgnErrorCode::UnterminatedTag, PgnErrorCode::MalformedTag, PgnErrorCode::UnterminatedComment,
                            PgnErrorCode::UnbalancedParenthesis, PgnErrorCode::UnexpectedToken}) {
    EXPECT_GT(std::strlen(describe(code)), 10u);
  }
}

// ---------------------------------------------------------------------------------
// Reader behaviour.

TEST(PgnReader, HandMadeEndTagsFalseSkipsMovetextButFindsTheGameEnd) {
  ExactBuffer buffer("[E \"1\"]\n1. e4 {1-0 [E \"x\"]} (1. d4 *) ; 0-1\n e5 1/2-1/2\n[E \"2\"]\n1. ) *\n[E \"3\"]\n*");
  PgnReader reader(buffer.view());
  EventLog log;
  log.skip_movetext = true;
  reader.read_all(log);
  EXPECT_EQ(log.joined(),
            "<game 0 1> [E=1] | </game> <game 56 4> [E=2] | </game UnbalancedParenthesis line 5 ')'> "
            "<game 71 6> [E=3] | </game>");
}

TEST(PgnReader, HandMadeGameTextSpansFirstTagToResult) {
  const std::string text = "\n\n[E \"1\"]\n1. e4 1-0 {after}\n\n[E \"2\"]\n1. d4\n\n";
  ExactBuffer buffer(text);
  PgnReader reader(buffer.view());
  GameCounter counter;
  reader.read_all(counter);
  ASSERT_EQ(counter.games.size(), 2u);
  EXPECT_EQ(counter.games[0].text.text, "[E \"1\"]\n1. e4 1-0");
  EXPECT_EQ(counter.games[0].text.offset, 2u);
  EXPECT_EQ(counter.games[0].text.line, 3u);
  // A brace comment after the result opens the next game, as a comment before its tags.
  EXPECT_EQ(counter.games[1].text.text, "{after}\n\n[E \"2\"]\n1. d4");
  EXPECT_EQ(counter.games[1].text.line, 4u);
}

TEST(PgnReader, HandMadeBaseOffsetAndFirstLineAreAddedToPositions) {
  ExactBuffer buffer("\n[E \"1\"]\n1. e4 )\n");
  PgnReader reader(buffer.view(), 1000, 50);
  EventLog log;
  reader.read_all(log);
  EXPECT_EQ(log.joined(), "<game 1001 51> [E=1] | e4 </game UnbalancedParenthesis line 52 ')'>");
}

// A multi-GB archive passes line 2^32: positions are 64-bit and do not wrap to line 1.
TEST(PgnReader, LineNumbersPastThirtyTwoBitsDoNotWrap) {
  ExactBuffer buffer("\n[E \"1\"]\n1. e4 )\n\n[E \"2\"]\n*\n");
  const uint64_t first_line = (uint64_t{1} << 32) - 1;
  PgnReader reader(buffer.view(), 0, first_line);
  EventLog log;
  reader.read_all(log);
  EXPECT_EQ(log.joined(), "<game 1 4294967296> [E=1] | e4 </game UnbalancedParenthesis line 4294967297 ')'> "
                          "<game 18 4294967299> [E=2] | result:* </game>");
  PgnReader again(buffer.view(), 0, first_line);
  GameCounter counter;
  again.read_all(counter);
  ASSERT_EQ(counter.games.size(), 2u);
  EXPECT_EQ(counter.games[1].text.line, uint64_t{4294967299});
}

TEST(PgnReader, ReadGameReturnsFalseWhenNoGameIsLeft) {
  ExactBuffer buffer("1. e4 *\n\n1. d4 *\n\n");
  PgnReader reader(buffer.view());
  PgnVisitorBase ignore;
  EXPECT_TRUE(reader.read_game(ignore));
  EXPECT_TRUE(reader.read_game(ignore));
  EXPECT_FALSE(reader.read_game(ignore));
  EXPECT_FALSE(reader.read_game(ignore));
  EXPECT_EQ(reader.position(), buffer.view().size());
}

// Every prefix and suffix of an input full of edge cases, each in an exactly-sized
// buffer: ASan catches any read outside the range, and a game always makes progress.
TEST(PgnReader, HandMadeNeverReadsPastTheRangeAtAnyCut) {
  const std::string text =
      "\xEF\xBB\xBF[Event \"a \\\"b\\\"\"]\r\n[White \"\"M\"\"]\n%esc\n{pre}\n[Site \"x\"]\n"
      "1.e4 e5 2. Nf3!? (2. f4 $1 (2... exf4 e.p.)) 2... Nc6 (=) 3. e8(Q)+ 12\xE2\x80\xA6Sf6 0-0-0 {c\n[%clk]} ; s\r"
      "exd6ep \xE2\x99\x98" "f3 \xC2\xBD-\xC2\xBD ; {x\n[E \"2\"] e4 ) [ $ !!! 1/2-1/2\n(1. d4 (\n[E \"3\"]\n{open";
  for (size_t cut = 0; cut <= text.size(); ++cut) {
    for (std::string_view part : {std::string_view(text).substr(0, cut), std::string_view(text).substr(cut)}) {
      ExactBuffer buffer(part);
      PgnReader reader(buffer.view());
      GameCounter counter;
      size_t games = 0;
      while (reader.read_game(counter)) ASSERT_LE(++games, part.size()) << "no progress at cut " << cut;
      EXPECT_EQ(reader.position(), part.size());
    }
  }
}

// Reads text whole and then each game's own text (at its offset and line): both
// must give the same callbacks. Returns the whole read's events.
std::vector<std::string> expect_split_reads_alike(std::string_view text, const std::string& what) {
  ExactBuffer whole(text);
  struct Splitter : EventLog {
    std::vector<GameText> texts;
    void end_game(const GameText& game, const PgnError* error) {
      EventLog::end_game(game, error);
      texts.push_back(game);
    }
  } split;
  PgnReader(whole.view()).read_all(split);

  EventLog rejoined;
  for (const GameText& game : split.texts) {
    EXPECT_GE(game.text.data(), whole.view().data()) << what;
    EXPECT_LE(game.text.data() + game.text.size(), whole.view().data() + whole.view().size()) << what;
    ExactBuffer part(game.text);
    PgnReader(part.view(), game.offset, game.line).read_all(rejoined);
  }
  EXPECT_EQ(rejoined.events, split.events) << what;
  return split.events;
}

// Random soups of PGN pieces, good and broken: no read outside the range, and every
// game's text reads alone as it did in place.
TEST(PgnReader, HandMadeTokenSoupsReadAloneAsInPlace) {
  const std::vector<std::string> pieces = {
      "[Event \"x\"]\n", "[A \"\"q\"\"]", "[B \"a\\\"b\"]\r\n", "1.", "12...", "e4", "Nf3!?", "exd6", "e.p.",
      "e8(Q)", "0-0", "--", "{c}", "{", "}", "(", ")", "(=)", ";c\n", "\n", "\r\n", "\r", " ", " ", " ", "$5",
      "!", "?!", "1-0", "0-1", "1/2-1/2", "*", "\xC2\xBD-\xC2\xBD", "\xE2\x80\xA6", "\n%x\n", "\xEF\xBB\xBF",
      "\"", "\\", "[", "]", "[%clk]", "\xE2\x99\x98" "f3", "\xFF", "+=", "-+", "=", "N", "\xC2\xB1", "\xB1"};
  uint32_t seed = 12345;
  auto next_random = [&seed] {
    seed = seed * 1103515245u + 12345u;
    return seed >> 16;
  };
  for (int round = 0; round < 3000; ++round) {
    std::string text;
    const uint32_t count = 1 + next_random() % 40;
    for (uint32_t i = 0; i < count; ++i) text += pieces[next_random() % pieces.size()];
    expect_split_reads_alike(text, "soup " + std::to_string(round));
    if (HasFailure()) break;
  }
}

// ---------------------------------------------------------------------------------
// Real files from shared/data.

struct ManifestRow {
  std::string path;
  long pgn_extract_games;
  long chessops_games;
};

std::vector<ManifestRow> plain_pgn_manifest_rows() {
  std::istringstream manifest(test::read_file(test::shared_data("MANIFEST.tsv")));
  std::vector<ManifestRow> rows;
  for (std::string line; std::getline(manifest, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> fields;
    std::istringstream cells(line);
    for (std::string cell; std::getline(cells, cell, '\t');) fields.push_back(cell);
    if (fields.size() < 8 || !fields[0].ends_with(".pgn")) continue;
    rows.push_back({fields[0], std::stol(fields[5]), std::stol(fields[7])});
  }
  return rows;
}

TEST(PgnReader, ManifestGameCountsMatchWherePeersAgree) {
  PGNBASE_REQUIRE_SHARED("MANIFEST.tsv");
  const std::vector<ManifestRow> rows = plain_pgn_manifest_rows();
  size_t checked = 0;
  for (const ManifestRow& row : rows) {
    if (row.pgn_extract_games != row.chessops_games) continue;
    const GameCounter counter = count_file(row.path);
    EXPECT_EQ(static_cast<long>(counter.games.size()), row.pgn_extract_games) << row.path;
    ++checked;
  }
  EXPECT_GE(checked, 35u);
}

// Where pgn-extract and chessops disagree, the count a PGN reader should give and why.
TEST(PgnReader, ManifestDisagreementsResolved) {
  PGNBASE_REQUIRE_SHARED("nasty", "eco/pgn-extract-eco.pgn");
  const std::map<std::string, size_t> expected = {
      // Files holding the annotated Barnes-Horton game: chessops counts one game more
      // than there are tag sections; pgn-extract agrees with the tag sections.
      {"nasty/pgn-extract-tests/barnes-horton.pgn", 1},
      {"nasty/pgn-extract-tests/test-C.pgn", 1},
      {"nasty/pgn-extract-tests/test-F-text.pgn", 1},
      {"nasty/pgn-extract-tests/test-Ta.pgn", 1},
      {"nasty/pgn-extract-tests/test-checkmate.pgn", 2},
      {"nasty/pgn-extract-tests/test-nochecks.pgn", 2},
      {"nasty/pgn-extract-tests/test-stalemate.pgn", 3},
      // Tagless games, one per result (pgn-extract).
      {"nasty/pgn-extract-tests/test-fuzzydepth.pgn", 4},
      {"nasty/pgn-extract-tests/test-nobadresults.pgn", 9},
      {"eco/pgn-extract-eco.pgn", 2014},
      // Comments do not nest: the text after the first '}' is garbage, one bad game.
      {"nasty/pgn-extract-tests/nested-comment.pgn", 1},
      // Crazyhouse drops are move tokens (P@e4): one game each (chessops).
      {"nasty/python-chess/knightvuillaume-jannlee-zh-lichess.pgn", 1},
      {"nasty/python-chess/saturs-jannlee-zh-lichess.pgn", 1},
      // Latin-1 bytes are plain bytes: one game (pgn-extract).
      {"nasty/scid-gtest/res_gameLatin1.pgn", 1},
  };
  for (const auto& [path, games] : expected) {
    EXPECT_EQ(count_file(path).games.size(), games) << path;
  }
}

TEST(PgnReader, FischerAndPetrosianCollectionsHave34And35Games) {
  PGNBASE_REQUIRE_SHARED("nasty/pgn-extract-tests/fischer.pgn", "nasty/pgn-extract-tests/petrosian.pgn");
  const GameCounter fischer = count_file("nasty/pgn-extract-tests/fischer.pgn");
  const GameCounter petrosian = count_file("nasty/pgn-extract-tests/petrosian.pgn");
  EXPECT_EQ(fischer.games.size(), 34u);
  EXPECT_EQ(petrosian.games.size(), 35u);
  EXPECT_TRUE(fischer.errors.empty());
  EXPECT_TRUE(petrosian.errors.empty());
}

TEST(PgnReader, TcecFilesHaveTheirGameCountsWithoutErrors) {
  PGNBASE_REQUIRE_SHARED("nasty/tcec");
  const std::map<std::string, size_t> expected = {
      {"TCEC_Match_1.pgn", 48},
      {"TCEC_Match_4.pgn", 32},
      {"TCEC_Season_16_-_Frc_Sufi.pgn", 20},
      {"TCEC_Season_22_-_Dfrc_Unbust_Bonus.pgn", 10},
      {"TCEC_Season_26_-_Frc_No_Castling_Kibitzer_Bonus.pgn", 24},
      {"tcec-semicolon-comment-after-result.pgn", 6},
      {"tcec-semicolon-comments.pgn", 10},
  };
  for (const auto& [file, games] : expected) {
    const GameCounter counter = count_file("nasty/tcec/" + file);
    EXPECT_EQ(counter.games.size(), games) << file;
    EXPECT_TRUE(counter.errors.empty()) << file << ": " << (counter.errors.empty() ? "" : counter.errors[0]);
  }
}

TEST(PgnReader, TcecSemicolonCommentAfterResultDoesNotOpenABraceComment) {
  PGNBASE_REQUIRE_SHARED("nasty/tcec/tcec-semicolon-comment-after-result.pgn");
  ExactBuffer buffer(test::read_file(test::shared_data("nasty/tcec/tcec-semicolon-comment-after-result.pgn")));
  PgnReader reader(buffer.view());
  GameCounter counter;
  reader.read_all(counter);
  ASSERT_EQ(counter.games.size(), 6u);
  EXPECT_TRUE(counter.errors.empty());
  for (const GameCounter::Game& game : counter.games) {
    EXPECT_GT(game.main_line_moves, 20u);
    EXPECT_TRUE(game.text.text.starts_with("[Event \"TCEC Season"));
  }
}

TEST(PgnReader, Utf8BomFileHasTwoGames) {
  PGNBASE_REQUIRE_SHARED("nasty/python-chess/utf8-bom.pgn");
  const GameCounter counter = count_file("nasty/python-chess/utf8-bom.pgn");
  ASSERT_EQ(counter.games.size(), 2u);
  EXPECT_EQ(counter.games[0].text.offset, 3u);
  EXPECT_TRUE(counter.errors.empty());
}

TEST(PgnReader, ScidLatin1AndUtf8FilesReadAlike) {
  PGNBASE_REQUIRE_SHARED("nasty/scid-gtest/res_gameLatin1.pgn", "nasty/scid-gtest/res_gameUTF8.pgn");
  const GameCounter latin1 = count_file("nasty/scid-gtest/res_gameLatin1.pgn");
  const GameCounter utf8 = count_file("nasty/scid-gtest/res_gameUTF8.pgn");
  ASSERT_EQ(latin1.games.size(), 1u);
  ASSERT_EQ(utf8.games.size(), 1u);
  EXPECT_TRUE(latin1.errors.empty());
  EXPECT_TRUE(utf8.errors.empty());
  EXPECT_EQ(latin1.games[0].main_line_moves, utf8.games[0].main_line_moves);
  EXPECT_EQ(latin1.variations, utf8.variations);
  EXPECT_EQ(latin1.nags, utf8.nags);
  EXPECT_EQ(latin1.comments, utf8.comments);
  EXPECT_GT(latin1.variations, 40u);
}

TEST(PgnReader, NotationFilesHaveTheEnglishGamesMoveForMove) {
  PGNBASE_REQUIRE_SHARED("notation");
  const GameCounter english = count_file("notation/fischer-petrosian-en.pgn");
  ASSERT_EQ(english.games.size(), 69u);
  EXPECT_TRUE(english.errors.empty());
  for (const char* form : {"de-long", "de-short", "fide-draw-offer", "figurine", "fr-short", "nl-short"}) {
    const GameCounter counter = count_file(std::string("notation/fischer-petrosian-") + form + ".pgn");
    ASSERT_EQ(counter.games.size(), 69u) << form;
    EXPECT_TRUE(counter.errors.empty()) << form << ": " << (counter.errors.empty() ? "" : counter.errors[0]);
    EXPECT_EQ(counter.variations, 0u) << form;
    for (size_t i = 0; i < 69; ++i) {
      EXPECT_EQ(counter.games[i].main_line_moves, english.games[i].main_line_moves) << form << " game " << i + 1;
    }
  }
}

TEST(PgnReader, FideDrawOfferFileCallsDrawOfferAndOpensNoVariation) {
  PGNBASE_REQUIRE_SHARED("notation/fischer-petrosian-fide-draw-offer.pgn");
  const std::string text = test::read_file(test::shared_data("notation/fischer-petrosian-fide-draw-offer.pgn"));
  size_t marks = 0;
  for (size_t at = text.find("(=)"); at != std::string::npos; at = text.find("(=)", at + 1)) ++marks;
  const GameCounter counter = count_games(text);
  EXPECT_GT(marks, 0u);
  EXPECT_EQ(counter.draw_offers, marks);
  EXPECT_EQ(counter.variations, 0u);
}

// Reading each game's own text (at its offset and line) repeats the file's callbacks.
TEST(PgnReader, ReadingTheFileSplitIntoGamesGivesTheSameTokens) {
  PGNBASE_REQUIRE_SHARED("MANIFEST.tsv");
  const std::vector<ManifestRow> rows = plain_pgn_manifest_rows();
  ASSERT_GT(rows.size(), 40u);
  for (const ManifestRow& row : rows) {
    const std::string text = test::read_file(test::shared_data(row.path));
    const std::vector<std::string> events = expect_split_reads_alike(text, row.path);
    EXPECT_FALSE(events.empty()) << row.path;
  }
}

// Throughput: zstd -dc shared/data/bench/tcec-seasons-01-15.pgn.zst > /tmp/tcec.pgn, then
// run with --gtest_also_run_disabled_tests (PGNBASE_BENCH_PGN picks another file).
TEST(PgnReader, DISABLED_ThroughputOnABigFile) {
  const char* path = std::getenv("PGNBASE_BENCH_PGN");
  const std::string text = test::read_file(path ? path : "/tmp/tcec.pgn");
  ASSERT_FALSE(text.empty());
  struct Tally : PgnVisitorBase {
    size_t games = 0, moves = 0, comments = 0, errors = 0;
    void move(std::string_view) { ++moves; }
    void comment(std::string_view) { ++comments; }
    void end_game(const GameText&, const PgnError* error) {
      ++games;
      errors += error != nullptr;
    }
  };
  for (bool skip : {false, true}) {
    struct Counting : Tally {
      bool skip = false;
      bool end_tags() { return !skip; }
    } tally;
    tally.skip = skip;
    const auto start = std::chrono::steady_clock::now();
    PgnReader(text).read_all(tally);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%s: %zu games, %zu moves, %zu comments, %zu errors, %.3f s, %.0f MB/s\n",
                skip ? "skip movetext" : "full", tally.games, tally.moves, tally.comments, tally.errors, seconds,
                static_cast<double>(text.size()) / seconds / 1e6);
  }
}

}  // namespace
}  // namespace pgnbase
