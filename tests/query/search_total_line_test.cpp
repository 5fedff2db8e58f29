// The line after a search table (query/search_output.h): how many games match, counted
// by a second search where that examines few games, and left to --count where it would
// replay more candidates of a position, or scan a pattern over more games, than the
// output's limit allows. On the bundled sample (2,000 real lichess games).
#include <gtest/gtest.h>

#include <string>

#include "core/fen.h"
#include "core/plural.h"
#include "io/output_file.h"
#include "query/search_output.h"
#include "query_test_support.h"
#include "search/game_search.h"
#include "search/pattern.h"
#include "tests/support/bundled_sample.h"
#include "tests/support/temp_dir.h"

namespace pgnbase::query {
namespace {

// After 1. e4: the sample's most common position but the first.
constexpr std::string_view kAfterE4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";

class SearchTotalLine : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new test::TempDir("total-line");
    db_path_ = new std::string((dir_->path() / "sample.db").string());
    query_test::import_files(*db_path_, {test::kSample.string()});
  }
  static void TearDownTestSuite() {
    delete db_path_;
    delete dir_;
  }

  // The table's last line for these options.
  static std::string last_line(const search::SearchOptions& options, uint64_t max_games = 20000) {
    store::Database db(*db_path_, store::Database::Mode::ReadOnly);
    SearchOutputOptions output;
    output.total_line_max_games = max_games;
    std::string text;
    {
      io::OutputFile out(&text);
      run_search(db, options, output, out);
      out.close();
    }
    while (!text.empty() && text.back() == '\n') text.pop_back();
    return text.substr(text.rfind('\n') + 1);
  }

  // How many games match, by --count's way.
  static int64_t matching(search::SearchOptions options) {
    store::Database db(*db_path_, store::Database::Mode::ReadOnly);
    options.limit.reset();
    options.offset = 0;
    return search::GameSearch(db, std::move(options)).count();
  }

  // The candidate games of a position search (from the index, before replay).
  static uint64_t candidates(search::SearchOptions options) {
    store::Database db(*db_path_, store::Database::Mode::ReadOnly);
    search::GameSearch search(db, std::move(options));
    EXPECT_TRUE(search.next());
    return search.candidate_games();
  }

  static search::SearchOptions after_e4(int64_t limit) {
    search::SearchOptions options;
    options.filter.position = parse_fen(kAfterE4).value();
    options.limit = limit;
    return options;
  }

  static search::SearchOptions queen_endings(int64_t limit) {
    search::PatternText text;
    text.material = "KQvKQ";
    search::SearchOptions options;
    options.filter.pattern = search::build_pattern(text).value();
    options.limit = limit;
    return options;
  }

  static test::TempDir* dir_;
  static std::string* db_path_;
};

test::TempDir* SearchTotalLine::dir_ = nullptr;
std::string* SearchTotalLine::db_path_ = nullptr;

TEST_F(SearchTotalLine, ACutPositionSearchCountsItsGamesWhenItsCandidatesAreFew) {
  const int64_t found = matching(after_e4(5));
  ASSERT_GT(found, 5);
  EXPECT_EQ(last_line(after_e4(5)), "5 shown, " + thousands(found) + " of 2,000 games");
  // Counting allowed as many replays as there are candidates: counted still.
  const uint64_t replays = candidates(after_e4(5));
  ASSERT_GE(replays, uint64_t(found));
  EXPECT_EQ(last_line(after_e4(5), replays), "5 shown, " + thousands(found) + " of 2,000 games");
}

TEST_F(SearchTotalLine, ACutPositionSearchOfMoreCandidatesLeavesTheCountToCount) {
  const uint64_t replays = candidates(after_e4(5));
  EXPECT_EQ(last_line(after_e4(5), replays - 1), "5 shown of 2,000 games (--count for how many match)");
  search::SearchOptions skipped = after_e4(5);
  skipped.offset = 3;
  EXPECT_EQ(last_line(skipped, 10), "5 shown of 2,000 games (--count for how many match)");
}

TEST_F(SearchTotalLine, ACutPatternSearchIsCountedOnlyInADatabaseOfFewGames) {
  const int64_t found = matching(queen_endings(2));
  ASSERT_GT(found, 2);
  EXPECT_EQ(last_line(queen_endings(2), 2000), "2 shown, " + thousands(found) + " of 2,000 games");
  EXPECT_EQ(last_line(queen_endings(2), 1999), "2 shown of 2,000 games (--count for how many match)");
}

TEST_F(SearchTotalLine, HeaderFiltersAreAlwaysCountedAndAWholeListNeedsNoCount) {
  search::SearchOptions eco;
  eco.filter.eco = search::parse_eco_range("B").value();
  eco.limit = 4;
  const int64_t found = matching(eco);
  ASSERT_GT(found, 4);
  EXPECT_EQ(last_line(eco, 0), "4 shown, " + thousands(found) + " of 2,000 games");
  // Not cut: the games listed are the games found, whatever the limit on counting.
  search::SearchOptions whole = after_e4(100000);
  EXPECT_EQ(last_line(whole, 0), thousands(matching(whole)) + " of 2,000 games");
}

}  // namespace
}  // namespace pgnbase::query
