// FEN: each malformed field is rejected with its field named; canonical FENs, X-FEN and
// Shredder-FEN survive a parse/write round trip.
#include "core/fen.h"

#include <gtest/gtest.h>

#include <ostream>
#include <string>

#include "tests/core/core_test_support.h"

namespace pgnbase {
namespace {

using test_support::fen_error;
using test_support::read_perft_file;
using test_support::test_data_path;

struct BadFen {
  const char* name;
  const char* fen;
  FenField field;
  const char* value;   // the field's text, quoted by the message ("" for Position errors)
  const char* reason;  // a fragment of the message
};

const BadFen kBadFens[] = {
    // Piece placement.
    {"BadPieceLetter", "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", FenField::Placement,
     "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "bad piece letter 'x'"},
    {"DigitNineIsNoPiece", "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", FenField::Placement,
     "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR", "'9'"},
    {"RankOfSevenSquares", "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", FenField::Placement,
     "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "rank 7 does not sum to 8 squares"},
    {"RankOfNineSquares", "rnbqkbnr/pppppppp1/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", FenField::Placement,
     "rnbqkbnr/pppppppp1/8/8/8/8/PPPPPPPP/RNBQKBNR", "rank 7 has more than 8 squares"},
    {"PieceBeyondTheHFile", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1", FenField::Placement,
     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR", "rank 1 has more than 8 squares"},
    {"LastRankShort", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w Qkq - 0 1", FenField::Placement,
     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN", "rank 1 does not sum to 8 squares"},
    {"SevenRanks", "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", FenField::Placement,
     "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR", "fewer than 8 ranks"},
    {"NineRanks", "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", FenField::Placement,
     "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR", "more than 8 ranks"},
    {"WhiteKingMissing", "4k3/8/8/8/8/8/8/8 w - - 0 1", FenField::Placement, "4k3/8/8/8/8/8/8/8",
     "white king missing"},
    {"BlackKingMissing", "8/8/8/8/8/8/8/4K3 w - - 0 1", FenField::Placement, "8/8/8/8/8/8/8/4K3",
     "black king missing"},
    {"TwoWhiteKings", "4k3/8/8/8/8/8/8/3KK3 w - - 0 1", FenField::Placement, "4k3/8/8/8/8/8/8/3KK3",
     "white has more than one king"},
    {"WhitePawnOnEighthRank", "P3k3/8/8/8/8/8/8/4K3 w - - 0 1", FenField::Placement, "P3k3/8/8/8/8/8/8/4K3",
     "pawns on the first or eighth rank"},
    {"BlackPawnOnFirstRank", "4k3/8/8/8/8/8/8/p3K3 w - - 0 1", FenField::Placement, "4k3/8/8/8/8/8/8/p3K3",
     "pawns on the first or eighth rank"},
    // Side to move.
    {"SideToMoveUpperCase", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR W KQkq - 0 1", FenField::SideToMove,
     "W", "must be 'w' or 'b'"},
    {"SideToMoveWord", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR white KQkq - 0 1", FenField::SideToMove,
     "white", "must be 'w' or 'b'"},
    {"SideToMoveDash", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR - KQkq - 0 1", FenField::SideToMove, "-",
     "must be 'w' or 'b'"},
    // Castling.
    {"CastlingUnknownLetter", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1", FenField::Castling,
     "KQkx", "unknown letter 'x'"},
    {"CastlingDashAmongLetters", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w K-kq - 0 1", FenField::Castling,
     "K-kq", "unknown letter '-'"},
    {"CastlingRightTwice", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKkq - 0 1", FenField::Castling,
     "KKkq", "given twice"},
    {"CastlingRightTwiceInTwoStyles", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KHkq - 0 1",
     FenField::Castling, "KHkq", "given twice"},
    {"CastlingWithoutRook", "rnbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", FenField::Castling,
     "KQkq", "no white king and rook on the back rank for 'K'"},
    {"CastlingWithKingOffTheBackRank", "rnbqkbnr/pppppppp/8/8/8/4K3/PPPPPPPP/RNBQ1BNR w KQkq - 0 1",
     FenField::Castling, "KQkq", "no white king and rook"},
    {"CastlingFileWithoutRook", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqC - 0 1",
     FenField::Castling, "KQkqC", "'C'"},
    // En passant.
    {"EnPassantNotASquare", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e9 0 1", FenField::EnPassant,
     "e9", "not a square"},
    {"EnPassantFileOnly", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e 0 1", FenField::EnPassant, "e",
     "not a square"},
    {"EnPassantUpperCase", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq E3 0 1", FenField::EnPassant,
     "E3", "not a square"},
    {"EnPassantTooLong", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e33 0 1", FenField::EnPassant,
     "e33", "not a square"},
    {"EnPassantWrongRankForSide", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 1",
     FenField::EnPassant, "e3", "must be on rank 6 when white is to move"},
    {"EnPassantWithoutPushedPawn", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1",
     FenField::EnPassant, "e3", "no pawn can just have moved two squares past it"},
    // Counters.
    {"HalfmoveNotANumber", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", FenField::HalfmoveClock,
     "x", "not a non-negative number"},
    {"HalfmoveNegative", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1", FenField::HalfmoveClock,
     "-1", "not a non-negative number"},
    {"HalfmoveFraction", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 1.5 1", FenField::HalfmoveClock,
     "1.5", "not a non-negative number"},
    {"FullmoveNotANumber", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 one", FenField::FullmoveNumber,
     "one", "not a non-negative number"},
    {"FullmoveTrailingGarbage", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1a",
     FenField::FullmoveNumber, "1a", "not a non-negative number"},
    // Counter limits (core/board.h): 16 bits of halfmove clock, 31 of fullmove number.
    {"HalfmoveBeyondSixteenBits", "4k3/8/8/8/8/8/8/4K3 w - - 65536 1", FenField::HalfmoveClock, "65536",
     "larger than 65535"},
    {"FullmoveBeyondThirtyOneBits", "4k3/8/8/8/8/8/8/4K3 w - - 0 2147483648", FenField::FullmoveNumber,
     "2147483648", "larger than 2147483647"},
    {"FullmoveBeyondSixtyFourBits", "4k3/8/8/8/8/8/8/4K3 w - - 0 99999999999999999999999",
     FenField::FullmoveNumber, "99999999999999999999999", "larger than 2147483647"},
    // The whole position.
    {"SideNotToMoveInCheck", "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", FenField::Position, "",
     "the side not to move (black) is in check"},
    {"ThreeFields", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", FenField::Position, "",
     "has 3 fields; expected 4 to 6"},
    {"SevenFields", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 x", FenField::Position, "",
     "has 7 fields; expected 4 to 6"},
    {"Empty", "", FenField::Position, "", "has 0 fields"},
};

// Names the case in failure messages instead of dumping the struct's bytes.
void PrintTo(const BadFen& bad, std::ostream* os) { *os << bad.name << " '" << bad.fen << "'"; }

class BadFenTest : public ::testing::TestWithParam<BadFen> {};

TEST_P(BadFenTest, IsRejectedNamingTheField) {
  const BadFen& bad = GetParam();
  const Parsed<Board> parsed = parse_fen(bad.fen);
  ASSERT_FALSE(parsed) << bad.fen;
  const std::string& message = parsed.error();
  EXPECT_NE(message.find(bad.reason), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << "messages are one line";
  if (bad.field != FenField::Position) {
    // "<field name> field '<value>': <why>"
    const std::string prefix = std::string(field_name(bad.field)) + " field '" + bad.value + "': ";
    EXPECT_EQ(message.substr(0, prefix.size()), prefix) << message;
  }
}

INSTANTIATE_TEST_SUITE_P(Fen, BadFenTest, ::testing::ValuesIn(kBadFens),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(Fen, FieldNamesAreDistinct) {
  const FenField fields[] = {FenField::Placement,     FenField::SideToMove,     FenField::Castling,
                             FenField::EnPassant,     FenField::HalfmoveClock,  FenField::FullmoveNumber,
                             FenField::Position};
  for (FenField a : fields)
    for (FenField b : fields)
      if (a != b) {
        EXPECT_STRNE(field_name(a), field_name(b));
      }
}

TEST(Fen, FourFieldsDefaultTheCountersToZeroAndOne) {
  Board board;
  ASSERT_EQ(fen_error("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3", board), "");
  EXPECT_EQ(board.halfmove_clock(), 0);
  EXPECT_EQ(board.fullmove_number(), 1);
  EXPECT_EQ(write_fen(board), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
}

TEST(Fen, FiveFieldsDefaultTheFullmoveNumberToOne) {
  Board board;
  ASSERT_EQ(fen_error("4k3/8/8/8/8/8/8/4K3 w - - 37", board), "");
  EXPECT_EQ(write_fen(board), "4k3/8/8/8/8/8/8/4K3 w - - 37 1");
}

// The largest fullmove number a FEN may hold, then a Black move: the count goes on in
// 64 bits (it overflowed a 32-bit int, undefined behaviour that UBSan stops at).
TEST(MoveCounters, FullmoveNumberAtItsLimitCountsOnPastThirtyOneBits) {
  Board board;
  ASSERT_EQ(fen_error("4k3/8/8/8/8/8/8/4K3 b - - 0 2147483647", board), "");
  const Move move = Move::make(SQ_E8, SQ_D8);
  UndoInfo undo;
  board.do_move(move, undo);
  EXPECT_EQ(board.fullmove_number(), int64_t{2147483648});
  EXPECT_EQ(write_fen(board), "3k4/8/8/8/8/8/8/4K3 w - - 1 2147483648");
  board.undo_move(move, undo);
  EXPECT_EQ(write_fen(board), "4k3/8/8/8/8/8/8/4K3 b - - 0 2147483647");
  UndoInfo null_undo;
  board.do_null_move(null_undo);
  EXPECT_EQ(board.fullmove_number(), int64_t{2147483648});
  board.undo_null_move(null_undo);
  EXPECT_EQ(board.fullmove_number(), int64_t{2147483647});
}

// The halfmove clock is 16 bits: it stops at 65535 instead of wrapping to 0, and
// undoing a move still restores the value before it.
TEST(MoveCounters, HalfmoveClockStopsAtItsLimit) {
  Board board;
  ASSERT_EQ(fen_error("4k3/8/8/8/8/8/8/4K3 w - - 65534 9", board), "");
  UndoInfo first, second, third;
  board.do_move(Move::make(SQ_E1, SQ_D1), first);
  EXPECT_EQ(board.halfmove_clock(), 65535);
  board.do_move(Move::make(SQ_E8, SQ_D8), second);
  EXPECT_EQ(board.halfmove_clock(), 65535);
  board.do_null_move(third);
  EXPECT_EQ(board.halfmove_clock(), 65535);
  board.undo_null_move(third);
  board.undo_move(Move::make(SQ_E8, SQ_D8), second);
  EXPECT_EQ(board.halfmove_clock(), 65535);
  board.undo_move(Move::make(SQ_E1, SQ_D1), first);
  EXPECT_EQ(write_fen(board), "4k3/8/8/8/8/8/8/4K3 w - - 65534 9");
}

TEST(Fen, ExtraWhitespaceBetweenFieldsIsAccepted) {
  Board board;
  ASSERT_EQ(fen_error("  4k3/8/8/8/8/8/8/4K3 \t b  -  -  3   40 ", board), "");
  EXPECT_EQ(write_fen(board), "4k3/8/8/8/8/8/8/4K3 b - - 3 40");
}

TEST(Fen, StartFenEqualsTheDefaultBoard) {
  Board parsed;
  ASSERT_EQ(fen_error(kStartFen, parsed), "");
  const Board start;
  EXPECT_EQ(write_fen(start), kStartFen);
  EXPECT_EQ(parsed.key(), start.key());
  EXPECT_FALSE(parsed.chess960());
}

TEST(Fen, EnPassantSquareIsKeptWhenNoPawnCanCapture) {
  // FEN writes the square after every double step; Polyglot hashing ignores it here.
  Board with_ep, without_ep;
  ASSERT_EQ(fen_error("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", with_ep), "");
  ASSERT_EQ(fen_error("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", without_ep), "");
  EXPECT_EQ(with_ep.en_passant(), SQ_E3);
  EXPECT_EQ(with_ep.key(), without_ep.key());
}

TEST(Fen, CastlingLettersInAnyOrderAreWrittenCanonically) {
  Board board;
  ASSERT_EQ(fen_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w qkQK - 0 1", board), "");
  EXPECT_EQ(write_fen(board), kStartFen);
}

// Every position of the perft suites, completed with "0 1", is a canonical FEN.
void expect_round_trips(const std::string& file, CastlingStyle style) {
  const auto cases = read_perft_file(test_data_path(file));
  ASSERT_FALSE(cases.empty()) << file;
  for (const auto& c : cases) {
    const std::string fen = c.fen + " 0 1";
    Board board;
    ASSERT_EQ(fen_error(fen, board), "") << c.id;
    EXPECT_EQ(write_fen(board, style), fen) << c.id;
    EXPECT_EQ(board.key(), board.compute_key()) << c.id;
  }
}

TEST(FenRoundTrip, TrickyPerftPositions) {
  expect_round_trips("perft/python-chess-tricky.perft", CastlingStyle::Auto);
}

TEST(FenRoundTrip, RandomPerftPositions) {
  expect_round_trips("perft/python-chess-random.perft", CastlingStyle::Auto);
}

TEST(FenRoundTrip, Chess960PerftPositionsInShredderFen) {
  expect_round_trips("perft/python-chess-chess960.perft", CastlingStyle::Shredder);
}

// Shredder-FEN -> X-FEN -> Shredder-FEN gives back the text and the same position.
TEST(FenRoundTrip, Chess960PerftPositionsThroughXFen) {
  const auto cases = read_perft_file(test_data_path("perft/python-chess-chess960.perft"));
  ASSERT_EQ(cases.size(), 960u);
  for (const auto& c : cases) {
    const std::string shredder = c.fen + " 0 1";
    Board from_shredder, from_xfen;
    ASSERT_EQ(fen_error(shredder, from_shredder), "") << c.id;
    // File letters mark the position as Chess960; "-" leaves nothing to tell.
    EXPECT_EQ(from_shredder.chess960(), from_shredder.castling_rights() != NO_CASTLING) << c.id;
    const std::string xfen = write_fen(from_shredder, CastlingStyle::XFen);
    ASSERT_EQ(fen_error(xfen, from_xfen, true), "") << c.id << " " << xfen;
    EXPECT_EQ(write_fen(from_xfen, CastlingStyle::Shredder), shredder) << c.id << " " << xfen;
    EXPECT_EQ(from_xfen.key(), from_shredder.key()) << c.id;
    for (CastlingRight cr : {WHITE_OO, WHITE_OOO, BLACK_OO, BLACK_OOO})
      EXPECT_EQ(from_xfen.castling_rook(cr), from_shredder.castling_rook(cr)) << c.id << " " << xfen;
  }
}

TEST(FenChess960, ShredderStartPositionIsHAha) {
  Board board;
  ASSERT_EQ(fen_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", board), "");
  EXPECT_TRUE(board.chess960()) << "file letters mark a Chess960 castling field";
  EXPECT_EQ(board.castling_rights(), ALL_CASTLING);
  EXPECT_EQ(board.castling_rook(WHITE_OO), SQ_H1);
  EXPECT_EQ(board.castling_rook(BLACK_OOO), SQ_A8);
  EXPECT_EQ(write_fen(board, CastlingStyle::Shredder), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
  EXPECT_EQ(write_fen(board, CastlingStyle::XFen), kStartFen);
  EXPECT_EQ(board.key(), Board().key()) << "Polyglot keys do not depend on the castling notation";
}

TEST(FenChess960, ForcedFlagMarksAStandardFenAsChess960) {
  Board board;
  ASSERT_EQ(fen_error(kStartFen, board, true), "");
  EXPECT_TRUE(board.chess960());
}

TEST(FenChess960, XFenInnerRookIsWrittenWithItsFileLetter) {
  // Rooks on a1 and b1: castling long with the b1 rook needs its file, since plain Q
  // would mean the outermost rook (a1).
  const std::string xfen = "rr2k2r/8/8/8/8/8/8/RR2K2R w KBkb - 0 1";
  Board board;
  ASSERT_EQ(fen_error(xfen, board), "");
  EXPECT_TRUE(board.chess960());
  EXPECT_EQ(board.castling_rook(WHITE_OOO), SQ_B1);
  EXPECT_EQ(board.castling_rook(BLACK_OOO), SQ_B8);
  EXPECT_EQ(board.castling_rook(WHITE_OO), SQ_H1);
  EXPECT_EQ(write_fen(board, CastlingStyle::XFen), xfen);
  EXPECT_EQ(write_fen(board, CastlingStyle::Auto), xfen);
  EXPECT_EQ(write_fen(board, CastlingStyle::Shredder), "rr2k2r/8/8/8/8/8/8/RR2K2R w HBhb - 0 1");

  Board from_shredder;
  ASSERT_EQ(fen_error("rr2k2r/8/8/8/8/8/8/RR2K2R w HBhb - 0 1", from_shredder), "");
  EXPECT_EQ(write_fen(from_shredder, CastlingStyle::XFen), xfen);
}

TEST(FenChess960, XFenQueenSideLetterMeansTheOutermostRook) {
  Board board;
  ASSERT_EQ(fen_error("rr2k2r/8/8/8/8/8/8/RR2K2R w KQkq - 0 1", board), "");
  EXPECT_EQ(board.castling_rook(WHITE_OOO), SQ_A1);
  EXPECT_EQ(board.castling_rook(BLACK_OOO), SQ_A8);
  EXPECT_FALSE(board.chess960()) << "king on e and outermost rooks on a and h: standard castling";
  EXPECT_EQ(write_fen(board, CastlingStyle::Shredder), "rr2k2r/8/8/8/8/8/8/RR2K2R w HAha - 0 1");
}

TEST(FenChess960, XFenKingOffTheEFileIsChess960) {
  // python-chess-tricky xfen-00: king on c1, K means the e1 rook, Q the a1 rook.
  const std::string xfen = "r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1";
  Board board;
  ASSERT_EQ(fen_error(xfen, board), "");
  EXPECT_TRUE(board.chess960());
  EXPECT_EQ(board.castling_rook(WHITE_OO), SQ_E1);
  EXPECT_EQ(board.castling_rook(WHITE_OOO), SQ_A1);
  EXPECT_EQ(write_fen(board, CastlingStyle::XFen), xfen);
  EXPECT_EQ(write_fen(board, CastlingStyle::Shredder), "r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w EAea - 0 1");
}

}  // namespace
}  // namespace pgnbase
