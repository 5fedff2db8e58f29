// export_dataset on real games, checked by two independent readers against pgnbase's own
// answers: DuckDB over positions/ returns the postings `pgn-query search --fen` confirms,
// explorer/ sums equal `pgn-query explore`, ECO and player counts over games/ equal
// `search --count`; hyparquet reads every file, and its positions rows equal a brute-force
// replay of every stored game. Built on the in-repo lichess sample (always), plus small
// real files of ../shared/data when present.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/fen.h"
#include "dataset/dataset_export.h"
#include "dataset/dataset_key.h"
#include "dataset/dataset_meta.h"
#include "query/database_report.h"
#include "search/explorer.h"
#include "search/game_search.h"
#include "tests/dataset/node_readers.h"
#include "tests/query/query_test_support.h"
#include "store/schema_version.h"
#include "tests/support/shared_data.h"
#include "tests/support/temp_dir.h"

namespace pgnbase::dataset {
namespace {

namespace fs = std::filesystem;
using dataset_test::duckdb_rows;
using dataset_test::duckdb_value;
using dataset_test::hyparquet_dump;

const fs::path kSample = fs::path(PGNBASE_SOURCE_DIR) / "tools" / "sample" / "lichess-drnykterstein-2000.pgn.zst";

std::string table(const fs::path& dir, const char* name) {
  return "read_parquet('" + (dir / name / "*" / "*.parquet").string() + "', hive_partitioning = true)";
}

std::vector<fs::path> parquet_files(const fs::path& dir, const char* name) {
  std::vector<fs::path> out;
  if (!fs::exists(dir / name)) return out;
  for (const auto& e : fs::recursive_directory_iterator(dir / name))
    if (e.path().extension() == ".parquet") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// The FENs of ../shared/data/fen-search-expected.tsv (none when it is absent).
std::vector<std::string> expected_fens() {
  std::vector<std::string> fens;
  std::ifstream in(test::shared_data() / "fen-search-expected.tsv");
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> fields;
    std::istringstream cells(line);
    for (std::string f; std::getline(cells, f, '\t');) fields.push_back(f);
    if (fields.size() > 3) fens.push_back(fields[3]);
  }
  return fens;
}

// Positions of the database's games: every 9th ply of every 13th game, distinct.
std::vector<Board> sampled_positions(const std::vector<query_test::ReplayedGame>& games) {
  std::vector<Board> out;
  std::set<Key> seen;
  for (size_t g = 0; g < games.size(); g += 13) {
    for (size_t ply = 0; ply < games[g].fens.size(); ply += 9) {
      Board b = query_test::board_of(games[g].fens[ply]);
      if (seen.insert(b.key()).second) out.push_back(b);
    }
  }
  return out;
}

// "game_id\tply" of every occurrence of the position, from pgnbase's own search.
std::vector<std::string> searched_postings(store::Database& db, const Board& position) {
  search::SearchOptions options;
  options.filter.position = position;
  search::GameSearch search(db, options);
  std::vector<std::string> out;
  while (search.next())
    for (uint32_t ply : search.plies()) out.push_back(std::to_string(search.row().id) + "\t" + std::to_string(ply));
  return out;
}

// The same from DuckDB over positions/, for many positions in one query: by signed key.
std::map<int64_t, std::vector<std::string>> dataset_postings(const fs::path& dir, const std::vector<Board>& positions) {
  std::string keys;
  for (const Board& b : positions) keys += (keys.empty() ? "" : ",") + std::to_string(signed_key(b.key()));
  std::map<int64_t, std::vector<std::string>> out;
  for (const std::string& row : duckdb_rows("SELECT key, game_id, ply FROM " + table(dir, "positions") +
                                            " WHERE key IN (" + keys + ") ORDER BY key, game_id, ply")) {
    const size_t tab = row.find('\t');
    out[std::stoll(row.substr(0, tab))].push_back(row.substr(tab + 1));
  }
  return out;
}

class DatasetExportTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new test::TempDir();
    db_path_ = dir_->file("real.db");
    std::vector<std::string> files{kSample.string()};
    if (test::have_shared_data())
      for (const char* name : {"annotated/pychess-learn-lichess-studies.pgn", "notation/fischer-petrosian-en.pgn",
                               "nasty/lichess-variants/lichess-nonstandard-variants-and-setups.pgn.zst"})
        files.push_back((test::shared_data() / name).string());
    query_test::import_files(db_path_, files);
    games_ = new std::vector<query_test::ReplayedGame>(query_test::replay_all_games(db_path_, true));
    store::Database db = store::open_for_reading(db_path_);
    ExportOptions options;
    options.position_group_rows = 4096;  // several row groups per file
    options.page_rows = 1000;
    summary_ = export_dataset(db, dataset(), options);
  }
  static void TearDownTestSuite() {
    delete games_;
    delete dir_;
  }
  void SetUp() override { PGNBASE_REQUIRE_NODE_READERS(); }

