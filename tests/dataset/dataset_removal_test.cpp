// Removals and replacements reach the dataset: after `pgn-index --replace` and
// `--remove`, the next `pgn-query export-dataset` appends files (every earlier file byte
// for byte as it was), and DuckDB's answers over the dataset, read as docs/dataset.md
// says (rows whose source_id is in removed/ do not count), equal the database's again:
// the games and their sources, the positions rows, a position's postings, the explorer
// rows of a position. A game that another source also held moves to that source in the
// dataset as in the database. Real games: parts of the bundled lichess sample, through
// the programs themselves.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/board.h"
#include "core/fen.h"
#include "dataset/dataset_key.h"
#include "indexer/input_source.h"
#include "query/database_report.h"
#include "search/explorer.h"
#include "search/game_search.h"
#include "tests/dataset/node_readers.h"
#include "tests/query/query_test_support.h"
#include "store/schema_version.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"

namespace pgnbase::dataset {
namespace {

namespace fs = std::filesystem;
using dataset_test::duckdb_rows;
using dataset_test::duckdb_value;

const std::string kSample =
    (fs::path(PGNBASE_SOURCE_DIR) / "tools" / "sample" / "lichess-drnykterstein-2000.pgn.zst").string();
const std::string kIndexBinary = PGNBASE_BINARY_DIR "/tools/pgn-index";
const std::string kQueryBinary = PGNBASE_BINARY_DIR "/tools/pgn-query";
// After 1.e4: a position most games of the sample reach, next to the start position.
constexpr const char* kAfterE4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";

// The games of the bundled sample, each as its PGN text.
const std::vector<std::string>& sample_games() {
  static const std::vector<std::string> games = [] {
    indexer::InputSource in = indexer::InputSource::open(kSample);
    std::string text;
    std::vector<char> buffer(1 << 16);
    for (size_t n; (n = in.read(buffer.data(), buffer.size())) > 0;) text.append(buffer.data(), n);
    std::vector<std::string> out;
    size_t start = text.find("[Event ");
    while (start != std::string::npos) {
      const size_t next = text.find("\n[Event ", start);
      out.push_back(text.substr(start, next == std::string::npos ? std::string::npos : next + 1 - start));
      start = next == std::string::npos ? next : next + 1;
    }
    return out;
  }();
  return games;
}

// Every file under dir (relative path -> contents).
std::map<std::string, std::string> snapshot(const fs::path& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) out[fs::relative(e.path(), dir).string()] = test::read_file(e.path().string());
  return out;
}

std::vector<std::string> lines_of(store::Database& db, const std::string& sql) {
  std::vector<std::string> out;
  store::Statement s = db.prepare(sql);
  while (s.step()) {
    std::string line = std::to_string(s.column_int64(0));
    for (int i = 1; i < s.column_count(); ++i) line += "\t" + std::to_string(s.column_int64(i));
    out.push_back(line);
  }
  return out;
}

class DatasetRemovalTest : public test::TempDirTest {
 protected:
  std::string db() const { return (dir_ / "games.db").string(); }
  fs::path dataset() const { return dir_ / "dataset"; }

  // Writes the sample's games of the ranges [first, last) to name (in the test's folder).
  void write_part(const std::string& name, const std::vector<std::pair<size_t, size_t>>& ranges) const {
    std::string text;
    for (const auto& [first, last] : ranges)
      for (size_t i = first; i < last; ++i) text += sample_games().at(i) + "\n";
    test::write_file((dir_ / name).string(), text);
  }

  // Runs a program in the test's folder; its stdout, or a failure.
  std::string run(const std::string& program, const std::vector<std::string>& args) const {
    int code = -1;
    const auto out = dataset_test::run_program(dir_, program, args, &code);
    EXPECT_TRUE(out.has_value()) << program << " " << (args.empty() ? "" : args[0]) << ": exit status " << code;
    return out.value_or("");
  }

  // Exports, and expects that the export added files only: no earlier file changed or
  // went (but _meta), every new one is named after export `number`.
  void export_appending(int number) {
    const auto before = fs::exists(dataset()) ? snapshot(dataset()) : std::map<std::string, std::string>{};
    const std::string said = run(kQueryBinary, {"export-dataset", db(), dataset().string()});
    char part[32];
    std::snprintf(part, sizeof part, "part-%06d", number);
    EXPECT_NE(said.find("export " + std::to_string(number) + ":"), std::string::npos) << said;
    const auto after = snapshot(dataset());
    size_t added = 0;
    for (const auto& [path, bytes] : after) {
      if (path == "_meta") continue;
      const auto old = before.find(path);
      if (old == before.end()) {
        EXPECT_NE(path.find(part), std::string::npos) << "export " << number << " wrote " << path;
        ++added;
      } else {
        EXPECT_EQ(bytes, old->second) << path << " was rewritten";
      }
    }
    for (const auto& [path, bytes] : before) EXPECT_TRUE(after.count(path)) << path << " was deleted";
    EXPECT_GT(added, 0u);
  }

