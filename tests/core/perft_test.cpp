// Perft proof of the move generator: node counts from the published chessprogramming
// table and from the python-chess suites copied into tests/data/perft, plus a perft
// that checks the board's incremental state at every node.
//
// Only depths whose expected count is at most kMaxNodesPerRun run here, so that the
// whole binary stays fast under Debug + sanitizers (bulk counting runs about 15M
// nodes/s there: the start position at depth 5 takes a quarter of a second). The deeper
// counts run in bench/bench_core.cpp and, for whole suites, through
// tools/perft_suite.sh.
#include "core/movegen.h"

#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <vector>

#include "core/fen.h"
#include "tests/core/core_test_support.h"
#include "tests/support/files.h"
#include "tests/support/shared_data.h"

namespace pgnbase {
namespace {

using test_support::PerftCase;
using test_support::read_perft_file;
using test_support::test_data_path;

constexpr uint64_t kMaxNodesPerRun = 5'000'000;

// https://www.chessprogramming.org/Perft_Results (counts for depth 1, 2, ...).
struct PublishedPerft {
  const char* name;
  const char* fen;
  std::vector<uint64_t> nodes;
};

const PublishedPerft kPublished[] = {
    {"StartPosition", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
     {20, 400, 8902, 197281, 4865609}},
    {"Kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
     {48, 2039, 97862, 4085603}},
    {"Position3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", {14, 191, 2812, 43238, 674624, 11030083}},
    {"Position4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
     {6, 264, 9467, 422333, 15833292}},
    {"Position4Mirrored", "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
     {6, 264, 9467, 422333, 15833292}},
    {"Position5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", {44, 1486, 62379, 2103487}},
    {"Position6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
     {46, 2079, 89890, 3894594}},
};

// Names the position in failure messages instead of dumping the struct's bytes.
void PrintTo(const PublishedPerft& p, std::ostream* os) { *os << p.name; }

class PublishedPerftTest : public ::testing::TestWithParam<PublishedPerft> {};

TEST_P(PublishedPerftTest, MatchesChessprogrammingTable) {
  const PublishedPerft& p = GetParam();
  Board board;
  ASSERT_EQ(test_support::fen_error(p.fen, board), "");
  for (size_t i = 0; i < p.nodes.size() && p.nodes[i] <= kMaxNodesPerRun; ++i) {
    const int depth = int(i + 1);
    EXPECT_EQ(perft(board, depth), p.nodes[i]) << p.name << " depth " << depth;
  }
  EXPECT_EQ(write_fen(board), p.fen) << "perft must leave the board as it found it";
}

INSTANTIATE_TEST_SUITE_P(Chessprogramming, PublishedPerftTest, ::testing::ValuesIn(kPublished),
                         [](const auto& info) { return std::string(info.param.name); });

// Runs every (position, depth) of a suite whose depth is at most max_depth and whose
// count is at most kMaxNodesPerRun; returns how many ran.
int check_suite(const std::vector<PerftCase>& cases, int max_depth, size_t stride = 1) {
  int runs = 0;
  for (size_t i = 0; i < cases.size(); i += stride) {
    const PerftCase& c = cases[i];
    const Parsed<Board> parsed = parse_fen(c.fen);
    if (!parsed) {
      ADD_FAILURE() << c.id << ": " << parsed.error();
      continue;
    }
    Board board = *parsed;
    for (const auto& e : c.expected) {
      if (e.depth > max_depth || e.nodes > kMaxNodesPerRun) continue;
      EXPECT_EQ(perft(board, e.depth), e.nodes) << c.id << " '" << c.fen << "' depth " << e.depth;
      ++runs;
    }
  }
  return runs;
}

TEST(PerftSuite, TrickyPositionsMatchAtEveryDepthUpToTheCap) {
  const auto cases = read_perft_file(test_data_path("perft/python-chess-tricky.perft"));
  ASSERT_EQ(cases.size(), 19u);
  // 19 positions at depths 1-3, nine at depth 4, one at depth 5.
  EXPECT_EQ(check_suite(cases, 5), 19 * 3 + 9 + 1);
}

// Depth 2 over all 6,838 positions exercises every one of them; depth 3 (140M nodes
// over the whole file) runs on every 8th position to keep the test short.
TEST(PerftSuite, RandomPositionsMatchAtDepthTwo) {
  const auto cases = read_perft_file(test_data_path("perft/python-chess-random.perft"));
  ASSERT_EQ(cases.size(), 6838u);
  EXPECT_EQ(check_suite(cases, 2), 6838 * 2);
}

TEST(PerftSuite, RandomPositionsSampleMatchesAtDepthThree) {
  const auto cases = read_perft_file(test_data_path("perft/python-chess-random.perft"));
  ASSERT_EQ(cases.size(), 6838u);
  EXPECT_EQ(check_suite(cases, 3, 8), (6838 + 7) / 8 * 3);
}

TEST(PerftSuite, Chess960PositionsMatchAtDepthThree) {
  const auto cases = read_perft_file(test_data_path("perft/python-chess-chess960.perft"));
  ASSERT_EQ(cases.size(), 960u);
  EXPECT_EQ(check_suite(cases, 3), 960 * 3);
}

// The copies in tests/data must stay byte-identical to the project's shared data.
TEST(PerftSuite, CopiesMatchSharedData) {
  PGNBASE_REQUIRE_SHARED("perft");
  for (const char* name : {"python-chess-tricky.perft", "python-chess-random.perft",
                           "python-chess-chess960.perft"}) {
    const std::string shared = test::read_file(test::shared_data("perft") / name);
    EXPECT_EQ(test::read_file(test_data_path(std::string("perft/") + name)), shared) << name;
  }
}

// Perft that also checks what plain perft trusts, at every node: the incremental key
// equals the recomputed one, checkers() agrees with the attack test and names every
// attacker of the king, is_legal() accepts every generated move, and undo_move restores
// the position (FEN and key) exactly. Stops at the first broken invariant.
class CheckedPerft {
 public:
  uint64_t run(Board& board, int depth) {
    if (!failure_.empty()) return 0;
    if (board.key() != board.compute_key()) return fail(board, "incremental key differs from compute_key()");
    const Color us = board.side_to_move();
    const bool attacked = board.attacked_by(~us, board.king_square(us), board.pieces());
    if (board.in_check() != attacked) return fail(board, "checkers() disagrees with the attack test");
    // Every checker, a double check's two included (do_move finds them its own way).
    if (board.checkers() != (board.attackers_to(board.king_square(us), board.pieces()) & board.pieces(~us)))
      return fail(board, "checkers() differs from the king's attackers");
    if (depth == 0) return 1;
    MoveList list;
    generate_legal_moves(board, list);
    uint64_t nodes = 0;
    const std::string fen_before = write_fen(board);
    const Key key_before = board.key();
    for (Move m : list) {
      if (!is_legal(board, m)) return fail(board, "is_legal() rejects a generated move");
      UndoInfo undo;
      board.do_move(m, undo);
      nodes += run(board, depth - 1);
      board.undo_move(m, undo);
      if (write_fen(board) != fen_before || board.key() != key_before)
        return fail(board, "undo_move did not restore " + fen_before);
    }
    return nodes;
  }
  const std::string& failure() const { return failure_; }

