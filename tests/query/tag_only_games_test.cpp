// Games of tags alone (broadcast pairings, forfeits, byes): each is stored as a game of
// 0 plies with its result, export writes each back as its own game, and re-importing
// the export gives the same games; search, show and the explorer take them in stride.
#include <gtest/gtest.h>

#include <sstream>

#include "search/explorer.h"
#include "query/game_view.h"
#include "io/output_file.h"
#include "query/search_output.h"
#include "query_test_support.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"

namespace pgnbase::query {
namespace {

using test::TempDir;

// Hand-made: the two games, then pairings without a blank line between them,
// with a result token and without, with ChessBase's blank line after [Event], one game
// with moves and no Result tag, and a last one with neither a Result tag nor a result.
constexpr std::string_view kPairings =
    "[Event \"Club ch\"]\n[Round \"1\"]\n[White \"Smith, J\"]\n[Black \"Jones, K\"]\n[Result \"1-0\"]\n\n"
    "[Event \"Club ch\"]\n[Round \"1\"]\n[White \"Brown, A\"]\n[Black \"Green, B\"]\n[Result \"0-1\"]\n\n"
    "[Event \"Club ch\"]\n[Round \"2\"]\n[White \"Jones, K\"]\n[Black \"Brown, A\"]\n[Result \"1/2-1/2\"]\n"
    "[Event \"Club ch\"]\n[Round \"2\"]\n[White \"Green, B\"]\n[Black \"Smith, J\"]\n[Result \"*\"]\n\n*\n\n"
    "[Event \"Club ch\"]\n\n[Round \"3\"]\n[White \"Smith, J\"]\n[Black \"Bye\"]\n[Result \"1-0\"]\n\n1-0\n\n"
    "[Event \"Club ch\"]\n[Round \"3\"]\n[White \"Brown, A\"]\n[Black \"Jones, K\"]\n\n1. d4 d5 0-1\n\n"
    "[Event \"Club ch\"]\n[Round \"3\"]\n[White \"Green, B\"]\n[Black \"Forfeit\"]\n";

// Each stored game as "White|Black|Event|Round|result code|plies", in id order.
std::vector<std::string> stored_games(const std::string& db_path) {
  store::Database db(db_path, store::Database::Mode::ReadOnly);
  store::Statement s = db.prepare(
      "SELECT (SELECT name FROM names WHERE id = white_id), (SELECT name FROM names WHERE id = black_id), "
      "(SELECT name FROM names WHERE id = event_id), round, result, plies FROM games ORDER BY id");
  std::vector<std::string> games;
  while (s.step()) {
    std::string game;
    for (int c = 0; c < 6; ++c) game += (c ? "|" : "") + std::string(s.column_is_null(c) ? "<null>" : s.column_text(c));
    games.push_back(std::move(game));
  }
  return games;
}

const std::vector<std::string> kStoredPairings = {
    "Smith, J|Jones, K|Club ch|1|1|0", "Brown, A|Green, B|Club ch|1|3|0", "Jones, K|Brown, A|Club ch|2|2|0",
    "Green, B|Smith, J|Club ch|2|0|0", "Smith, J|Bye|Club ch|3|1|0",      "Brown, A|Jones, K|Club ch|3|3|2",
    "Green, B|Forfeit|Club ch|3|0|0"};

indexer::ImportOutcome import(const std::string& db_path, const std::string& file) {
  indexer::DatabaseWriter writer(db_path, indexer::WriterOptions{});
  indexer::ImportOptions options;
  options.threads = 2;
  return indexer::import_file(file, writer, options);
}

// The whole database written by run_search in the given format.
std::string search_output(const std::string& db_path, OutputFormat format, const std::string& out_path) {
  store::Database db(db_path, store::Database::Mode::ReadOnly);
  SearchOutputOptions output;
  output.format = format;
  io::OutputFile out(out_path);
  EXPECT_EQ(run_search(db, search::SearchOptions{}, output, out).games, int64_t(kStoredPairings.size()));
  out.close();
  return test::read_file(out_path);
}

class TagOnlyGamesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    test::write_file(pairings_, kPairings);
    const indexer::ImportOutcome outcome = import(db_, pairings_);
    ASSERT_EQ(outcome.summary.games_found, kStoredPairings.size());
    ASSERT_EQ(outcome.summary.imported, kStoredPairings.size());
  }
  TempDir dir_;
  const std::string db_ = dir_.file("pairings.db"), pairings_ = dir_.file("pairings.pgn");
};

TEST_F(TagOnlyGamesTest, EachGameIsStoredWithItsTagsResultAndNoPlies) {
  EXPECT_EQ(stored_games(db_), kStoredPairings);
}