  static fs::path dataset() { return dir_->path() / "dataset"; }

  // The checks, each against the one export of the suite (one test: CTest runs each test
  // in its own process, and the import and export are the slow part under sanitizers).
  static void summary_counts_every_game_and_position();
  static void positions_answer_like_the_fen_search();
  static void explorer_sums_equal_explore();
  static void eco_and_player_counts_equal_search_count();
  static void hyparquet_reads_every_file_as_the_replay_has_it();

  static test::TempDir* dir_;
  static std::string db_path_;
  static std::vector<query_test::ReplayedGame>* games_;
  static ExportSummary summary_;
};

test::TempDir* DatasetExportTest::dir_ = nullptr;
std::string DatasetExportTest::db_path_;
std::vector<query_test::ReplayedGame>* DatasetExportTest::games_ = nullptr;
ExportSummary DatasetExportTest::summary_;

void DatasetExportTest::summary_counts_every_game_and_position() {
  uint64_t postings = 0;
  for (const auto& g : *games_) postings += g.keys.size();
  EXPECT_EQ(summary_.export_number, 1);
  EXPECT_EQ(summary_.games, int64_t(games_->size()));
  EXPECT_EQ(summary_.postings, postings);
  EXPECT_EQ(duckdb_value("SELECT count(*) FROM " + table(dataset(), "positions")), std::to_string(postings));
  EXPECT_EQ(duckdb_value("SELECT count(DISTINCT id) FROM " + table(dataset(), "games")), std::to_string(games_->size()));
  // The bucket folders read as an integer column, and each holds only its own keys.
  EXPECT_EQ(duckdb_value("SELECT count(*) FROM " + table(dataset(), "positions") + " WHERE kb <> ((key >> 58) & 63)"),
            "0");
  EXPECT_EQ(duckdb_value("SELECT DISTINCT typeof(kb) FROM " + table(dataset(), "explorer")), "BIGINT");
  // The first export writes an empty removed/ file, so that readers' globs match one.
  EXPECT_EQ(duckdb_value("SELECT count(*) FROM read_parquet('" + (dataset() / "removed" / "*.parquet").string() + "')"),
            "0");
}

void DatasetExportTest::positions_answer_like_the_fen_search() {
  std::vector<Board> positions = sampled_positions(*games_);
  for (const std::string& fen : expected_fens()) positions.push_back(query_test::board_of(fen));
  ASSERT_GT(positions.size(), 100u);
  const auto from_dataset = dataset_postings(dataset(), positions);
  store::Database db = store::open_for_reading(db_path_);
  size_t found = 0;
  for (const Board& b : positions) {
    const std::vector<std::string> searched = searched_postings(db, b);
    const auto it = from_dataset.find(signed_key(b.key()));
    EXPECT_EQ(it == from_dataset.end() ? std::vector<std::string>{} : it->second, searched) << write_fen(b);
    found += !searched.empty();
  }
  EXPECT_GT(found, 100u);
}

