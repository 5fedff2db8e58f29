// The dataset's plies/ table (clocks and evaluations, docs/dataset.md) on real games: the
// first 600 games of the bundled lichess sample exported (a quarter keeps the test fast
// under ASan), DuckDB's rows equal a brute-force reading of the
// sample's comment text (tests/support/clock_comments.h), and the query docs/dataset.md
// gives for the time used per move by Elo band answers what the text gives.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "dataset/dataset_export.h"
#include "store/schema_version.h"
#include "tests/dataset/node_readers.h"
#include "tests/query/query_test_support.h"
#include "tests/support/bundled_sample.h"
#include "tests/support/clock_comments.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"

namespace pgnbase::dataset {
namespace {

namespace fs = std::filesystem;

// The docs' views and query (docs/dataset.md, Clocks and evaluations), DIR replaced.
std::vector<std::string> docs_statements(const fs::path& dir) {
  std::vector<std::string> statements = {
      "CREATE VIEW removed AS SELECT source_id FROM read_parquet('DIR/removed/*.parquet')",
      "CREATE VIEW games AS SELECT * FROM read_parquet('DIR/games/*/*.parquet', hive_partitioning = true) "
      "WHERE source_id NOT IN (SELECT source_id FROM removed)",
      "CREATE VIEW plies AS SELECT * FROM read_parquet('DIR/plies/*/*.parquet', hive_partitioning = true) "
      "WHERE source_id NOT IN (SELECT source_id FROM removed)",
      // Seconds used per move: the mover's previous clock minus this one, plus the increment.
      "WITH moves AS (\n"
      "  SELECT CASE WHEN (p.ply % 2 = 1) = (g.start_fen IS NULL OR split_part(g.start_fen, ' ', 2) = 'w')\n"
      "              THEN g.white_elo ELSE g.black_elo END AS elo,\n"
      "         lag(p.clock_ms) OVER (PARTITION BY p.game_id, p.ply % 2 ORDER BY p.ply) - p.clock_ms\n"
      "           + 1000 * CAST(split_part(g.time_control, '+', 2) AS INTEGER) AS used_ms\n"
      "  FROM plies p JOIN games g ON g.id = p.game_id\n"
      "  WHERE p.clock_ms IS NOT NULL AND g.time_control LIKE '%+%')\n"
      "SELECT CAST(floor(elo / 200) * 200 AS INTEGER) AS elo_band, count(*) AS moves,\n"
      "       round(avg(used_ms) / 1000, 2) AS seconds_per_move\n"
      "FROM moves WHERE used_ms IS NOT NULL AND elo IS NOT NULL\n"
      "GROUP BY elo_band ORDER BY elo_band",
  };
  for (std::string& s : statements)
    for (size_t at; (at = s.find("DIR")) != std::string::npos;) s.replace(at, 3, dir.string());
  return statements;
}

std::string cell(const std::optional<int>& v) { return v ? std::to_string(*v) : "\\N"; }

std::optional<int> tag_number(const std::string& tags, const std::string& name) {
  std::smatch m;
  if (!std::regex_search(tags, m, std::regex("\\[" + name + " \"(\\d+)\"\\]"))) return std::nullopt;
  return std::stoi(m[1]);
}

TEST(DatasetPlies, DuckDbReadsEveryClockAndEvaluationOfTheSampleAsTheTextHasThem) {
  PGNBASE_REQUIRE_NODE_READERS();
  test::TempDir temp("dataset-plies");
  std::string text;
  for (size_t g = 0; g < 600; ++g) text += test::sample_games()[g];
  const std::string pgn = (temp.path() / "sample-600.pgn").string(), db_path = (temp.path() / "sample.db").string();
  test::write_file(pgn, text);
  query_test::import_files(db_path, {pgn});
  const fs::path dir = temp.path() / "dataset";
  {
    store::Database db = store::open_for_reading(db_path);
    export_dataset(db, dir, {});
  }
  const std::vector<test::CommentGame> games = test::read_comment_games(text);
  ASSERT_EQ(games.size(), 600u);  // stored in file order: game i has id i + 1

  std::vector<std::string> expected;
  struct Band {
    int64_t moves = 0, used_ms = 0;
  };
  std::map<int, Band> bands;
  for (size_t g = 0; g < games.size(); ++g) {
    const std::vector<test::CommentPly>& plies = games[g].plies;
    const std::optional<int> white = tag_number(games[g].tags, "WhiteElo"), black = tag_number(games[g].tags, "BlackElo");
    std::smatch m;
    const bool timed = std::regex_search(games[g].tags, m, std::regex(R"re(\[TimeControl "\d+\+(\d+)"\])re"));
    const int increment_ms = timed ? std::stoi(m[1]) * 1000 : 0;
    for (size_t i = 0; i < plies.size(); ++i) {
      const test::CommentPly& p = plies[i];
      if (p.clock_tenths || p.centipawns || p.mate)
        expected.push_back(std::to_string(g + 1) + "\t" + std::to_string(i + 1) + "\t" +
                           cell(p.clock_tenths ? std::optional<int>(*p.clock_tenths * 100) : std::nullopt) + "\t" +
                           cell(p.centipawns) + "\t" + cell(p.mate));
      // The same player's previous move with a clock (the sample's games start from the
      // standard position: White plays the odd plies).
      if (!timed || !p.clock_tenths) continue;
      const std::optional<int> elo = i % 2 == 0 ? white : black;
      std::optional<int> previous;
      for (size_t j = i; j >= 2 && !previous; j -= 2)
        if (plies[j - 2].clock_tenths) previous = plies[j - 2].clock_tenths;
      if (!elo || !previous) continue;
      Band& band = bands[*elo / 200 * 200];
      ++band.moves;
      band.used_ms += int64_t(*previous - *p.clock_tenths) * 100 + increment_ms;
    }
  }
  ASSERT_GT(expected.size(), 40000u);

  const std::vector<std::string> rows = dataset_test::duckdb_rows(
      "SELECT game_id, ply, clock_ms, eval_cp, eval_mate FROM read_parquet('" + (dir / "plies" / "*" / "*.parquet").string() +
      "') ORDER BY game_id, ply");
  ASSERT_EQ(rows.size(), expected.size());
  for (size_t i = 0; i < rows.size(); ++i) ASSERT_EQ(rows[i], expected[i]) << "row " << i;

  const std::vector<std::vector<std::string>> results = dataset_test::duckdb_batch(docs_statements(dir));
  const std::vector<std::string>& by_band = results.back();
  ASSERT_EQ(by_band.size(), bands.size());
  size_t i = 0;
  for (const auto& [band, b] : bands) {
    std::istringstream fields(by_band[i++]);
    int got_band;
    int64_t got_moves;
    double got_seconds;
    fields >> got_band >> got_moves >> got_seconds;
    EXPECT_EQ(got_band, band);
    EXPECT_EQ(got_moves, b.moves) << band;
    EXPECT_NEAR(got_seconds, double(b.used_ms) / double(b.moves) / 1000, 0.0051) << band;
  }
}

}  // namespace
}  // namespace pgnbase::dataset