TEST_F(TagOnlyGamesTest, ExportWritesEachGameAndReimportGivesTheSameGames) {
  const std::string exported = search_output(db_, OutputFormat::Pgn, dir_.file("export.pgn"));
  size_t events = 0;
  for (size_t at = exported.find("[Event "); at != std::string::npos; at = exported.find("[Event ", at + 1)) ++events;
  EXPECT_EQ(events, kStoredPairings.size());
  // A game without moves is its tags, then its result alone.
  EXPECT_NE(exported.find("[White \"Brown, A\"]\n[Black \"Green, B\"]\n[Result \"0-1\"]\n\n0-1\n\n"), std::string::npos)
      << exported;
  EXPECT_NE(exported.find("[Black \"Forfeit\"]\n[Result \"*\"]\n\n*\n"), std::string::npos) << exported;

  const std::string again = dir_.file("again.db");
  const indexer::ImportOutcome reimported = import(again, dir_.file("export.pgn"));
  EXPECT_EQ(reimported.summary.games_found, kStoredPairings.size());
  EXPECT_EQ(reimported.summary.rejected, 0u);
  EXPECT_EQ(stored_games(again), kStoredPairings);
  // Into the first database, every exported game is one it holds.
  const indexer::ImportOutcome into_first = import(db_, dir_.file("export.pgn"));
  EXPECT_EQ(into_first.summary.imported, 0u);
  EXPECT_EQ(into_first.summary.duplicates, kStoredPairings.size());
}

TEST_F(TagOnlyGamesTest, SearchAsJsonLinesAndShowHandleGamesWithoutMoves) {
  std::istringstream lines(search_output(db_, OutputFormat::Json, dir_.file("games.jsonl")));
  size_t empty = 0, total = 0;
  for (std::string line; std::getline(lines, line); ++total) {
    if (line.find("\"plies\":0,") != std::string::npos && line.find("\"moves\":[]") != std::string::npos) ++empty;
  }
  EXPECT_EQ(total, kStoredPairings.size());
  EXPECT_EQ(empty, kStoredPairings.size() - 1);

  store::Database db(db_, store::Database::Mode::ReadOnly);
  for (OutputFormat format : {OutputFormat::Text, OutputFormat::Pgn, OutputFormat::Json}) {
    ShowOptions options;
    options.id = 2;
    options.format = format;
    const std::string path = dir_.file("show.txt");
    io::OutputFile out(path);
    EXPECT_EQ(show_game(db, options, out).status, ShowStatus::Shown);
    out.close();
    const std::string shown = test::read_file(path);
    EXPECT_NE(shown.find("Green, B"), std::string::npos) << shown;
    EXPECT_NE(shown.find("0-1"), std::string::npos) << shown;
  }
  ShowOptions start;
  start.id = 1;
  start.ply = 0;
  io::OutputFile out(dir_.file("start.txt"));
  EXPECT_EQ(show_game(db, start, out).status, ShowStatus::Shown);
  start.ply = 1;
  const ShowResult past_the_end = show_game(db, start, out);
  EXPECT_EQ(past_the_end.status, ShowStatus::PlyOutOfRange);
  EXPECT_EQ(past_the_end.plies, 0);
}

TEST_F(TagOnlyGamesTest, ExplorerCountsGamesThatEndAtTheStart) {
  store::Database db(db_, store::Database::Mode::ReadOnly);
  for (bool use_facets : {true, false}) {
    search::ExplorerOptions options;
    options.filter.position = Board();
    options.use_facets = use_facets;
    const search::ExplorerResult r = search::explore(db, options);
    EXPECT_EQ(r.games, kStoredPairings.size()) << use_facets;
    EXPECT_EQ(r.ended_here, kStoredPairings.size() - 1) << use_facets;
    ASSERT_EQ(r.moves.size(), 1u) << use_facets;
    EXPECT_EQ(r.moves[0].san, "d4");
    EXPECT_EQ(r.moves[0].black_wins, 1u);
  }
}

}  // namespace
}  // namespace pgnbase::query

namespace pgnbase::query {
namespace {

// Hand-made: a pairing list of a double round robin without dates, where one pair meets
// with the same colours in rounds 1 and 3 before either game is played. Both are games:
// a game without moves is a duplicate only when its Event, Site and Round agree too.
TEST(TagOnlyGames, TwoRoundsOfOnePairingAreTwoGames) {
  TempDir dir;
  const std::string pgn = dir.file("rounds.pgn");
  test::write_file(pgn,
                         "[Event \"Club ch\"]\n[Round \"1\"]\n[White \"Smith, J\"]\n[Black \"Jones, K\"]\n[Result \"*\"]\n\n"
                         "[Event \"Club ch\"]\n[Round \"3\"]\n[White \"Smith, J\"]\n[Black \"Jones, K\"]\n[Result \"*\"]\n\n");
  const indexer::ImportOutcome outcome = import(dir.file("r.db"), pgn);
  EXPECT_EQ(outcome.summary.imported, 2u);
  EXPECT_EQ(outcome.summary.duplicates, 0u);
  // The same file again under another name: both are duplicates now.
  test::write_file(dir.file("again.pgn"), test::read_file(pgn) + "\n");
  EXPECT_EQ(import(dir.file("r.db"), dir.file("again.pgn")).summary.duplicates, 2u);
}

}  // namespace
}  // namespace pgnbase::query
