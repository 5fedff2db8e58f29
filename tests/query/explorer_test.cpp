// The opening explorer on the sample database, by every strategy (postings alone,
// ratings by game, ratings from the rating indexes, filters merged), and against a full
// replay of real files.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "indexer/position_index.h"
#include "json_check.h"
#include "query/explorer_output.h"
#include "sample_games.h"
#include "tests/support/files.h"
#include "tests/support/shared_data.h"
#include "tests/support/temp_dir.h"

namespace pgnbase::query {
namespace {

search::ExplorerResult explore_sample(std::string_view fen, search::GameFilter filter = {}, bool ratings = true,
                              size_t point_lookup_limit = 20000) {
  store::Database db(query_test::sample_database(), store::Database::Mode::ReadOnly);
  search::ExplorerOptions options;
  options.filter = std::move(filter);
  options.filter.position = query_test::board_of(fen);
  options.ratings = ratings;
  options.point_lookup_limit = point_lookup_limit;
  return search::explore(db, options);
}

TEST(Explorer, StartPositionCountsResultsAndRatings) {
  for (size_t limit : {size_t(20000), size_t(0)}) {  // ratings by game id, then from the indexes
    search::ExplorerResult r = explore_sample(kStartFen, {}, true, limit);
    EXPECT_EQ(r.games, 7u);
    EXPECT_EQ(r.ended_here, 0u);
    ASSERT_EQ(r.moves.size(), 2u);
    const search::ExplorerMove& e4 = r.moves[0];
    EXPECT_EQ(e4.san, "e4");
    EXPECT_EQ(e4.uci, "e2e4");
    EXPECT_EQ(e4.games, 6u);
    EXPECT_EQ(e4.white_wins, 2u);
    EXPECT_EQ(e4.draws, 2u);
    EXPECT_EQ(e4.black_wins, 1u);  // game 4 has no result
    EXPECT_EQ(e4.rated_games, 3u);
    EXPECT_DOUBLE_EQ(e4.average_rating(), (2870 + 1800 + 2200) / 3.0);
    EXPECT_EQ(r.moves[1].san, "d4");
    EXPECT_DOUBLE_EQ(r.moves[1].average_rating(), 2500);
  }
}

TEST(Explorer, PostingsAloneGiveTheSameCounts) {
  search::ExplorerResult with = explore_sample(kStartFen), without = explore_sample(kStartFen, {}, false);
  EXPECT_FALSE(without.ratings);
  ASSERT_EQ(with.moves.size(), without.moves.size());
  for (size_t i = 0; i < with.moves.size(); ++i) {
    EXPECT_EQ(with.moves[i].san, without.moves[i].san);
    EXPECT_EQ(with.moves[i].games, without.moves[i].games);
    EXPECT_EQ(with.moves[i].white_wins, without.moves[i].white_wins);
    EXPECT_EQ(without.moves[i].rated_games, 0u);
  }
}

TEST(Explorer, RepeatedPositionAndGameEnd) {
  // Game 7 reaches it twice (playing Nf3, then ending there); the mover is White.
  search::ExplorerResult r = explore_sample("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
  EXPECT_EQ(r.games, 3u);
  EXPECT_EQ(r.ended_here, 1u);
  ASSERT_EQ(r.moves.size(), 2u);
  EXPECT_EQ(r.moves[0].san, "Nf3");
  EXPECT_EQ(r.moves[0].games, 2u);
  EXPECT_EQ(r.moves[0].rated_games, 1u);
  EXPECT_EQ(r.moves[1].san, "Ke2");
}

TEST(Explorer, HeaderFiltersSelectTheGames) {
  for (size_t limit : {size_t(20000), size_t(0)}) {  // by game id, then merged with one SQL pass
    search::GameFilter draws;
    draws.result = 2;
    search::ExplorerResult r = explore_sample(kStartFen, draws, true, limit);
    EXPECT_EQ(r.games, 2u);
    ASSERT_EQ(r.moves.size(), 1u);
    EXPECT_EQ(r.moves[0].san, "e4");
    EXPECT_EQ(r.moves[0].draws, 2u);
    search::GameFilter blitz;
    blitz.time_control = *search::TimeControlMatcher::parse("180+2");
    r = explore_sample(kStartFen, blitz, false, limit);
    ASSERT_EQ(r.moves.size(), 1u);
    EXPECT_EQ(r.moves[0].games, 1u);
  }
}

TEST(Explorer, UnknownPositionIsEmpty) {
  search::ExplorerResult r = explore_sample("8/8/8/8/8/8/8/K6k w - - 0 1");
  EXPECT_EQ(r.games, 0u);
  EXPECT_TRUE(r.moves.empty());
}

TEST(Explorer, TableAndJsonOutput) {
  test::TempDir dir;
  search::ExplorerResult r = explore_sample(kStartFen);
  {
    io::OutputFile out(dir.file("table.txt"));
    print_explorer_table(r, out);
    out.close();
  }
  const std::string table = test::read_file(dir.file("table.txt"));
  EXPECT_NE(table.find("games     7"), std::string::npos) << table;
  // Game 4 has no result: the unknown column appears.
  EXPECT_NE(table.find("e4        6  85.7%  33.3%  33.3%   16.7%    16.7%     2290  B00 King's Pawn Game"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find(" 1  Carlsen, Magnus  2870  Nakamura, Hikaru  2780  1-0     2019  e4"), std::string::npos)
      << table;
  {
    io::OutputFile out(dir.file("explore.json"));
    print_explorer_json(r, out);
    out.close();
  }
  std::string error;
  auto v = json_check::parse(test::read_file(dir.file("explore.json")), &error);
  ASSERT_TRUE(v) << error;
  EXPECT_EQ(v->find("games")->number, 7);
  EXPECT_EQ(v->find("moves")->items[0].find("san")->text, "e4");
  EXPECT_EQ(v->find("moves")->items[0].find("average_elo")->number, 2290);
  EXPECT_EQ(v->find("moves")->items[0].find("unknown")->number, 1);
  EXPECT_EQ(v->find("moves")->items[0].find("fen")->text, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
  EXPECT_EQ(v->find("moves")->items[0].find("opening")->find("eco")->text, "B00");
  EXPECT_EQ(v->find("top_games")->items.size(), 3u);  // the games with both ratings
  EXPECT_EQ(v->find("top_games")->items[0].find("white_elo")->number, 2870);
  EXPECT_EQ(v->find("top_games")->items[0].find("year")->number, 2019);
}

const std::vector<std::string> real_files() {
  std::vector<std::string> files = query_test::shared_files("nasty/pgn-extract-tests");
  files.push_back((test::shared_data() / "notation" / "fischer-petrosian-en.pgn").string());
  return files;
}

// Each position the games reach (every common one, every `every`th of the rest) explored
// three ways against a replay of every game: games judged by SQL (collected, then
// counted), by the facets (counted as read), and without games (counted as read).
void expect_answers_of_a_full_replay(const std::string& db_path, size_t every, size_t min_checked) {
  const auto games = query_test::replay_all_games(db_path, true);
  // Per position key: the games reaching it, per next position key the games moving
  // there, and the games ending there (or passing with a null move).
  struct Expected {
    std::set<int64_t> games, ended;
    std::map<Key, std::set<int64_t>> next;
    std::string fen;
  };
  std::map<Key, Expected> expected;
  for (const auto& g : games)
    for (size_t ply = 0; ply < g.keys.size(); ++ply) {
      Expected& e = expected[g.keys[ply]];
      e.games.insert(g.id);
      e.fen = g.fens[ply];
      if (ply == g.codes.size() || g.codes[ply] == kNullMoveCode) e.ended.insert(g.id);
      else e.next[g.keys[ply + 1]].insert(g.id);
    }
  store::Database db(db_path, store::Database::Mode::ReadOnly);
  size_t checked = 0, i = 0;
  for (const auto& [key, e] : expected) {
    if (i++ % every && e.games.size() < 3) continue;  // every common position, a share of the rest
    std::map<Key, uint64_t> want;
    for (const auto& [next, ids] : e.next) want[next] = ids.size();
    // Games by SQL (collected), by the facets (counted as read), without games (as read).
    for (int way = 0; way < 3; ++way) {
      search::ExplorerOptions options;
      options.filter.position = query_test::board_of(e.fen);
      if (way == 1) options.facet_min_games = 0;
      if (way == 2) options.ratings = false, options.top_games = 0;
      const search::ExplorerResult r = search::explore(db, options);
      ASSERT_EQ(r.games, e.games.size()) << e.fen << " way " << way;
      EXPECT_EQ(r.ended_here, e.ended.size()) << e.fen;
      std::map<Key, uint64_t> found;
      for (const search::ExplorerMove& m : r.moves) {
        Board after = *options.filter.position;
        UndoInfo undo;
        after.do_move(m.move, undo);
        found[after.key()] += m.games;
      }
      EXPECT_EQ(found, want) << e.fen << " way " << way;
      EXPECT_EQ(r.used_facets, way == 1) << e.fen;
    }
    ++checked;
  }
  EXPECT_GT(checked, min_checked);
}

TEST(Explorer, RealFilesAgainstAFullReplay) {
  PGNBASE_REQUIRE_SHARED("nasty/pgn-extract-tests", "notation/fischer-petrosian-en.pgn");
  test::TempDir dir;
  const std::string db_path = dir.file("real.db");
  query_test::import_files(db_path, real_files());
  expect_answers_of_a_full_replay(db_path, 10, 1000);
}

// The same games with their position index written again in blocks of about 3 postings
// (lean, fingerprints): a common position's postings span many blocks, a block holding
// one posting of a key keeps no next move (the explorer replays that game), and a game
// that reaches a position twice can have one posting in each of two blocks, one with its
// move and one without. The answers stay the replay's, every way.
TEST(Explorer, TinyBlocksAgainstAFullReplay) {
  PGNBASE_REQUIRE_SHARED("nasty/pgn-extract-tests", "notation/fischer-petrosian-en.pgn");
  test::TempDir dir;
  const std::string db_path = dir.file("tiny.db");
  query_test::import_files(db_path, real_files());
  {
    store::Database db(db_path, store::Database::Mode::ReadWrite);
    std::map<int64_t, store::GameResult> results;
    store::Statement s = db.prepare("SELECT id, result FROM games");
    while (s.step()) results[s.column_int64(0)] = store::GameResult(s.column_int64(1) & 3);
    indexer::PositionIndexOptions options;
    options.temp_dir = dir.path();
    options.key_bits = 0;
    options.lean = true;
    options.block_postings = 3;
    indexer::PositionIndexBuilder builder(options);
    for (const query_test::ReplayedGame& g : query_test::replay_all_games(db_path))
      for (size_t ply = 0; ply < g.keys.size(); ++ply)
        builder.add(store::Posting{g.keys[ply], uint32_t(g.id), uint16_t(ply),
                                   ply < g.codes.size() ? g.codes[ply] : kNullMoveCode, results[g.id]});
    store::Transaction t(db);
    store::Statement last = db.prepare("SELECT max(segment_id) FROM position_segments");
    ASSERT_TRUE(last.step());
    const int64_t segment = last.column_int64(0);
    db.exec("DELETE FROM position_blocks");
    db.exec("DELETE FROM position_segments");
    builder.write_segment(db, segment);
    t.commit();
  }
  expect_answers_of_a_full_replay(db_path, 3, 2000);
}

}  // namespace
}  // namespace pgnbase::query
