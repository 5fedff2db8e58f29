// decode_stored_move, the check of move codes read from a database that may come from
// anyone: for every one of the 65,536 codes in many positions it must agree with
// decode_move, which generates every legal move (a brute-force judge), and it must
// refuse the codes of the crashing game and other impossible moves.
#include <gtest/gtest.h>

#include <array>
#include <random>
#include <string>
#include <vector>

#include "core/fen.h"
#include "core/move_code.h"
#include "tests/core/core_test_support.h"

namespace pgnbase {
namespace {

using test_support::code_of;
using test_support::fen_error;
using test_support::read_perft_file;
using test_support::test_data_path;

// Compares decode_stored_move with the legal move list for every code; returns the
// number of codes accepted.
int check_every_code(const Board& board) {
  std::array<Move, 65536> legal{};
  std::array<bool, 65536> is_legal_code{};
  MoveList list;
  generate_legal_moves(board, list);
  for (Move m : list) {
    legal[encode_move(board, m)] = m;
    is_legal_code[encode_move(board, m)] = true;
  }
  is_legal_code[kNullMoveCode] = !board.in_check();
  int accepted = 0;
  for (uint32_t code = 0; code < 65536; ++code) {
    Move m;
    const bool ok = decode_stored_move(board, MoveCode(code), m);
    EXPECT_EQ(ok, is_legal_code[code]) << "code " << code << " in " << write_fen(board);
    if (ok && code != kNullMoveCode) {
      EXPECT_EQ(m, legal[code]) << "code " << code << " in " << write_fen(board);
    }
    if (::testing::Test::HasFailure()) return accepted;
    accepted += ok;
  }
  return accepted;
}

int check_perft_positions(const std::string& file, size_t step, bool chess960) {
  const auto cases = read_perft_file(test_data_path(file));
  EXPECT_FALSE(cases.empty()) << file;
  int positions = 0;
  for (size_t i = 0; i < cases.size() && !::testing::Test::HasFailure(); i += step) {
    Board board;
    EXPECT_EQ(fen_error(cases[i].fen, board, chess960), "") << cases[i].fen;
    check_every_code(board);
    ++positions;
  }
  return positions;
}

TEST(StoredMove, AgreesWithTheLegalMovesInTheTrickyPerftPositions) {
  EXPECT_GT(check_perft_positions("perft/python-chess-tricky.perft", 1, false), 5);
}

TEST(StoredMove, AgreesWithTheLegalMovesInRandomPerftPositions) {
  EXPECT_GT(check_perft_positions("perft/python-chess-random.perft", 100, false), 50);
}

TEST(StoredMove, AgreesWithTheLegalMovesInChess960Positions) {
  EXPECT_GT(check_perft_positions("perft/python-chess-chess960.perft", 40, true), 20);
}

TEST(StoredMove, AgreesWithTheLegalMovesAlongRandomGames) {
  std::mt19937 rng(2026);
  int positions = 0;
  for (int game = 0; game < 3; ++game)
    test_support::play_random_game(Board(), rng, 120, [&](const Board& board, Move) {
      if (::testing::Test::HasFailure() || rng() % 6) return;
      check_every_code(board);
      ++positions;
    });
  EXPECT_GT(positions, 20);
}

// Hand-made positions for the cases the issue names: a king in check, a pawn before
// its own king, en passant that would expose the king, castling through an attack.
TEST(StoredMove, AgreesWithTheLegalMovesInHandMadeEdgePositions) {
  for (const char* fen : {"rnbqkbnr/ppppp1pp/5p2/7Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2",
                          "4K3/3P4/8/8/8/8/8/k7 w - - 0 1", "3k4/8/8/K2pP2r/8/8/8/8 w - d6 0 1",
                          "r3k2r/8/8/8/8/8/5q2/R3K2R w KQkq - 0 1", "4k3/8/8/8/8/8/8/4K2R w K - 0 1"}) {
    Board board;
    ASSERT_EQ(fen_error(fen, board), "") << fen;
    check_every_code(board);
  }
}

// The moves blob of the issue: e4 f6 Qh5 a6 Qxe8 b6. a6 leaves the king in check, so
// the replay must stop there; Qxe8 would capture the king.
TEST(StoredMove, RefusesTheMoveThatLeavesTheKingInCheckAndTheKingCapture) {
  const MoveCode codes[] = {code_of(SQ_E2, SQ_E4), code_of(SQ_F7, SQ_F6), code_of(SQ_D1, SQ_H5),
                            code_of(SQ_A7, SQ_A6), code_of(SQ_H5, SQ_E8), code_of(SQ_B7, SQ_B6)};
  Board board;
  UndoInfo undo;
  size_t ply = 0;
  for (Move m; ply < std::size(codes) && decode_stored_move(board, codes[ply], m); ++ply) board.do_move(m, undo);
  EXPECT_EQ(ply, 3u);
  Move m;
  EXPECT_FALSE(decode_stored_move(board, kNullMoveCode, m)) << "a null move in check";
}

TEST(StoredMove, RefusesAPromotionOntoTheOwnKing) {
  Board board;
  ASSERT_EQ(fen_error("4K3/3P4/8/8/8/8/8/k7 w - - 0 1", board), "");
  Move m;
  for (unsigned promotion = 1; promotion <= 4; ++promotion)
    EXPECT_FALSE(decode_stored_move(board, code_of(SQ_D7, SQ_E8, promotion), m));
  EXPECT_TRUE(decode_stored_move(board, code_of(SQ_D7, SQ_D8, 4), m));
}

}  // namespace
}  // namespace pgnbase
