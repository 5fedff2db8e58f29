// --moves: parsing move sequences as people type them, and the games that reach their
// position (any move order) or start with exactly those moves (--from-start-only), on
// real games against a brute-force replay of every game.
#include <gtest/gtest.h>

#include <set>

#include "core/san.h"
#include "search/explorer.h"
#include "search/game_search.h"
#include "search/move_sequence.h"
#include "query_test_support.h"
#include "tests/support/shared_data.h"
#include "tests/support/temp_dir.h"
#include "tests/support/bundled_sample.h"

namespace pgnbase::query {
namespace {

constexpr std::string_view kRuyLopezFen = "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3";

std::string final_fen(std::string_view text) {
  Parsed<search::MoveSequence> s = search::parse_move_sequence(text);
  EXPECT_TRUE(s) << text << ": " << (s ? "" : s.error());
  return s ? write_fen(s->final_position()) : "";
}

TEST(MoveSequence, ReadsEveryNotationWithOrWithoutMoveNumbers) {
  for (std::string_view text : {"1.e4 e5 2.Nf3 Nc6 3.Bb5", "e4 e5 Nf3 Nc6 Bb5", "1. e4 e5 2. Nf3 Nc6 3. Bb5",
                                "1.e4 1...e5 2.Nf3 2...Nc6 3.Bb5", "1. e4 e5 2. Sf3 Sc6 3. Lb5",
                                "e2e4 e7e5 g1f3 b8c6 f1b5", "  1.e4   e5\t2.Nf3 Nc6 3.Bb5+ "})
    EXPECT_EQ(final_fen(text), kRuyLopezFen) << text;
  Parsed<search::MoveSequence> s = search::parse_move_sequence("1.e4 e5 2.Nf3");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->moves.size(), 3u);
  EXPECT_EQ(s->positions.size(), 4u);
}

TEST(MoveSequence, BadMovesAreNamed) {
  Parsed<search::MoveSequence> s = search::parse_move_sequence("1.e4 e5 2.Nf6");
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().find("ply 3"), std::string::npos) << s.error();
  EXPECT_NE(s.error().find("Nf6"), std::string::npos) << s.error();
  s = search::parse_move_sequence("  1. ");
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().find("no move"), std::string::npos) << s.error();
}

class MoveSequenceRealGames : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new test::TempDir;
    db_path_ = dir_->file("real.db");
    std::vector<std::string> files = {test::kSample.string()};
    if (test::have_shared_data())
      files.push_back((test::shared_data() / "notation" / "fischer-petrosian-en.pgn").string());
    query_test::import_files(db_path_, files, false);
    games_ = new std::vector<query_test::ReplayedGame>(query_test::replay_all_games(db_path_));
  }
  static void TearDownTestSuite() {
    delete games_;
    delete dir_;
  }
  static inline test::TempDir* dir_ = nullptr;
  static inline std::string db_path_;
  static inline std::vector<query_test::ReplayedGame>* games_ = nullptr;
};

// The SAN of a game's first n plies, with move numbers, as a user would type them.
std::string typed_moves(const query_test::ReplayedGame& g, size_t n) {
  Board board;
  std::string text;
  UndoInfo undo;
  for (size_t ply = 0; ply < n; ++ply) {
    Move m;
    EXPECT_TRUE(decode_move(board, g.codes[ply], m));
    if (ply % 2 == 0) text += std::to_string(ply / 2 + 1) + ".";
    text += to_san(board, m) + " ";
    board.do_move(m, undo);
  }
  return text;
}

TEST_F(MoveSequenceRealGames, SearchAndExplorerAgreeWithAFullReplay) {
  const Key start_key = Board().key();
  std::set<std::string> tried;
  size_t checked = 0, with_transpositions = 0;
  for (size_t i = 0; i < games_->size(); i += 37) {
    const query_test::ReplayedGame& g = (*games_)[i];
    if (g.keys[0] != start_key) continue;
    for (size_t n : {size_t(1), size_t(3), size_t(6), size_t(10), size_t(16)}) {
      if (g.codes.size() < n) continue;
      const std::string text = typed_moves(g, n);
      if (!tried.insert(text).second) continue;
      Parsed<search::MoveSequence> parsed = search::parse_move_sequence(text);
      ASSERT_TRUE(parsed) << text << ": " << parsed.error();
      const search::MoveSequence& sequence = *parsed;
      ASSERT_EQ(sequence.final_position().key(), g.keys[n]) << text;
      // Brute force: games reaching the position at any ply, and games starting with
      // exactly these moves (the same codes from the standard start).
      std::set<int64_t> reaching, starting;
      std::map<Key, uint64_t> next_from_start;  // for starting games: next position -> games
      for (const auto& other : *games_) {
        if (std::find(other.keys.begin(), other.keys.end(), g.keys[n]) != other.keys.end()) reaching.insert(other.id);
        if (other.keys[0] == start_key && other.codes.size() >= n &&
            std::equal(g.codes.begin(), g.codes.begin() + ptrdiff_t(n), other.codes.begin())) {
          starting.insert(other.id);
          if (other.codes.size() > n && other.codes[n] != kNullMoveCode) ++next_from_start[other.keys[n + 1]];
        }
      }
      with_transpositions += reaching.size() > starting.size();
      store::Database db(db_path_, store::Database::Mode::ReadOnly);
      const std::vector<uint32_t> ids = games_starting_with(db, sequence);
      EXPECT_EQ(std::set<int64_t>(ids.begin(), ids.end()), starting) << text;
      for (bool from_start : {false, true}) {
        search::SearchOptions options;
        options.filter.position = sequence.final_position();
        if (from_start) options.filter.opening = sequence;
        search::GameSearch search(db, options);
        std::set<int64_t> found;
        while (search.next()) found.insert(search.row().id);
        EXPECT_EQ(found, from_start ? starting : reaching) << text << (from_start ? " (from start)" : "");
      }
      search::ExplorerOptions explore_options;
      explore_options.filter.position = sequence.final_position();
      explore_options.filter.opening = sequence;
      const search::ExplorerResult r = search::explore(db, explore_options);
      EXPECT_EQ(r.games, starting.size()) << text;
      std::map<Key, uint64_t> found_next;
      for (const search::ExplorerMove& m : r.moves) found_next[query_test::board_of(m.fen).key()] += m.games;
      EXPECT_EQ(found_next, next_from_start) << text;
      ++checked;
    }
  }
  EXPECT_GT(checked, 100u);
  EXPECT_GT(with_transpositions, 5u);  // the two searches do differ on real games
}

}  // namespace
}  // namespace pgnbase::query