  // A table of the dataset as docs/dataset.md reads it: without the rows of removed sources.
  std::string live(const std::string& table) const {
    return "(SELECT * FROM read_parquet('" + (dataset() / table / "*" / "*.parquet").string() +
           "', hive_partitioning = true) WHERE source_id NOT IN (SELECT source_id FROM read_parquet('" +
           (dataset() / "removed" / "*.parquet").string() + "')))";
  }

  // DuckDB over the dataset answers as the database does: its games with their sources,
  // the number of positions rows, and for each of `positions` its postings (game, ply)
  // and explorer rows. The DuckDB statements run in one batch (one node start).
  void expect_dataset_answers_like_database(const std::vector<Board>& positions) {
    store::Database database = store::open_for_reading(db());
    std::vector<std::string> sql;
    std::vector<std::vector<std::string>> expected;
    auto expect = [&](std::string statement, std::vector<std::string> rows) {
      sql.push_back(std::move(statement));
      expected.push_back(std::move(rows));
    };
    expect("SELECT count(*) FROM " + live("games"), lines_of(database, "SELECT count(*) FROM games"));
    expect("SELECT source_id, count(*) FROM " + live("games") + " GROUP BY 1 ORDER BY 1",
           lines_of(database, "SELECT source_id, count(*) FROM games GROUP BY 1 ORDER BY 1"));
    expect("SELECT id, source_id FROM " + live("games") + " ORDER BY id",
           lines_of(database, "SELECT id, source_id FROM games ORDER BY id"));
    expect("SELECT count(*) FROM " + live("positions"),
           lines_of(database, "SELECT coalesce(sum(plies + 1), 0) FROM games"));
    for (const Board& b : positions) {
      const std::string where =
          " WHERE kb = " + std::to_string(b.key() >> 58) + " AND key = " + std::to_string(signed_key(b.key()));
      search::SearchOptions search;
      search.filter.position = b;
      search::GameSearch found(database, search);
      std::vector<std::string> postings;
      while (found.next())
        for (uint32_t ply : found.plies())
          postings.push_back(std::to_string(found.row().id) + "\t" + std::to_string(ply));
      expect("SELECT game_id, ply FROM " + live("positions") + where + " ORDER BY game_id, ply", postings);

      search::ExplorerOptions options;
      options.filter.position = b;
      database.exec("BEGIN");
      const search::ExplorerResult r = search::explore(database, options);
      database.exec("COMMIT");
      // Per move: games, results, rated games and their rating sum; the games that ended
      // here (move 0) by their count only, as explore has it.
      std::vector<std::string> moves;
      if (r.ended_here) moves.push_back("0\t" + std::to_string(r.ended_here));
      for (const search::ExplorerMove& m : r.moves)
        moves.push_back(std::to_string(encode_move(b, m.move)) + "\t" + std::to_string(m.games) + "\t" +
                        std::to_string(m.white_wins) + "\t" + std::to_string(m.draws) + "\t" +
                        std::to_string(m.black_wins) + "\t" + std::to_string(m.rated_games) + "\t" +
                        std::to_string(int64_t(m.rating_sum)));
      std::sort(moves.begin(), moves.end());
      expect("SELECT next_move || '\t' || sum(games) || CASE WHEN next_move = 0 THEN '' ELSE '\t' || "
             "sum(white_wins) || '\t' || sum(draws) || '\t' || sum(black_wins) || '\t' || sum(rated_games) || "
             "'\t' || sum(elo_sum) END AS line FROM " + live("explorer") + where + " GROUP BY next_move ORDER BY line",
             moves);
      expect("SELECT coalesce(sum(position_games), 0) FROM " + live("explorer") + where, {std::to_string(r.games)});
    }
    const std::vector<std::vector<std::string>> answers = dataset_test::duckdb_batch(sql);
    for (size_t i = 0; i < sql.size(); ++i) {
      if (expected[i].size() > 20) {  // the games list: say how it differs, not all of it
        EXPECT_TRUE(answers[i] == expected[i]) << sql[i] << ": " << answers[i].size() << " rows, the database has "
                                               << expected[i].size();
      } else {
        EXPECT_EQ(answers[i], expected[i]) << sql[i];
      }
    }
  }
};

// import a, b; export; --replace b with other games; export; --remove a (the first
// source); export: after each export the dataset answers as the database does.
TEST_F(DatasetRemovalTest, ReplaceAndRemoveReachTheDataset) {
  PGNBASE_REQUIRE_NODE_READERS();
  write_part("a.pgn", {{0, 300}});
  write_part("b.pgn", {{300, 600}});
  run(kIndexBinary, {"-o", db(), "a.pgn", "b.pgn"});
  // The start position, after 1.e4, and two deeper positions: one of a's first game, one
  // of b's, found by replaying the stored games.
  std::vector<Board> positions{Board(), query_test::board_of(kAfterE4)};
  for (const auto& g : query_test::replay_all_games(db(), true))
    if ((g.id == 1 || g.id == 301) && g.fens.size() > 12) positions.push_back(query_test::board_of(g.fens[12]));
  ASSERT_EQ(positions.size(), 4u);

  export_appending(1);
  {
    SCOPED_TRACE("after import and export");
    expect_dataset_answers_like_database(positions);
  }

  write_part("b.pgn", {{300, 450}, {600, 700}});  // half of b again (new ids) and 100 other games
  run(kIndexBinary, {"--replace", "-o", db(), "b.pgn"});
  export_appending(2);
  {
    SCOPED_TRACE("after --replace b.pgn and export");
    expect_dataset_answers_like_database(positions);
  }

  run(kIndexBinary, {"--remove", "a.pgn", "-o", db()});
  export_appending(3);
  {
    SCOPED_TRACE("after --remove a.pgn and export");
    expect_dataset_answers_like_database(positions);
  }
  EXPECT_EQ(duckdb_value("SELECT string_agg(source_id::VARCHAR, ' ' ORDER BY source_id) FROM read_parquet('" +
                         (dataset() / "removed" / "*.parquet").string() + "')"),
            "1 2");

  const auto settled = snapshot(dataset());
  EXPECT_NE(run(kQueryBinary, {"export-dataset", db(), dataset().string()}).find("nothing new"), std::string::npos);
  EXPECT_EQ(snapshot(dataset()), settled);
}

// import a, then b, which holds a's last 100 games (skipped as duplicates); export;
// --remove a; export: those games stay, now b's, in the database and in the dataset.
TEST_F(DatasetRemovalTest, GamesAnotherSourceHeldMoveToItInTheDataset) {
  PGNBASE_REQUIRE_NODE_READERS();
  write_part("a.pgn", {{0, 200}});
  write_part("b.pgn", {{100, 350}});
  run(kIndexBinary, {"-o", db(), "a.pgn", "b.pgn"});
  std::vector<Board> positions{Board(), query_test::board_of(kAfterE4)};
  for (const auto& g : query_test::replay_all_games(db(), true))
    if ((g.id == 1 || g.id == 150) && g.fens.size() > 12) positions.push_back(query_test::board_of(g.fens[12]));
  ASSERT_EQ(positions.size(), 4u);
  export_appending(1);
  {
    SCOPED_TRACE("after import and export");
    expect_dataset_answers_like_database(positions);
  }

  run(kIndexBinary, {"--remove", "a.pgn", "-o", db()});
  {
    store::Database database = store::open_for_reading(db());
    ASSERT_EQ(lines_of(database, "SELECT source_id, count(*), min(id), max(id) FROM games WHERE id <= 200 GROUP BY 1"),
              std::vector<std::string>{"2\t100\t101\t200"});  // a's games 101..200 moved to b
  }
  export_appending(2);
  {
    SCOPED_TRACE("after --remove a.pgn and export");
    expect_dataset_answers_like_database(positions);
  }
  EXPECT_EQ(duckdb_value("SELECT count(*) FROM " + live("games") + " WHERE source_id = 2 AND id BETWEEN 101 AND 200"),
            "100");
  EXPECT_EQ(duckdb_value("SELECT count(*) FROM " + live("games") + " WHERE source = 2"), "250");
}

// Removing every source, the first one included, leaves the database the same database:
// the next export appends to the dataset instead of refusing it as another database's.
TEST_F(DatasetRemovalTest, RemovingEverySourceKeepsTheDatabaseIdentity) {
  PGNBASE_REQUIRE_NODE_READERS();
  write_part("a.pgn", {{0, 20}});
  write_part("b.pgn", {{20, 30}});
  run(kIndexBinary, {"-o", db(), "a.pgn"});
  export_appending(1);
  run(kIndexBinary, {"--remove", "a.pgn", "-o", db()});
  run(kIndexBinary, {"-o", db(), "b.pgn"});
  export_appending(2);
  expect_dataset_answers_like_database({Board()});
  EXPECT_EQ(duckdb_value("SELECT min(id) || ' ' || count(*) FROM " + live("games")), "21 10");
}

}  // namespace
}  // namespace pgnbase::dataset
