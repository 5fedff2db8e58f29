// Polyglot keys: the published test vectors, positions from real games whose en-passant
// square Polyglot hashes although the capture is illegal, and the incremental key kept
// by do_move/undo_move against a recomputation along random games.
#include "core/zobrist.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/board.h"
#include "core/fen.h"
#include "core/movegen.h"
#include "tests/core/core_test_support.h"
#include "tests/support/files.h"
#include "tests/support/shared_data.h"

namespace pgnbase {
namespace {

using test_support::fen_error;
using test_support::find_uci_move;
using test_support::read_perft_file;
using test_support::test_data_path;

struct KeyRow {
  Key key;
  std::string fen;
  std::string third_column;  // moves (spec vectors) or ep class (real games)
};

// Reads a `key<TAB>fen<TAB>...` file; `#` lines are comments.
std::vector<KeyRow> read_key_rows(std::istream& in) {
  std::vector<KeyRow> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream columns(line);
    std::string key, fen, third;
    std::getline(columns, key, '\t');
    std::getline(columns, fen, '\t');
    std::getline(columns, third, '\t');
    rows.push_back({std::stoull(key, nullptr, 16), fen, third});
  }
  return rows;
}

std::vector<KeyRow> read_key_file(const std::string& relative) {
  std::ifstream in(test_data_path(relative));
  return read_key_rows(in);
}

bool has_legal_en_passant(const Board& board) {
  MoveList list;
  generate_legal_moves(board, list);
  for (Move m : list)
    if (m.kind() == MoveKind::EN_PASSANT) return true;
  return false;
}

TEST(PolyglotTable, HasTheFirstAndLastPublishedEntries) {
  EXPECT_EQ(zobrist::kRandom64[0], 0x9D39247E33776D41ULL);
  EXPECT_EQ(zobrist::kRandom64[780], 0xF8D626AAAF278509ULL);
  EXPECT_EQ(zobrist::white_to_move_key(), 0xF8D626AAAF278509ULL);
}

TEST(PolyglotVectors, EveryFenHasItsPublishedKey) {
  const auto rows = read_key_file("polyglot/polyglot-spec-vectors.tsv");
  ASSERT_EQ(rows.size(), 11u);
  for (const auto& row : rows) {
    Board board;
    ASSERT_EQ(fen_error(row.fen, board), "");
    EXPECT_EQ(board.key(), row.key) << row.fen;
  }
}

// The spec's move sequences, in UCI, with the key and FEN after each move.
TEST(PolyglotVectors, PlayingTheSpecLinesReachesEveryKeyIncrementally) {
  const auto rows = read_key_file("polyglot/polyglot-spec-vectors.tsv");
  ASSERT_EQ(rows.size(), 11u);
  const std::vector<std::vector<std::string>> lines = {
      {"e2e4", "d7d5", "e4e5", "f7f5", "e1e2", "e8f7"},
      {"a2a4", "b7b5", "h2h4", "b5b4", "c2c4", "b4c3", "a1a3"},
  };
  // Rows 1-6 follow the first line, rows 7-8 the second (row 0 is the start position).
  const std::vector<std::vector<size_t>> row_after_ply = {{1, 2, 3, 4, 5, 6}, {0, 0, 0, 0, 7, 0, 8}};
  for (size_t l = 0; l < lines.size(); ++l) {
    Board board;
    EXPECT_EQ(board.key(), rows[0].key);
    for (size_t ply = 0; ply < lines[l].size(); ++ply) {
      const auto m = find_uci_move(board, lines[l][ply]);
      ASSERT_TRUE(m.has_value()) << lines[l][ply];
      UndoInfo undo;
      board.do_move(*m, undo);
      if (size_t r = row_after_ply[l][ply]) {
        EXPECT_EQ(board.key(), rows[r].key) << lines[l][ply];
        EXPECT_EQ(write_fen(board), rows[r].fen);
      }
      EXPECT_EQ(board.key(), board.compute_key()) << lines[l][ply];
    }
  }
}

// Row 9: Polyglot hashes the ep file when an enemy pawn stands beside the pushed pawn,
// even though that pawn is pinned and cannot take. Row 10 is the same without ep.
TEST(PolyglotVectors, EnPassantFileIsHashedEvenWhenTheCaptureIsIllegal) {
  const auto rows = read_key_file("polyglot/polyglot-spec-vectors.tsv");
  ASSERT_EQ(rows.size(), 11u);
  Board board;
  ASSERT_EQ(fen_error("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", board), "");
  UndoInfo undo;
  board.do_move(*find_uci_move(board, "e2e4"), undo);
  EXPECT_EQ(write_fen(board), rows[9].fen);
  EXPECT_EQ(board.key(), rows[9].key);
  EXPECT_TRUE(board.en_passant_capturable_pseudo());
  EXPECT_FALSE(has_legal_en_passant(board));
  Board no_ep;
  ASSERT_EQ(fen_error(rows[10].fen, no_ep), "");
  EXPECT_EQ(no_ep.key(), rows[10].key);
  EXPECT_NE(no_ep.key(), board.key());
}

TEST(PolyglotVectors, RealGamesWithPinnedEnPassantCapturers) {
  const auto rows = read_key_file("polyglot/polyglot-pinned-ep-real-games.tsv");
  ASSERT_EQ(rows.size(), 18u);
  for (const auto& row : rows) {
    Board board;
    ASSERT_EQ(fen_error(row.fen, board), "");
    EXPECT_EQ(board.key(), row.key) << row.fen;
    EXPECT_TRUE(board.en_passant_capturable_pseudo()) << row.fen;
    EXPECT_FALSE(has_legal_en_passant(board)) << row.fen;
  }
}

TEST(PolyglotVectors, CopiesMatchSharedData) {
  PGNBASE_REQUIRE_SHARED("polyglot");
  for (const char* name : {"polyglot-spec-vectors.tsv", "polyglot-pinned-ep-real-games.tsv"}) {
    const std::string shared = test::read_file(test::shared_data("polyglot") / name);
    EXPECT_EQ(test::read_file(test_data_path(std::string("polyglot/") + name)), shared) << name;
  }
}

// 232,829 rows (230,494 distinct positions) from real games with python-chess's keys.
// The file is 20 MB uncompressed, so it stays in the shared data folder and this test
// needs the zstd program; it is skipped where either is missing. Rows with an ep
// square (the cases that differ between hashing rules) are all checked.
TEST(PolyglotVectors, SharedSampleOfRealGamePositions) {
  PGNBASE_REQUIRE_SHARED("polyglot/polyglot-keys-sample.tsv.zst");
  const std::string path = test::shared_data("polyglot/polyglot-keys-sample.tsv.zst").string();
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(("zstd -dc '" + path + "' 2>/dev/null").c_str(), "r"), pclose);
  if (!pipe) GTEST_SKIP() << "cannot run zstd";
  std::string text;
  char buffer[1 << 16];
  for (size_t n; (n = fread(buffer, 1, sizeof buffer, pipe.get())) > 0;) text.append(buffer, n);
  if (text.empty()) GTEST_SKIP() << "zstd produced nothing";
  std::istringstream in(text);
  const auto rows = read_key_rows(in);
  ASSERT_EQ(rows.size(), 232829u);
  int mismatches = 0, hashed_ep = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    // Every 8th row without an ep square is enough for the rest, and keeps the test short.
    const KeyRow& row = rows[i];
    if (row.third_column == "no-ep-square" && i % 8 != 0) continue;
    Board board;
    ASSERT_EQ(fen_error(row.fen, board), "");
    if (board.key() != row.key && ++mismatches <= 10) ADD_FAILURE() << row.fen << " expected " << std::hex << row.key;
    // The ep class names whether Polyglot hashes the ep file.
    const bool hashed = row.third_column.find("(hashed") != std::string::npos;
    EXPECT_EQ(board.en_passant_capturable_pseudo(), hashed) << row.fen << " " << row.third_column;
    hashed_ep += hashed;
  }
  EXPECT_EQ(mismatches, 0);
  EXPECT_EQ(hashed_ep, 247 + 1);
}