void DatasetExportTest::explorer_sums_equal_explore() {
  std::vector<Board> positions{Board()};
  for (const auto& g : *games_)
    if (g.fens.size() > 6 && positions.size() < 40) positions.push_back(query_test::board_of(g.fens[1 + g.id % 6]));
  std::string keys;
  for (const Board& b : positions) keys += (keys.empty() ? "" : ",") + std::to_string(signed_key(b.key()));
  std::map<int64_t, std::vector<std::string>> rows;
  for (const std::string& row : duckdb_rows(
           "SELECT key, next_move, sum(games), sum(white_wins), sum(draws), sum(black_wins), sum(rated_games), "
           "sum(elo_sum) FROM " + table(dataset(), "explorer") + " WHERE key IN (" + keys +
           ") GROUP BY key, next_move ORDER BY key, next_move")) {
    const size_t tab = row.find('\t');
    rows[std::stoll(row.substr(0, tab))].push_back(row.substr(tab + 1));
  }
  // position_games is on one row per key and source: its sum over a key is the games.
  std::map<int64_t, std::string> position_games;
  for (const std::string& row : duckdb_rows("SELECT key, sum(position_games) FROM " + table(dataset(), "explorer") +
                                            " WHERE key IN (" + keys + ") GROUP BY key")) {
    const size_t tab = row.find('\t');
    position_games[std::stoll(row.substr(0, tab))] = row.substr(tab + 1);
  }
  store::Database db = store::open_for_reading(db_path_);
  for (const Board& b : positions) {
    search::ExplorerOptions options;
    options.filter.position = b;
    db.exec("BEGIN");
    const search::ExplorerResult r = search::explore(db, options);
    db.exec("COMMIT");
    // The explorer's moves as (code, counts) lines; games that ended here are code 0.
    std::vector<std::string> expected;
    const std::string games = std::to_string(r.games);
    if (r.ended_here) expected.push_back("0\t" + std::to_string(r.ended_here));
    for (const search::ExplorerMove& m : r.moves)
      expected.push_back(std::to_string(encode_move(b, m.move)) + "\t" + std::to_string(m.games) + "\t" +
                         std::to_string(m.white_wins) + "\t" + std::to_string(m.draws) + "\t" +
                         std::to_string(m.black_wins) + "\t" + std::to_string(m.rated_games) + "\t" +
                         std::to_string(int64_t(m.rating_sum)));
    std::vector<std::string> actual;
    for (const std::string& row : rows[signed_key(b.key())])
      actual.push_back(row.rfind("0\t", 0) == 0 ? row.substr(0, row.find('\t', 2)) : row);
    std::sort(expected.begin(), expected.end());
    std::sort(actual.begin(), actual.end());
    EXPECT_EQ(actual, expected) << write_fen(b);
    EXPECT_EQ(position_games[signed_key(b.key())], games) << write_fen(b);
  }
}

void DatasetExportTest::eco_and_player_counts_equal_search_count() {
  store::Database db = store::open_for_reading(db_path_);
  auto search_count = [&](search::GameFilter filter) {
    search::SearchOptions options;
    options.filter = std::move(filter);
    return std::to_string(search::GameSearch(db, options).count());
  };
  for (const char* eco : {"B20-B99", "C60-C99", "A", "D", "E60", "C"}) {
    search::GameFilter f;
    const search::EcoRange range = search::parse_eco_range(eco).value();
    f.eco = range;
    EXPECT_EQ(duckdb_value("SELECT count(*) FROM " + table(dataset(), "games") + " WHERE eco >= '" + range.low +
                           "' AND eco < '" + range.high_exclusive + "'"),
              search_count(f))
        << eco;
  }
  // One-word handles match the names holding that word, here exactly one spelling, in
  // any case; "=NAME" is one stored spelling (a typed "Fischer, Robert J." also finds
  // "Fischer, R." and the like: search/name_match.h).
  for (const char* player : {"DrNykterstein", "drnykterstein", "=Fischer, Robert J.", "Blazinq"}) {
    search::GameFilter f;
    f.player = search::NamePattern{player};
    const bool exact = player[0] == '=';
    const std::string name = exact ? std::string(player + 1) : std::string(player);
    const std::string where = exact ? "white = '" + name + "' OR black = '" + name + "'"
                                    : "lower(white) = lower('" + name + "') OR lower(black) = lower('" + name + "')";
    EXPECT_EQ(duckdb_value("SELECT count(*) FROM " + table(dataset(), "games") + " WHERE " + where), search_count(f))
        << player;
  }
}