 private:
  uint64_t fail(const Board& board, const std::string& why) {
    failure_ = why + " at " + write_fen(board);
    return 0;
  }
  std::string failure_;
};

TEST(CheckedPerft, TrickyPositionsKeepEveryInvariantToDepthThree) {
  const auto cases = read_perft_file(test_data_path("perft/python-chess-tricky.perft"));
  ASSERT_EQ(cases.size(), 19u);
  for (const PerftCase& c : cases) {
    Board board;
    ASSERT_EQ(test_support::fen_error(c.fen, board), "");
    CheckedPerft checked;
    EXPECT_EQ(checked.run(board, 3), c.expected.at(2).nodes) << c.id;
    EXPECT_EQ(checked.failure(), "") << c.id;
  }
}

TEST(CheckedPerft, Chess960SampleKeepsEveryInvariantToDepthTwo) {
  const auto cases = read_perft_file(test_data_path("perft/python-chess-chess960.perft"));
  ASSERT_EQ(cases.size(), 960u);
  for (size_t i = 0; i < cases.size(); i += 8) {
    Board board;
    ASSERT_EQ(test_support::fen_error(cases[i].fen, board), "");
    CheckedPerft checked;
    EXPECT_EQ(checked.run(board, 2), cases[i].expected.at(1).nodes) << cases[i].id;
    EXPECT_EQ(checked.failure(), "") << cases[i].id;
  }
}

// In Chess960 the castling rook may stand between an enemy slider and the king's
// destination; once it moves, the king would land in check.
TEST(Chess960Castling, RookCannotShieldTheKingsDestination) {
  Board board;
  // King c1 castles long with the b1 rook: the king stays on c1, which the a1 rook
  // attacks as soon as the b1 rook leaves for d1.
  ASSERT_EQ(test_support::fen_error("7k/8/8/8/8/8/8/rRK5 w B - 0 1", board), "");
  ASSERT_TRUE(board.chess960());
  ASSERT_FALSE(board.in_check());
  const Move castle = Move::make(SQ_C1, SQ_B1, MoveKind::CASTLING);
  MoveList list;
  generate_legal_moves(board, list);
  EXPECT_FALSE(list.contains(castle));
  EXPECT_FALSE(is_legal(board, castle));
  // Without the enemy rook the same castling is legal.
  ASSERT_EQ(test_support::fen_error("7k/8/8/8/8/8/8/1RK5 w B - 0 1", board), "");
  MoveList free_list;
  generate_legal_moves(board, free_list);
  EXPECT_TRUE(free_list.contains(castle));
  EXPECT_TRUE(is_legal(board, castle));
}

}  // namespace
}  // namespace pgnbase