// Along random games: after every move the incremental key equals compute_key(), and
// undoing it restores the FEN and the key exactly; so does a null move.
void check_random_games(const std::vector<std::string>& start_fens, unsigned seed, int games_per_start,
                        int max_plies, int& positions) {
  std::mt19937 rng(seed);
  for (const auto& fen : start_fens) {
    Board start;
    ASSERT_EQ(fen_error(fen, start), "");
    for (int g = 0; g < games_per_start; ++g) {
      test_support::play_random_game(start, rng, max_plies, [&](const Board& position, Move m) {
        if (::testing::Test::HasFailure()) return;  // one broken position is enough to report
        ++positions;
        Board board = position;
        const std::string fen_before = write_fen(board);
        const Key key_before = board.key();
        ASSERT_EQ(key_before, board.compute_key()) << fen_before;
        UndoInfo undo;
        board.do_move(m, undo);
        ASSERT_EQ(board.key(), board.compute_key()) << fen_before << " then " << test_support::move_to_uci(position, m);
        board.undo_move(m, undo);
        ASSERT_EQ(write_fen(board), fen_before);
        ASSERT_EQ(board.key(), key_before);
        if (!board.in_check()) {
          board.do_null_move(undo);
          ASSERT_EQ(board.key(), board.compute_key()) << fen_before << " then a null move";
          ASSERT_EQ(board.key(), key_before ^ zobrist::white_to_move_key() ^
                                     (position.en_passant_capturable_pseudo()
                                          ? zobrist::en_passant_key(file_of(position.en_passant()))
                                          : 0));
          board.undo_null_move(undo);
          ASSERT_EQ(write_fen(board), fen_before);
          ASSERT_EQ(board.key(), key_before);
        }
      });
    }
  }
}

TEST(IncrementalKey, MatchesRecomputationAlongRandomStandardGames) {
  int positions = 0;
  check_random_games({std::string(kStartFen)}, 20240601, 100, 200, positions);
  // Kiwipete and position 4 start with castling, promotions and en passant close by.
  check_random_games({"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                      "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"},
                     7, 50, 150, positions);
  EXPECT_GT(positions, 10000);
}

TEST(IncrementalKey, MatchesRecomputationAlongRandomChess960Games) {
  const auto cases = read_perft_file(test_data_path("perft/python-chess-chess960.perft"));
  ASSERT_EQ(cases.size(), 960u);
  std::vector<std::string> starts;
  for (size_t i = 0; i < cases.size(); i += 10) starts.push_back(cases[i].fen);
  int positions = 0;
  check_random_games(starts, 960, 3, 150, positions);
  EXPECT_GT(positions, 10000);
}

}  // namespace
}  // namespace pgnbase
