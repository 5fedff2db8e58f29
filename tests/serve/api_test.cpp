// The JSON API against a real server on the bundled sample: every endpoint answers, and
// answers what the library (so the CLI) answers for the same question.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <string>

#include "core/fen.h"
#include "io/output_file.h"
#include "query/database_report.h"
#include "search/explorer.h"
#include "search/game_search.h"
#include "query/game_view.h"
#include "search/move_sequence.h"
#include "query/player_report.h"
#include "serve/api.h"
#include "serve/web_assets.h"
#include "store/read_snapshot.h"
#include "store/schema_version.h"
#include "tests/serve/serve_test_support.h"

namespace pgnbase::serve_test {
namespace {

using json_check::Value;

class ApiTest : public SampleServerTest {
 protected:
  static Value get_json(const std::string& target) {
    auto response = server_->client()->Get(target);
    EXPECT_TRUE(response) << target;
    if (!response) return {};
    EXPECT_EQ(response->status, 200) << target << ": " << response->body;
    EXPECT_EQ(response->get_header_value("Content-Type"), "application/json; charset=utf-8");
    return parse_json(response->body);
  }

};

int64_t integer(const Value& v, std::string_view key) {
  const Value* member = v.find(key);
  return member ? int64_t(member->number) : -1;
}

std::string text(const Value& v, std::string_view key) {
  const Value* member = v.find(key);
  return member ? member->text : "";
}

TEST_F(ApiTest, ExplorerAnswersAsTheLibraryInTheLichessShape) {
  const Value answer = get_json("/api/explorer?play=e2e4,e7e5&topGames=3");
  store::Database db = store::open_for_reading(db_path_);
  search::ExplorerOptions options;
  Parsed<search::MoveSequence> moves = search::parse_move_sequence("1.e4 e5");
  ASSERT_TRUE(moves);
  options.filter.position = moves->final_position();
  for (const Board& b : moves->positions) options.path_keys.push_back(b.key());
  options.top_games = 3;
  store::ReadSnapshot snapshot(db);
  const search::ExplorerResult expected = search::explore(db, options);

  const Value* list = answer.find("moves");
  ASSERT_TRUE(list);
  ASSERT_EQ(list->items.size(), expected.moves.size());
  int64_t white = 0;
  for (size_t i = 0; i < expected.moves.size(); ++i) {
    const Value& m = list->items[i];
    const search::ExplorerMove& e = expected.moves[i];
    EXPECT_EQ(text(m, "uci"), e.uci);
    EXPECT_EQ(text(m, "san"), e.san);
    EXPECT_EQ(integer(m, "white"), int64_t(e.white_wins));
    EXPECT_EQ(integer(m, "draws"), int64_t(e.draws));
    EXPECT_EQ(integer(m, "black"), int64_t(e.black_wins));
    EXPECT_EQ(integer(m, "averageRating"), std::llround(e.average_rating()));
    ASSERT_TRUE(m.find("opening") && m.find("game"));
    white += integer(m, "white");
  }
  EXPECT_EQ(integer(answer, "white"), white);
  EXPECT_EQ(text(*answer.find("opening"), "eco"), expected.opening.eco);
  const Value* top = answer.find("topGames");
  ASSERT_TRUE(top);
  ASSERT_EQ(top->items.size(), expected.top_games.size());
  for (size_t i = 0; i < top->items.size(); ++i) {
    const Value& g = top->items[i];
    EXPECT_EQ(text(g, "id"), std::to_string(expected.top_games[i].id));
    EXPECT_EQ(text(*g.find("white"), "name"), expected.top_games[i].white);
    EXPECT_EQ(integer(g, "year"), std::stoll(expected.top_games[i].date.substr(0, 4)));
  }
}

TEST_F(ApiTest, ExplorerFiltersAndLichessParametersNarrowTheCounts) {
  const Value all = get_json("/api/explorer");
  const Value strong = get_json("/api/explorer?min-elo=3100");
  const Value blitz = get_json("/api/explorer?speeds=blitz");
  const Value bullet = get_json("/api/explorer?speeds=bullet");
  const Value both = get_json("/api/explorer?speeds=blitz,bullet");
  EXPECT_EQ(integer(all, "games"), 2000);
  EXPECT_LT(integer(strong, "games"), 2000);
  EXPECT_GT(integer(blitz, "games"), 0);
  EXPECT_LT(integer(blitz, "games"), integer(all, "games"));
  // Speeds partition the games: the answer for several is the sum of each's.
  EXPECT_EQ(integer(both, "games"), integer(blitz, "games") + integer(bullet, "games"));
  EXPECT_EQ(integer(both, "white"), integer(blitz, "white") + integer(bullet, "white"));
  const Value from_fen = get_json("/api/explorer?fen=rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR%20b%20KQkq%20-%200%201");
  const Value from_play = get_json("/api/explorer?play=e2e4");
  EXPECT_EQ(integer(from_fen, "games"), integer(from_play, "games"));
  // moves limits the list, not the totals.
  const Value one = get_json("/api/explorer?play=e2e4&moves=1");
  EXPECT_EQ(one.find("moves")->items.size(), 1u);
  EXPECT_EQ(integer(one, "white"), integer(from_play, "white"));
}

TEST_F(ApiTest, SearchPagesAreTheLibrarysIdsAndCount) {
  const Value page = get_json("/api/search?player=drnykterstein&result=1-0&order=elo&offset=5&limit=10");
  store::Database db = store::open_for_reading(db_path_);
  search::SearchOptions options;
  options.filter.player = search::NamePattern{"drnykterstein"};
  options.filter.result = 1;
  options.order = store::GameOrder::Elo;
  store::ReadSnapshot snapshot(db);
  const int64_t total = search::GameSearch(db, options).count();
  options.offset = 5;
  options.limit = 10;
  search::GameSearch search(db, options);
  std::vector<int64_t> ids;
  while (search.next()) ids.push_back(search.row().id);
  EXPECT_EQ(integer(page, "total"), total);
  const Value* games = page.find("games");
  ASSERT_TRUE(games);
  ASSERT_EQ(games->items.size(), ids.size());
  for (size_t i = 0; i < ids.size(); ++i) EXPECT_EQ(integer(games->items[i], "id"), ids[i]);
}

TEST_F(ApiTest, SearchTakesPositionsMovesAndPatterns) {
  const Value ruy = get_json("/api/search?moves=1.e4%20e5%202.Nf3%20Nc6%203.Bb5&limit=1");
  const Value played = get_json("/api/search?play=e2e4,e7e5,g1f3,b8c6,f1b5&limit=1");
  EXPECT_EQ(integer(ruy, "total"), integer(played, "total"));
  EXPECT_EQ(integer(played.find("games")->items[0], "atPly"), 5);
  // Counts from query/README.md for the sample.
  EXPECT_EQ(integer(get_json("/api/search?material=KRPvKR&material-either-colour=true&limit=1"), "total"), 22);
  EXPECT_EQ(integer(get_json("/api/search?pieces=wKg1%20wBg2%20wPf2%20wPg3%20wPh2&limit=1"), "total"), 400);
}

// A page whose total would take more than count_max_games replayed or scanned games says
// null, and whether more games follow; the games are the same. Called directly, with a
// limit below the sample's candidates (the server's is search::kCheapCountGames).
TEST_F(ApiTest, SearchLeavesACostlyTotalUncountedAndSaysWhetherMoreFollow) {
  store::Database db = store::open_for_reading(db_path_);
  auto page = [&](std::multimap<std::string, std::string> params, uint64_t count_max_games) {
    return parse_json(serve::search_json(db, serve::ApiRequest(params), count_max_games));
  };
  auto ids = [](const Value& v) {
    std::vector<int64_t> out;
    for (const Value& g : v.find("games")->items) out.push_back(integer(g, "id"));
    return out;
  };
  const std::multimap<std::string, std::string> e4 = {{"play", "e2e4"}, {"limit", "5"}};
  const Value counted = page(e4, search::kCheapCountGames);
  const Value uncounted = page(e4, 10);
  EXPECT_GT(integer(counted, "total"), 5);
  ASSERT_TRUE(uncounted.find("total"));
  EXPECT_TRUE(uncounted.find("total")->kind == Value::Kind::Null) << integer(uncounted, "total");
  EXPECT_TRUE(counted.find("more")->boolean);
  EXPECT_TRUE(uncounted.find("more")->boolean);
  EXPECT_EQ(ids(uncounted), ids(counted));
  EXPECT_EQ(ids(uncounted).size(), 5u);
  // The last page holds the last match: its total needs no count, and no more follow.
  const std::string offset = std::to_string(integer(counted, "total") - 2);
  const Value last = page({{"play", "e2e4"}, {"limit", "5"}, {"offset", offset}}, 10);
  EXPECT_EQ(integer(last, "total"), integer(counted, "total"));
  EXPECT_FALSE(last.find("more")->boolean);
  EXPECT_EQ(ids(last).size(), 2u);
  // Past the last match: nothing to show, nothing to count cheaply.
  const Value past = page({{"play", "e2e4"}, {"offset", "100000"}}, 10);
  EXPECT_TRUE(past.find("total")->kind == Value::Kind::Null);
  EXPECT_FALSE(past.find("more")->boolean);
  EXPECT_TRUE(ids(past).empty());
  // A pattern over more games than the limit: uncounted too.
  EXPECT_TRUE(page({{"material", "KRPvKR"}, {"material-either-colour", "true"}, {"limit", "1"}}, 1999)
                  .find("total")
                  ->kind == Value::Kind::Null);
  EXPECT_EQ(integer(page({{"material", "KRPvKR"}, {"material-either-colour", "true"}, {"limit", "1"}}, 2000), "total"),
            22);
}

// Each move's clock and evaluation come as the comment's text and as numbers: seconds
// left, centipawns (pawns x 100) or moves to mate, read here from the text by hand.
TEST_F(ApiTest, GameMovesCarryClocksAndEvaluationsAsNumbers) {
  size_t clocks = 0, evals = 0;
  for (int id = 1; id <= 20; ++id) {
    const Value game = get_json("/api/game/" + std::to_string(id));
    const Value* moves = game.find("moves");
    ASSERT_TRUE(moves);
    for (const Value& move : moves->items) {
      if (const std::string clock = text(move, "clock"); !clock.empty()) {
        int h = 0, m = 0;
        double sec = 0;
        ASSERT_EQ(std::sscanf(clock.c_str(), "%d:%d:%lf", &h, &m, &sec), 3) << clock;
        const Value* seconds = move.find("clockSeconds");
        ASSERT_TRUE(seconds) << clock;
        EXPECT_NEAR(seconds->number, h * 3600 + m * 60 + sec, 1e-9) << clock;
        ++clocks;
      }
      if (const std::string eval = text(move, "eval"); !eval.empty()) {
        if (eval[0] == '#') {
          EXPECT_EQ(integer(move, "mate"), std::stoi(eval.substr(1))) << eval;
        } else {
          const Value* centipawns = move.find("evalCentipawns");
          ASSERT_TRUE(centipawns) << eval;
          EXPECT_EQ(int64_t(centipawns->number), std::lround(std::stod(eval) * 100)) << eval;
        }
        ++evals;
      }
    }
  }
  EXPECT_GT(clocks, 100u);
  EXPECT_GT(evals, 10u);
}

TEST_F(ApiTest, GameHasEveryPlyAndTheExportedPgn) {
  const Value game = get_json("/api/game/13");
  EXPECT_EQ(integer(game, "id"), 13);
  const Value* moves = game.find("moves");
  ASSERT_TRUE(moves);
  ASSERT_EQ(int64_t(moves->items.size()), integer(game, "plies"));
  EXPECT_EQ(text(moves->items[0], "san"), "e4");
  EXPECT_EQ(text(moves->items[0], "uci"), "e2e4");
  EXPECT_EQ(text(moves->items[0], "fen"), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
  // The sample carries lichess's [%clk] comments: each becomes the ply's clock.
  EXPECT_FALSE(text(moves->items[0], "clock").empty());
  std::string expected;
  {
    store::Database db = store::open_for_reading(db_path_);
    io::OutputFile out(&expected);
    query::ShowOptions show;
    show.id = 13;
    show.format = query::OutputFormat::Pgn;
    ASSERT_EQ(query::show_game(db, show, out).status, query::ShowStatus::Shown);
    out.close();
  }
  EXPECT_EQ(text(game, "pgn"), expected);
  // The last FEN is the position the moves reach.
  Board board = *parse_fen(text(game, "startFen"));
  for (const Value& m : moves->items) {
    Move move;
    ASSERT_EQ(parse_move(board, text(m, "uci"), english(), move), SanError::None);
    UndoInfo undo;
    play(board, move, undo);
    ASSERT_EQ(write_fen(board), text(m, "fen"));
  }
}

TEST_F(ApiTest, PlayerAndStatsAreTheCommandsJson) {
  store::Database db = store::open_for_reading(db_path_);
  std::string stats;
  {
    io::OutputFile out(&stats);
    query::print_stats(db, query::StatsOptions{query::OutputFormat::Json, false}, out);
    out.close();
  }
  auto response = server_->client()->Get("/api/stats");
  ASSERT_TRUE(response);
  EXPECT_EQ(response->body, stats);

  std::string player;
  {
    query::PlayerReportOptions options;
    options.name = search::NamePattern{"Nikotheo"};
    io::OutputFile out(&player);
    query::print_player_report(query::build_player_report(db, options), query::OutputFormat::Json, false, out);
    out.close();
  }
  const Value report = get_json("/api/player?name=Nikotheo");
  const Value expected = parse_json(player);
  EXPECT_EQ(integer(*report.find("total"), "games"), integer(*expected.find("total"), "games"));
  EXPECT_EQ(report.find("years")->items.size(), expected.find("years")->items.size());
  // One rating point per rated, dated game: all 276 of the sample's.
  EXPECT_EQ(report.find("ratings")->items.size(), 276u);
}

TEST_F(ApiTest, PositionListsTheLegalMoves) {
  const Value start = get_json("/api/position");
  EXPECT_EQ(start.find("legal")->items.size(), 20u);
  const Value mate = get_json("/api/position?play=f2f3,e7e5,g2g4,d8h4");
  EXPECT_EQ(mate.find("legal")->items.size(), 0u);
  EXPECT_TRUE(mate.find("check")->boolean);
  EXPECT_EQ(mate.find("line")->items.back().text, "Qh4#");
}

TEST_F(ApiTest, EveryPageFileIsServedWithItsType) {
  ASSERT_FALSE(serve::web_assets().empty());
  for (const serve::WebAsset& asset : serve::web_assets()) {
    auto response = server_->client()->Get(std::string(asset.path));
    ASSERT_TRUE(response) << asset.path;
    EXPECT_EQ(response->status, 200) << asset.path;
    EXPECT_EQ(response->body, asset.body) << asset.path;
    EXPECT_EQ(response->get_header_value("Content-Type"), asset.content_type);
  }
  auto index = server_->client()->Get("/");
  ASSERT_TRUE(index);
  EXPECT_EQ(index->body, serve::find_web_asset("/index.html")->body);
}

}  // namespace
}  // namespace pgnbase::serve_test