// Every file through hyparquet: positions rows equal the brute-force replay of every
// game, key statistics equal each row group's range, and no key spans two row groups.
void DatasetExportTest::hyparquet_reads_every_file_as_the_replay_has_it() {
  std::map<int64_t, std::string> results;  // id -> "result\tsource_id", the last two columns
  {
    store::Database db = store::open_for_reading(db_path_);
    store::Statement s = db.prepare("SELECT id, result, source_id FROM games");
    while (s.step())
      results[s.column_int64(0)] = std::to_string(s.column_int64(1)) + "\t" + std::to_string(s.column_int64(2));
  }
  std::vector<std::string> expected;
  for (const auto& g : *games_)
    for (size_t ply = 0; ply < g.keys.size(); ++ply)
      expected.push_back(std::to_string(signed_key(g.keys[ply])) + "\t" + std::to_string(g.id) + "\t" +
                         std::to_string(ply) + "\t" + std::to_string(ply < g.codes.size() ? g.codes[ply] : 0) + "\t" +
                         results[g.id]);
  std::sort(expected.begin(), expected.end());

  const std::vector<std::string> dump = hyparquet_dump(parquet_files(dataset(), "positions"));
  std::vector<std::string> rows;
  std::vector<int64_t> group_sizes;
  std::vector<std::pair<int64_t, int64_t>> key_stats;  // per row group, from the statistics
  auto check_file = [&](size_t first_row) {
    size_t row = first_row;
    int64_t previous_last = 0;
    for (size_t g = 0; g < group_sizes.size(); ++g) {
      const int64_t first = std::stoll(rows[row]), last = std::stoll(rows[row + size_t(group_sizes[g]) - 1]);
      EXPECT_EQ(key_stats[g], std::make_pair(first, last)) << "row group " << g;
      if (g > 0) {
        EXPECT_LT(previous_last, first) << "a key spans row groups " << g - 1 << " and " << g;
      }
      previous_last = last;
      row += size_t(group_sizes[g]);
    }
    group_sizes.clear();
    key_stats.clear();
  };
  size_t file_first_row = 0, files = 0;
  for (const std::string& line : dump) {
    if (line.rfind("file ", 0) == 0) {
      check_file(file_first_row);
      file_first_row = rows.size();
      ++files;
    } else if (line.rfind("row ", 0) == 0) {
      rows.push_back(line.substr(4));
    } else if (line.rfind("row_group ", 0) == 0) {
      std::istringstream in(line.substr(10));
      int index;
      int64_t n;
      in >> index >> n;
      group_sizes.push_back(n);
      std::string sorted_by;
      in >> sorted_by >> sorted_by;
      EXPECT_EQ(sorted_by, "0,1,2");
    } else if (line.rfind("stats ", 0) == 0 && line.find(" key ") != std::string::npos) {
      std::istringstream in(line);
      std::string word, codec, encodings, nulls;
      int64_t min, max;
      in >> word >> word >> word >> codec >> encodings >> nulls >> min >> max;
      EXPECT_EQ(codec, "ZSTD");
      EXPECT_EQ(nulls, "0");
      key_stats.emplace_back(min, max);
    }
  }
  check_file(file_first_row);
  EXPECT_EQ(files, parquet_files(dataset(), "positions").size());
  EXPECT_GT(files, 32u);
  std::sort(rows.begin(), rows.end());
  EXPECT_EQ(rows, expected);

  // Games: every id once, with its moves as little-endian 16-bit codes.
  std::vector<std::string> game_rows, expected_games;
  for (const std::string& line : hyparquet_dump(parquet_files(dataset(), "games"))) {
    if (line.rfind("row ", 0) != 0) continue;
    std::vector<std::string> cells;
    std::istringstream in(line.substr(4));
    for (std::string c; std::getline(in, c, '\t');) cells.push_back(c);
    ASSERT_EQ(cells.size(), 25u);
    game_rows.push_back(cells[0] + " " + cells[18] + " " + cells[22]);  // id, plies, moves
  }
  for (const auto& g : *games_) {
    std::string hex;
    char byte[3];
    for (MoveCode c : g.codes)
      for (int shift : {0, 8}) {
        std::snprintf(byte, sizeof byte, "%02x", unsigned(c >> shift) & 0xFF);
        hex += byte;
      }
    expected_games.push_back(std::to_string(g.id) + " " + std::to_string(g.codes.size()) + " " + hex);
  }
  std::sort(game_rows.begin(), game_rows.end());
  std::sort(expected_games.begin(), expected_games.end());
  EXPECT_EQ(game_rows, expected_games);

  // Explorer: the same rows through both readers.
  std::vector<std::string> explorer;
  for (const std::string& line : hyparquet_dump(parquet_files(dataset(), "explorer")))
    if (line.rfind("row ", 0) == 0) explorer.push_back(line.substr(4));
  std::vector<std::string> duck = duckdb_rows("SELECT * EXCLUDE (kb) FROM " + table(dataset(), "explorer"));
  std::sort(explorer.begin(), explorer.end());
  std::sort(duck.begin(), duck.end());
  EXPECT_EQ(explorer.size(), summary_.explorer_rows);
  EXPECT_EQ(explorer, duck);
}

TEST_F(DatasetExportTest, ExportedDatasetAnswersLikePgnbase) {
  {
    SCOPED_TRACE("SummaryCountsEveryGameAndPosition");
    summary_counts_every_game_and_position();
  }
  {
    SCOPED_TRACE("PositionsAnswerLikeTheFenSearch");
    positions_answer_like_the_fen_search();
  }
  {
    SCOPED_TRACE("ExplorerSumsEqualExplore");
    explorer_sums_equal_explore();
  }
  {
    SCOPED_TRACE("EcoAndPlayerCountsEqualSearchCount");
    eco_and_player_counts_equal_search_count();
  }
  {
    SCOPED_TRACE("HyparquetReadsEveryFileAsTheReplayHasIt");
    hyparquet_reads_every_file_as_the_replay_has_it();
  }
}

}  // namespace
}  // namespace pgnbase::dataset
