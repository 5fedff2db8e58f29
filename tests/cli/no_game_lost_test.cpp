// Issue 21, on the bundled real games (tools/sample): every game of every input ends up
// stored, rejected or skipped as a true copy, and stays findable after removals:
// - a finished game, or one of another Site, is never a truncated copy of a longer one;
// - removing a source keeps the games another source also held (they move to it);
// - a removed game's id is never given again, and the explorer's filters agree with search;
// - --replace of standard input replaces only the same content.
#include <gtest/gtest.h>

#include <sstream>

#include "store/database.h"
#include "tests/cli/cli_support.h"
#include "tests/support/bundled_sample.h"

namespace pgnbase::cli_test {
namespace {

// The game's headers with Result set to `result` and, when given, Site to `site`, then its
// first `plies` moves (comments dropped) and the result: the game as saved earlier.
std::string cut_game(const std::string& game, size_t plies, const std::string& result, const std::string& site = "") {
  const size_t blank = game.find("\n\n");
  std::string headers = game.substr(0, blank + 1);
  auto set_tag = [&](const std::string& name, const std::string& value) {
    const size_t at = headers.find("[" + name + " \"");
    headers.replace(at, headers.find('\n', at) - at, "[" + name + " \"" + value + "\"]");
  };
  set_tag("Result", result);
  if (!site.empty()) set_tag("Site", site);
  std::string moves, token;
  std::istringstream in(game.substr(blank));
  for (size_t ply = 0; ply < plies && in >> token;) {
    if (token.starts_with("{")) {
      while (token.back() != '}' && in >> token) {
      }
    } else if (token.back() != '.') {
      moves += token + " ";
      ++ply;
    }
  }
  return headers + "\n" + moves + result + "\n\n";
}

Redirects stdin_from(const std::string& path) {
  Redirects redirects;
  redirects.stdin_path = path;
  return redirects;
}

class NoGameLost : public CliTest {
 protected:
  std::string db() const { return path("g.db"); }
  int64_t count(const std::string& sql) {
    store::Database d(db(), store::Database::Mode::ReadOnly);
    store::Statement s = d.prepare(sql);
    return s.step() ? s.column_int64(0) : -1;
  }
  int64_t query_count(std::vector<std::string> args) {
    args.insert(args.begin() + 1, db());
    args.push_back("--count");
    const Ran r = query(args);
    EXPECT_EQ(r.code, 0) << r;
    return std::atoll(r.out.c_str());
  }
  // The explorer's game count at the start position under the given filters (JSON).
  int64_t explorer_games(std::vector<std::string> filters) {
    std::vector<std::string> args{"explore", db(), "--format", "json"};
    args.insert(args.end(), filters.begin(), filters.end());
    const Ran r = query(args);
    EXPECT_EQ(r.code, 0) << r;
    const size_t at = r.out.find("\"games\":");
    return at == std::string::npos ? -1 : std::atoll(r.out.c_str() + at + 8);
  }
};

TEST_F(NoGameLost, AFinishedShortGameIsNoTruncatedCopy) {
  const std::string& game = test::sample_games()[0];  // 1-0 after 99 plies
  ASSERT_EQ(index({"-q", "-o", db(), file("full.pgn", game)}).code, 0);
  // The same players and day, lost on time after 4 plies: a game of its own.
  Ran r = index({"-o", db(), file("forfeit.pgn", cut_game(game, 4, "0-1"))});
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_NE(r.out.find("1 game found, 1 imported"), std::string::npos) << r;
  EXPECT_EQ(r.out.find("truncated"), std::string::npos) << r;
  // Unfinished, but another game (another Site URL).
  r = index({"-o", db(), file("other.pgn", cut_game(game, 10, "*", "https://lichess.org/abcdefgh"))});
  EXPECT_NE(r.out.find("1 game found, 1 imported"), std::string::npos) << r;
  // Unfinished, same Site: an earlier state of the stored game, skipped and named.
  r = index({"-o", db(), file("early.pgn", cut_game(game, 10, "*"))});
  EXPECT_NE(r.out.find("1 game found, 0 imported, 0 rejected, 1 duplicate"), std::string::npos) << r;
  EXPECT_NE(r.out.find("is a truncated copy of stored game 1 (10 of 99 plies)"), std::string::npos) << r;
  EXPECT_EQ(count("SELECT count(*) FROM games"), 3);
  // A finished game is never called a truncated copy of a longer one that comes later.
  ASSERT_EQ(index({"-q", "-o", path("h.db"), file("forfeit2.pgn", cut_game(game, 6, "1/2-1/2"))}).code, 0);
  r = index({"-o", path("h.db"), path("full.pgn")});
  EXPECT_EQ(r.out.find("longer than stored game"), std::string::npos) << r;
}

TEST_F(NoGameLost, RemovingASourceKeepsTheGamesAnotherSourceHolds) {
  const std::string part = file("part.pgn", test::games_text(0, 20));
  const std::string all = file("all.pgn", test::games_text(0, 200));
  ASSERT_EQ(index({"-q", "-o", db(), part, all}).code, 0);
  EXPECT_EQ(count("SELECT duplicates FROM sources WHERE path = '" + all + "'"), 20);
  const int64_t e4 = query_count({"search", "--moves", "1.e4"});
  Ran r = index({"-o", db(), "--remove", part});
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_EQ(count("SELECT count(*) FROM games"), 200);
  EXPECT_NE(r.out.find(": 0 games, 0 rejects, 0 positions removed; 20 games stay: other sources hold them"),
            std::string::npos)
      << r;
  EXPECT_EQ(count("SELECT count(DISTINCT source_id) FROM games"), 1);
  // The moved games are found by position as before, and by the explorer.
  EXPECT_EQ(query_count({"search", "--moves", "1.e4"}), e4);
  EXPECT_EQ(query_count({"search", "--fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"}), 200);
  EXPECT_EQ(explorer_games({}), 200);
  EXPECT_EQ(count("SELECT count(*) FROM game_changes WHERE source_id IS NOT NULL"), 20);
  // Removing the last holder removes them.
  r = index({"-o", db(), "--remove", all});
  EXPECT_NE(r.out.find(": 200 games"), std::string::npos) << r;
  EXPECT_EQ(count("SELECT count(*) FROM games"), 0);
  EXPECT_EQ(count("SELECT count(*) FROM position_segments"), 0);
  EXPECT_EQ(count("SELECT count(*) FROM moved_segments"), 0);
}

TEST_F(NoGameLost, ReplacingASourceKeepsTheGamesAnotherSourceHolds) {
  const std::string part = file("part.pgn", test::games_text(0, 20));
  const std::string all = file("all.pgn", test::games_text(0, 100));
  ASSERT_EQ(index({"-q", "-o", db(), part, all}).code, 0);
  // The file changed: it now holds 10 other games.
  file("part.pgn", test::games_text(200, 210));
  ASSERT_EQ(index({"-q", "-o", db(), "--replace", part}).code, 0);
  EXPECT_EQ(count("SELECT count(*) FROM games"), 110);
  EXPECT_EQ(query_count({"search", "--fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"}), 110);
  EXPECT_EQ(count("SELECT count(*) FROM games WHERE id <= 20 AND source_id = 2"), 20);
}

TEST_F(NoGameLost, IdsAreNeverGivenTwiceAndTheExplorerAgreesWithSearch) {
  const std::string a = file("a.pgn", test::games_text(0, 1000)), b = file("b.pgn", test::games_text(1000, 2000));
  ASSERT_EQ(index({"-q", "-o", db(), a, b}).code, 0);
  ASSERT_EQ(index({"-q", "-o", db(), "--remove", path("b.pgn")}).code, 0);
  // a's games once more: with the explorer's per-game facets in use (2,000 games reach
  // the start position), a reused id would carry a removed game's rating and date.
  ASSERT_EQ(index({"-q", "-o", db(), "--keep-duplicates", file("c.pgn", test::games_text(0, 1000) + "\n")}).code, 0);
  for (const char* elo : {"2900", "3000", "3100", "3200"}) {
    SCOPED_TRACE(elo);
    EXPECT_EQ(explorer_games({"--min-elo", elo}), query_count({"search", "--min-elo", elo}));
    EXPECT_EQ(explorer_games({"--max-elo", elo}), query_count({"search", "--max-elo", elo}));
  }
  EXPECT_EQ(count("SELECT min(id) FROM games WHERE source_id = 3"), 2001);
  EXPECT_EQ(count("SELECT max(id) FROM sources"), 3);
  // The next import's ids follow the largest stored one (rows written without their id,
  // DatabaseWriter::game_ids_follow_); each game keeps its material runs.
  ASSERT_EQ(index({"-q", "-o", db(), file("d.pgn", test::games_text(1500, 1600))}).code, 0);
  EXPECT_EQ(count("SELECT min(id) FROM games WHERE source_id = 4"), 3001);
  EXPECT_EQ(count("SELECT count(*) FROM games g JOIN material_blocks m ON m.block = (g.id - 1) / 16"),
            count("SELECT count(*) FROM games"));
  EXPECT_EQ(count("SELECT sum(games) FROM material_blocks"), count("SELECT count(*) FROM games"));
}

TEST_F(NoGameLost, ReplacingStandardInputReplacesOnlyTheSameContent) {
  const std::string first = file("first.pgn", test::games_text(0, 50));
  const std::string second = file("second.pgn", test::games_text(50, 120));
  ASSERT_EQ(index({"-q", "-o", db(), "-"}, stdin_from(first)).code, 0);
  ASSERT_EQ(index({"-q", "-o", db(), "-"}, stdin_from(second)).code, 0);
  fs::create_directories(path("tmp"));
  Ran r = index({"-o", db(), "--replace", "--no-annotations", "--temp-dir", path("tmp"), "-"}, stdin_from(second));
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_NE(r.out.find("replaced source 2 (-): 70 games"), std::string::npos) << r;
  EXPECT_EQ(r.out.find("replaced source 1"), std::string::npos) << r;
  EXPECT_EQ(count("SELECT count(*) FROM games"), 120);
  EXPECT_EQ(count("SELECT count(*) FROM game_annotations WHERE id > 50"), 0);  // read again with the options given
  EXPECT_EQ(count("SELECT count(*) FROM game_annotations WHERE id <= 50"), 50);
  EXPECT_TRUE(fs::is_empty(path("tmp")));  // the copy of the stream is gone
}

}  // namespace
}  // namespace pgnbase::cli_test
