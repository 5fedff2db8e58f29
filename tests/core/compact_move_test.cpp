// Compact move bytes (core/compact_move.h): every legal move of every position of the
// perft suites, and random games with null moves, read back as the code that was
// written; the escape covers promotions, null moves and far queen moves; bytes that
// name no piece or target are refused, never misread.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "core/compact_move.h"
#include "core/fen.h"
#include "tests/core/core_test_support.h"

namespace pgnbase {
namespace {

using test_support::code_of;
using test_support::fen_error;
using test_support::read_perft_file;
using test_support::test_data_path;

// Writes code for board and reads it back; returns the bytes written.
std::string round_trip(const Board& board, MoveCode code) {
  std::string bytes;
  append_compact_move(board, code, bytes);
  size_t at = 0;
  MoveCode read = 0xFFFF;
  EXPECT_TRUE(read_compact_move(board, bytes, at, read)) << write_fen(board) << " code " << code;
  EXPECT_EQ(read, code) << write_fen(board);
  EXPECT_EQ(at, bytes.size()) << write_fen(board);
  return bytes;
}

// Every legal move of every position of a perft suite; returns moves and bytes.
std::pair<size_t, size_t> check_suite(const std::string& file, bool chess960) {
  size_t moves = 0, bytes = 0;
  for (const auto& c : read_perft_file(test_data_path(file))) {
    Board board;
    EXPECT_EQ(fen_error(c.fen, board, chess960), "") << c.fen;
    MoveList list;
    generate_legal_moves(board, list);
    for (Move m : list) {
      bytes += round_trip(board, encode_move(board, m)).size();
      ++moves;
    }
    if (::testing::Test::HasFailure()) break;
  }
  return {moves, bytes};
}

TEST(CompactMove, EveryLegalMoveOfThePerftSuitesRoundTrips) {
  const auto [random_moves, random_bytes] = check_suite("perft/python-chess-random.perft", false);
  const auto [tricky_moves, tricky_bytes] = check_suite("perft/python-chess-tricky.perft", false);
  const auto [c960_moves, c960_bytes] = check_suite("perft/python-chess-chess960.perft", true);
  EXPECT_GT(random_moves, 100'000u);
  EXPECT_GT(c960_moves, 10'000u);
  // Uniform over all legal moves (far queen moves and promotions over-represented), the
  // average stays well under the 2 bytes of a MoveCode.
  EXPECT_LT(double(random_bytes + tricky_bytes + c960_bytes) / double(random_moves + tricky_moves + c960_moves), 1.3);
}

TEST(CompactMove, RandomGamesWithNullMovesRoundTrip) {
  std::mt19937 rng(20261123);
  size_t plies = 0, bytes = 0;
  for (const bool chess960 : {false, true}) {
    for (int game = 0; game < 300; ++game) {
      Board board;
      if (chess960) {
        ASSERT_EQ(fen_error("nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQRN w KQkq - 0 1", board, true), "");
      }
      UndoInfo undo;
      for (int ply = 0; ply < 200; ++ply) {
        if (!board.in_check() && rng() % 25 == 0) {  // a null move, as PGN's "--"
          bytes += round_trip(board, kNullMoveCode).size();
          board.do_null_move(undo);
          continue;
        }
        MoveList list;
        generate_legal_moves(board, list);
        if (list.empty()) break;
        const Move m = list[rng() % list.size()];
        bytes += round_trip(board, encode_move(board, m)).size();
        board.do_move(m, undo);
        ++plies;
        if (HasFailure()) return;
      }
    }
  }
  EXPECT_GT(plies, 50'000u);
}

// Hand-made positions, one per case of the format.
TEST(CompactMove, CastlingIsOneByteAndPromotionsAndNullMovesAreEscaped) {
  Board board;
  ASSERT_EQ(fen_error("r3k2r/pPpppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1", board), "");
  EXPECT_EQ(round_trip(board, code_of(SQ_E1, SQ_G1)).size(), 1u);  // standard castling: the king's two-square step
  EXPECT_EQ(round_trip(board, code_of(SQ_E1, SQ_C1)).size(), 1u);
  EXPECT_EQ(round_trip(board, code_of(SQ_B7, SQ_A8, 4)).size(), 3u);  // bxa8=Q
  EXPECT_EQ(round_trip(board, kNullMoveCode).size(), 3u);
  Board c960;
  ASSERT_EQ(fen_error("1r2k2r/8/8/8/8/8/8/1R2K2R w KQk - 0 1", c960, true), "");
  EXPECT_EQ(round_trip(c960, code_of(SQ_E1, SQ_H1)).size(), 1u);  // Chess960: king takes own rook
  EXPECT_EQ(round_trip(c960, code_of(SQ_E1, SQ_B1)).size(), 1u);
  Board queen;  // a centralised queen has 27 targets: from the 16th on, escaped
  ASSERT_EQ(fen_error("8/8/7k/8/3Q4/8/8/K7 w - - 0 1", queen), "");
  EXPECT_EQ(round_trip(queen, code_of(SQ_D4, SQ_D3)).size(), 1u);
  EXPECT_EQ(round_trip(queen, code_of(SQ_D4, SQ_H8)).size(), 3u);
}

TEST(CompactMove, BytesThatNameNoPieceOrTargetAreRefused) {
  const Board start;
  auto reads = [&](std::string bytes) {
    size_t at = 0;
    MoveCode code;
    return read_compact_move(start, bytes, at, code);
  };
  EXPECT_FALSE(reads(""));
  EXPECT_TRUE(reads(std::string(1, char(0xF0))));   // h2 (White's 16th piece) to g3: named, legality is checked later
  EXPECT_FALSE(reads(std::string(1, char(0xF3))));  // h2 has three targets (g3, h3, h4), not four
  EXPECT_FALSE(reads(std::string(1, char(0x0E))));  // a1 rook: no target at all in the start position
  EXPECT_FALSE(reads(std::string(1, char(0x1F))));  // low nibble 15 with a high nibble: not the escape
  EXPECT_FALSE(reads(std::string("\x0F\x01", 2)));  // escape cut short
  // Any byte string reads as a sequence of codes or stops with false; never more bytes
  // than given.
  std::mt19937 rng(7);
  for (int i = 0; i < 20'000; ++i) {
    std::string bytes(1 + rng() % 4, '\0');
    for (char& b : bytes) b = char(rng());
    size_t at = 0;
    MoveCode code;
    while (at < bytes.size() && read_compact_move(start, bytes, at, code)) ASSERT_LE(at, bytes.size());
  }
}

}  // namespace
}  // namespace pgnbase
