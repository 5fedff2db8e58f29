// MoveCode: the DESIGN.md bit layout, and encode -> decode identity for every legal move
// of every perft-suite position and of random standard and Chess960 games.
#include "core/move_code.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "core/fen.h"
#include "tests/core/core_test_support.h"

namespace pgnbase {
namespace {

using test_support::code_of;
using test_support::fen_error;
using test_support::read_perft_file;
using test_support::test_data_path;

// Encodes an engine move after checking that the generator produces it.
MoveCode encode_legal(const Board& board, Move m) {
  MoveList list;
  generate_legal_moves(board, list);
  EXPECT_TRUE(list.contains(m)) << "move not generated in " << write_fen(board);
  return encode_move(board, m);
}

Move castle(Square king, Square rook) { return Move::make(king, rook, MoveKind::CASTLING); }
Move promote(Square from, Square to, PieceType pt) { return Move::make(from, to, MoveKind::PROMOTION, pt); }

TEST(MoveCodeLayout, NullMoveIsZero) {
  const Board board;
  EXPECT_EQ(kNullMoveCode, 0);
  EXPECT_EQ(encode_move(board, Move::null()), 0);
  Move decoded = Move::make(SQ_E2, SQ_E4);
  ASSERT_TRUE(decode_move(board, 0, decoded));
  EXPECT_TRUE(decoded.is_null());
}

TEST(MoveCodeLayout, FromSquareInBitsZeroToFiveAndToSquareInSixToEleven) {
  const Board board;
  EXPECT_EQ(encode_legal(board, Move::make(SQ_E2, SQ_E4)), 12 + (28 << 6));
  EXPECT_EQ(encode_legal(board, Move::make(SQ_E2, SQ_E4)), 1804);
  EXPECT_EQ(encode_legal(board, Move::make(SQ_G1, SQ_F3)), code_of(SQ_G1, SQ_F3));
  EXPECT_EQ(encode_legal(board, Move::make(SQ_A2, SQ_A3)), 8 + (16 << 6));
}

TEST(MoveCodeLayout, PromotionPieceInBitsTwelveToFourteen) {
  Board board;
  ASSERT_EQ(fen_error("3n3k/4P3/8/8/8/8/8/4K3 w - - 0 1", board), "");
  EXPECT_EQ(encode_legal(board, promote(SQ_E7, SQ_E8, QUEEN)), 52 + (60 << 6) + (4 << 12));
  EXPECT_EQ(encode_legal(board, promote(SQ_E7, SQ_E8, QUEEN)), 20276);
  EXPECT_EQ(encode_legal(board, promote(SQ_E7, SQ_E8, ROOK)), code_of(SQ_E7, SQ_E8, 3));
  EXPECT_EQ(encode_legal(board, promote(SQ_E7, SQ_E8, BISHOP)), code_of(SQ_E7, SQ_E8, 2));
  EXPECT_EQ(encode_legal(board, promote(SQ_E7, SQ_E8, KNIGHT)), code_of(SQ_E7, SQ_E8, 1));
  EXPECT_EQ(encode_legal(board, promote(SQ_E7, SQ_D8, QUEEN)), code_of(SQ_E7, SQ_D8, 4));
}

TEST(MoveCodeLayout, StandardCastlingIsTheKingMove) {
  Board board;
  ASSERT_EQ(fen_error("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", board), "");
  ASSERT_FALSE(board.chess960());
  EXPECT_EQ(encode_legal(board, castle(SQ_E1, SQ_H1)), code_of(SQ_E1, SQ_G1));
  EXPECT_EQ(encode_legal(board, castle(SQ_E1, SQ_H1)), 388);
  EXPECT_EQ(encode_legal(board, castle(SQ_E1, SQ_A1)), code_of(SQ_E1, SQ_C1));
  Move decoded;
  ASSERT_TRUE(decode_move(board, code_of(SQ_E1, SQ_G1), decoded));
  EXPECT_EQ(decoded, castle(SQ_E1, SQ_H1));

  ASSERT_EQ(fen_error("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", board), "");
  EXPECT_EQ(encode_legal(board, castle(SQ_E8, SQ_H8)), code_of(SQ_E8, SQ_G8));
  EXPECT_EQ(encode_legal(board, castle(SQ_E8, SQ_A8)), code_of(SQ_E8, SQ_C8));
}

TEST(MoveCodeLayout, Chess960CastlingIsKingTakesRook) {
  Board board;
  // King b1, rooks a1 and h1: long castling puts the king on c1, as does its plain step.
  ASSERT_EQ(fen_error("rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1", board), "");
  ASSERT_TRUE(board.chess960());
  EXPECT_EQ(encode_legal(board, castle(SQ_B1, SQ_A1)), code_of(SQ_B1, SQ_A1));
  EXPECT_EQ(encode_legal(board, castle(SQ_B1, SQ_H1)), code_of(SQ_B1, SQ_H1));
  EXPECT_EQ(encode_legal(board, Move::make(SQ_B1, SQ_C1)), code_of(SQ_B1, SQ_C1));

  // The squares of a standard game, read as Chess960: castling is e1h1, not e1g1.
  ASSERT_EQ(fen_error("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", board, true), "");
  EXPECT_EQ(encode_legal(board, castle(SQ_E1, SQ_H1)), code_of(SQ_E1, SQ_H1));
  EXPECT_EQ(encode_legal(board, castle(SQ_E1, SQ_A1)), code_of(SQ_E1, SQ_A1));
}

TEST(MoveCodeLayout, CastlingWithTheKingAlreadyOnItsTargetSquare) {
  // King g1, rook h1: O-O moves only the rook, coded g1h1.
  Board board;
  ASSERT_EQ(fen_error("1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1", board), "");
  const MoveCode code = encode_legal(board, castle(SQ_G1, SQ_H1));
  EXPECT_EQ(code, code_of(SQ_G1, SQ_H1));
  Move decoded;
  ASSERT_TRUE(decode_move(board, code, decoded));
  EXPECT_EQ(decoded, castle(SQ_G1, SQ_H1));
}

TEST(MoveCodeDecode, CodesOfNoLegalMoveAreRejected) {
  const Board board;
  Move out;
  EXPECT_FALSE(decode_move(board, code_of(SQ_E2, SQ_E5), out));
  EXPECT_FALSE(decode_move(board, code_of(SQ_E7, SQ_E5), out)) << "the other side's move";
  EXPECT_FALSE(decode_move(board, code_of(SQ_E2, SQ_E4, 4), out)) << "promotion bits on a pawn push";
  EXPECT_FALSE(decode_move(board, MoveCode(0x8000 | code_of(SQ_E2, SQ_E4)), out)) << "bit 15 set";
  Board promoting;
  ASSERT_EQ(fen_error("3n3k/4P3/8/8/8/8/8/4K3 w - - 0 1", promoting), "");
  EXPECT_FALSE(decode_move(promoting, code_of(SQ_E7, SQ_E8), out)) << "promotion without a piece";
  for (unsigned bad : {5u, 6u, 7u}) EXPECT_FALSE(decode_move(promoting, code_of(SQ_E7, SQ_E8, bad), out));
}

// Checks every legal move of board: fields as DESIGN.md draws them, decode gives the
// move back, and no two moves share a code. Returns how many moves it checked.
int check_every_move(const Board& board) {
  MoveList list;
  generate_legal_moves(board, list);
  std::vector<MoveCode> codes;
  for (Move m : list) {
    const MoveCode code = encode_move(board, m);
    const unsigned promotion = (code >> 12) & 7;
    EXPECT_EQ(code & 0x8000, 0) << write_fen(board);
    EXPECT_NE(code, kNullMoveCode) << write_fen(board);
    EXPECT_EQ(code & 63, m.from()) << write_fen(board);
    if (m.kind() == MoveKind::CASTLING && !board.chess960())
      EXPECT_EQ((code >> 6) & 63, Board::castling_king_to(board.side_to_move(), m.to() > m.from()));
    else
      EXPECT_EQ((code >> 6) & 63, m.to()) << write_fen(board);
    EXPECT_EQ(promotion, m.kind() == MoveKind::PROMOTION ? unsigned(m.promotion() - PAWN) : 0u);
    Move decoded;
    EXPECT_TRUE(decode_move(board, code, decoded)) << write_fen(board) << " code " << code;
    EXPECT_EQ(decoded, m) << write_fen(board) << " code " << code;
    codes.push_back(code);
  }
  std::sort(codes.begin(), codes.end());
  EXPECT_EQ(std::adjacent_find(codes.begin(), codes.end()), codes.end()) << "two moves share a code in "
                                                                          << write_fen(board);
  return int(list.size());
}

int check_perft_file(const std::string& file, size_t expected_positions) {
  const auto cases = read_perft_file(test_data_path(file));
  EXPECT_EQ(cases.size(), expected_positions) << file;
  int moves = 0;
  for (const auto& c : cases) {
    Board board;
    EXPECT_EQ(fen_error(c.fen, board), "") << c.id;
    moves += check_every_move(board);
    if (::testing::Test::HasFailure()) break;  // one broken position is enough to report
  }
  return moves;
}

TEST(MoveCodeIdentity, EveryMoveOfTheTrickyPerftPositions) {
  EXPECT_EQ(check_perft_file("perft/python-chess-tricky.perft", 19), 349);  // the depth-1 counts
}

TEST(MoveCodeIdentity, EveryMoveOfTheRandomPerftPositions) {
  EXPECT_EQ(check_perft_file("perft/python-chess-random.perft", 6838), 178742);
}

TEST(MoveCodeIdentity, EveryMoveOfTheChess960PerftPositions) {
  EXPECT_EQ(check_perft_file("perft/python-chess-chess960.perft", 960), 25943);
}

int check_random_games(const std::vector<std::string>& start_fens, unsigned seed, int games, int max_plies) {
  std::mt19937 rng(seed);
  int positions = 0;
  for (const auto& fen : start_fens) {
    Board start;
    EXPECT_EQ(fen_error(fen, start), "") << fen;
    for (int g = 0; g < games && !::testing::Test::HasFailure(); ++g) {
      test_support::play_random_game(start, rng, max_plies, [&](const Board& board, Move) {
        if (::testing::Test::HasFailure()) return;
        check_every_move(board);
        ++positions;
      });
    }
  }
  return positions;
}

TEST(MoveCodeIdentity, EveryMoveAlongRandomStandardGames) {
  EXPECT_GT(check_random_games({std::string(kStartFen)}, 1234, 60, 200), 5000);
}

TEST(MoveCodeIdentity, EveryMoveAlongRandomChess960Games) {
  const auto cases = read_perft_file(test_data_path("perft/python-chess-chess960.perft"));
  ASSERT_EQ(cases.size(), 960u);
  std::vector<std::string> starts;
  for (size_t i = 0; i < cases.size(); i += 20) starts.push_back(cases[i].fen);
  EXPECT_GT(check_random_games(starts, 4321, 2, 150), 5000);
}

}  // namespace
}  // namespace pgnbase
