// The ECO, date and Elo indexes leave out the games whose column is NULL (store/schema.h):
// counting the games of a filter on those columns must still read its index, never every
// game, and the filter must find what a scan finds. Hand-made games (1. e4 e5), some without
// the tag each index is on, so that each column holds NULLs.
#include <gtest/gtest.h>

#include <string>

#include "search/game_filter.h"
#include "search/game_search.h"
#include "store/game_query.h"
#include "query_test_support.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"

namespace pgnbase::query {
namespace {

class FilterIndexTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new test::TempDir;
    std::string pgn;
    for (int i = 0; i < 40; ++i) {
      pgn += "[Event \"indexed\"]\n[White \"W" + std::to_string(i) + "\"]\n[Black \"B" + std::to_string(i) + "\"]\n";
      // Every third game lacks a date, every fourth a White Elo, every fifth a Black Elo
      // and every sixth starts from a set-up position (no computed ECO).
      if (i % 3 != 0) pgn += "[Date \"20" + std::to_string(10 + i % 10) + ".01.01\"]\n";
      if (i % 4 != 0) pgn += "[WhiteElo \"" + std::to_string(2000 + 20 * i) + "\"]\n";
      if (i % 5 != 0) pgn += "[BlackElo \"" + std::to_string(2800 - 20 * i) + "\"]\n";
      if (i % 6 == 0) pgn += "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 Kd7 *\n\n";
      else pgn += "\n1. e4 e5 *\n\n";
    }
    test::write_file(dir_->file("nulls.pgn"), pgn);
    db_path_ = dir_->file("nulls.db");
    query_test::import_files(db_path_, {dir_->file("nulls.pgn")});
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }

  // The query plan of the filter's count (a listing in id order may rather scan the
  // games in that order, with or without these indexes), one line per step.
  static std::string plan_of(const search::GameFilter& filter) {
    store::Database db(db_path_, store::Database::Mode::ReadOnly);
    store::SqlQuery q = store::build_game_count_query(filter.sql_conditions(db));
    store::Statement plan = db.prepare("EXPLAIN QUERY PLAN " + q.sql);
    q.bind(plan);
    std::string text;
    while (plan.step()) text += std::string(plan.column_text(3)) + "\n";
    return text;
  }
  // The games the filter's search finds, and the count a scan of every row finds.
  static int64_t found(const search::GameFilter& filter) {
    store::Database db(db_path_, store::Database::Mode::ReadOnly);
    search::SearchOptions options;
    options.filter = filter;
    return search::GameSearch(db, options).count();
  }
  static int64_t scanned(const std::string& where) {
    store::Database db(db_path_, store::Database::Mode::ReadOnly);
    store::Statement s = db.prepare("SELECT count(*) FROM games NOT INDEXED WHERE " + where);
    return s.step() ? s.column_int64(0) : -1;
  }

  static test::TempDir* dir_;
  static std::string db_path_;
};

test::TempDir* FilterIndexTest::dir_ = nullptr;
std::string FilterIndexTest::db_path_;

TEST_F(FilterIndexTest, EachColumnHoldsNulls) {
  EXPECT_GT(scanned("date_key IS NULL"), 0);
  EXPECT_GT(scanned("white_elo IS NULL"), 0);
  EXPECT_GT(scanned("black_elo IS NULL"), 0);
  EXPECT_GT(scanned("eco IS NULL"), 0);
}

TEST_F(FilterIndexTest, AnEcoRangeReadsTheEcoIndex) {
  search::GameFilter f;
  f.eco = search::parse_eco_range("C20").value();
  const std::string plan = plan_of(f);
  EXPECT_NE(plan.find("games_eco"), std::string::npos) << plan;
  EXPECT_EQ(plan.find("SCAN g"), std::string::npos) << plan;
  EXPECT_GT(found(f), 0);
  EXPECT_EQ(found(f), scanned("eco >= 'C20' AND eco < 'C21'"));
}

TEST_F(FilterIndexTest, ADateRangeReadsTheDateIndex) {
  search::GameFilter from, to;
  from.date_from_key = search::parse_date_bound("2015", false).value();
  to.date_to_key = search::parse_date_bound("2013", true).value();
  for (const search::GameFilter& f : {from, to}) {
    const std::string plan = plan_of(f);
    EXPECT_NE(plan.find("games_date"), std::string::npos) << plan;
    EXPECT_EQ(plan.find("SCAN g"), std::string::npos) << plan;
  }
  EXPECT_GT(found(from), 0);
  EXPECT_EQ(found(from), scanned("date_key >= 20150000"));
  EXPECT_GT(found(to), 0);
  EXPECT_EQ(found(to), scanned("date_key <= 20131231"));
}

TEST_F(FilterIndexTest, EloRangesOfBothOrEitherPlayerReadTheEloIndexes) {
  search::GameFilter both, either, below;
  both.min_elo = 2300;
  either.min_elo = 2400;
  either.elo_either = true;
  below.max_elo = 2200;
  below.elo_either = true;
  for (const search::GameFilter& f : {both, either, below}) {
    const std::string plan = plan_of(f);
    EXPECT_NE(plan.find("_elo"), std::string::npos) << plan;
    EXPECT_EQ(plan.find("SCAN g"), std::string::npos) << plan;
  }
  // Either player: both indexes, one for each side of the OR.
  const std::string plan = plan_of(either);
  EXPECT_NE(plan.find("games_white_elo"), std::string::npos) << plan;
  EXPECT_NE(plan.find("games_black_elo"), std::string::npos) << plan;
  EXPECT_GT(found(both), 0);
  EXPECT_EQ(found(both), scanned("white_elo >= 2300 AND black_elo >= 2300"));
  EXPECT_EQ(found(either), scanned("white_elo >= 2400 OR black_elo >= 2400"));
  EXPECT_GT(found(below), 0);
  EXPECT_EQ(found(below), scanned("white_elo <= 2200 OR black_elo <= 2200"));
}

}  // namespace
}  // namespace pgnbase::query
