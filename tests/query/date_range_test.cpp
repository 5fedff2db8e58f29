// --date-from/--date-to and --order date on games whose dates are partly known: a game
// matches a range when every day it may have been played lies inside the range
// (query/README.md). Hand-made games in every Date form, and the real Fischer and
// Petrosian collections, most of them dated by the year alone.
#include <gtest/gtest.h>

#include <algorithm>

#include "search/game_filter.h"
#include "search/game_search.h"
#include "query_test_support.h"
#include "tests/support/files.h"
#include "tests/support/shared_data.h"
#include "tests/support/temp_dir.h"

namespace pgnbase::query {
namespace {

using Ids = std::vector<int64_t>;

// Game ids follow this order; each game is 1. e4 e5 with its own date tags.
constexpr std::string_view kDatedGames[] = {
    "[Date \"1957\"]",                                  // 1
    "[Date \"1957.??.??\"]",                            // 2
    "[Date \"1957.05\"]",                               // 3
    "[Date \"1957-05-17\"]",                            // 4
    "[Date \"1957/05/31\"]",                            // 5
    "[Date \" 1957.06.01 \"]",                          // 6
    "[Date \"????.??.??\"]\n[UTCDate \"1957.05.20\"]",  // 7: a lichess export without a usable Date
    "[UTCDate \"1957.12.31\"]",                         // 8: a lichess export without Date
    "[Date \"????.??.??\"]",                            // 9
    "[Date \"1958.01.01\"]",                            // 10
    "[Date \"1956.12\"]",                               // 11
    "[Date \"1957.02\"]",                               // 12
};

Ids ids(const std::string& db_path, const search::GameFilter& filter, search::GameOrder order = search::GameOrder::Id) {
  store::Database db(db_path, store::Database::Mode::ReadOnly);
  search::SearchOptions options;
  options.filter = filter;
  options.order = order;
  search::GameSearch search(db, options);
  Ids out;
  while (search.next()) out.push_back(search.row().id);
  EXPECT_EQ(search::GameSearch(db, options).count(), int64_t(out.size()));
  return out;
}

// Games inside [from, to] as pgn-query reads the bounds; "" leaves a side open.
Ids between(const std::string& db_path, std::string_view from, std::string_view to) {
  search::GameFilter f;
  if (!from.empty()) f.date_from_key = search::parse_date_bound(from, false).value();
  if (!to.empty()) f.date_to_key = search::parse_date_bound(to, true).value();
  return ids(db_path, f);
}

class DateRangeTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new test::TempDir;
    std::string pgn;
    for (std::string_view tags : kDatedGames) pgn += "[Event \"dated\"]\n" + std::string(tags) + "\n\n1. e4 e5 *\n\n";
    test::write_file(dir_->file("dated.pgn"), pgn);
    db_path_ = dir_->file("dated.db");
    query_test::import_files(db_path_, {dir_->file("dated.pgn")});
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  static Ids between(std::string_view from, std::string_view to) { return query::between(db_path_, from, to); }

  static test::TempDir* dir_;
  static std::string db_path_;
};

test::TempDir* DateRangeTest::dir_ = nullptr;
std::string DateRangeTest::db_path_;

TEST_F(DateRangeTest, AGameOfAYearIsInsideThatYear) {
  const Ids year_1957 = {1, 2, 3, 4, 5, 6, 7, 8, 12};
  EXPECT_EQ(between("1957", "1957"), year_1957);
  EXPECT_EQ(between("1957.01.01", "1957.12.31"), year_1957);
  EXPECT_EQ(between("1957.01", "1957.12"), year_1957);
  EXPECT_EQ(between("1956", "1958"), (Ids{1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12}));
}

TEST_F(DateRangeTest, AGameOfAYearIsNotInsidePartOfThatYear) {
  EXPECT_EQ(between("1957.05", "1957.05"), (Ids{3, 4, 5, 7}));
  EXPECT_EQ(between("1957.05.01", "1957.05.31"), (Ids{3, 4, 5, 7}));
  EXPECT_EQ(between("1957.03", "1957.06"), (Ids{3, 4, 5, 6, 7}));
  EXPECT_EQ(between("1957.05.17", "1957.05.17"), (Ids{4}));
  EXPECT_EQ(between("1957.05.02", "1957.05.30"), (Ids{4, 7}));  // "1957.05" may be any day of May
}

TEST_F(DateRangeTest, OneSidedRangesNeedTheWholeGameOnTheirSide) {
  EXPECT_EQ(between("", "1957.05"), (Ids{3, 4, 5, 7, 11, 12}));
  EXPECT_EQ(between("1957.06", ""), (Ids{6, 8, 10}));
  EXPECT_EQ(between("1957", ""), (Ids{1, 2, 3, 4, 5, 6, 7, 8, 10, 12}));
  EXPECT_EQ(between("", "1957"), (Ids{1, 2, 3, 4, 5, 6, 7, 8, 11, 12}));
}

TEST_F(DateRangeTest, LastDayOfAMonthTakesInTheWholeMonth) {
  EXPECT_EQ(between("", "1957.02.28"), (Ids{11, 12}));
  EXPECT_EQ(between("", "1957.02.27"), (Ids{11}));
  EXPECT_EQ(between("1956.12.01", "1956.12.31"), (Ids{11}));
  EXPECT_EQ(between("1956.12.02", "1956.12.31"), (Ids{}));
}

TEST_F(DateRangeTest, UnknownDatesAreInNoRange) {
  for (const Ids& found : {between("0001", "9999"), between("0001", ""), between("", "9999")})
    EXPECT_EQ(std::count(found.begin(), found.end(), 9), 0);
}

TEST_F(DateRangeTest, OrderDatePutsAPartlyKnownDateFirstInItsYearOrMonth) {
  EXPECT_EQ(ids(db_path_, search::GameFilter{}, search::GameOrder::Date), (Ids{11, 1, 2, 12, 3, 4, 7, 5, 6, 8, 10, 9}));
  search::GameFilter f;  // the same order through the filtered path
  f.date_from_key = 19570000;
  EXPECT_EQ(ids(db_path_, f, search::GameOrder::Date), (Ids{1, 2, 12, 3, 4, 7, 5, 6, 8, 10}));
}

TEST_F(DateRangeTest, DateColumnKeepsTheTagAsWritten) {
  store::Database db(db_path_, store::Database::Mode::ReadOnly);
  store::Statement s = db.prepare("SELECT id, date, date_key FROM games WHERE id IN (1, 5, 6, 7, 8) ORDER BY id");
  std::vector<std::string> rows;
  while (s.step())
    rows.push_back(std::to_string(s.column_int64(0)) + "|" + (s.column_is_null(1) ? "<null>" : std::string(s.column_text(1))) +
                   "|" + std::to_string(s.column_int64(2)));
  EXPECT_EQ(rows, (std::vector<std::string>{"1|1957|19570000", "5|1957/05/31|19570531", "6| 1957.06.01 |19570601",
                                            "7|????.??.??|19570520", "8|<null>|19571231"}));
}

// pgn-extract's Fischer and Petrosian collections: 37 of their 69 games are dated by the
// year alone ("1959"), 4 more "1959.??.??".
class RealDatesTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!test::have_shared_data()) return;
    real_dir_ = new test::TempDir;
    real_db_ = real_dir_->file("fischer-petrosian.db");
    const auto folder = test::shared_data() / "nasty" / "pgn-extract-tests";
    query_test::import_files(real_db_, {(folder / "fischer.pgn").string(), (folder / "petrosian.pgn").string()});
  }
  static void TearDownTestSuite() {
    delete real_dir_;
    real_dir_ = nullptr;
  }
  void SetUp() override {
    PGNBASE_REQUIRE_SHARED("nasty/pgn-extract-tests/fischer.pgn", "nasty/pgn-extract-tests/petrosian.pgn");
  }
  static test::TempDir* real_dir_;
  static std::string real_db_;
};

test::TempDir* RealDatesTest::real_dir_ = nullptr;
std::string RealDatesTest::real_db_;

TEST_F(RealDatesTest, FischerGamesOf1959AreAllFound) {
  // fischer.pgn: 7 games dated "1959", 3 "1959.??.??"; petrosian.pgn none of 1959.
  EXPECT_EQ(between(real_db_, "1959", "1959").size(), 10u);
  EXPECT_EQ(between(real_db_, "1959.01.01", "1959.12.31").size(), 10u);
  EXPECT_EQ(between(real_db_, "1959.03", "1959.05").size(), 0u);  // no month is known
}

TEST_F(RealDatesTest, OrderDateSortsEveryGameByItsYear) {
  store::Database db(real_db_, store::Database::Mode::ReadOnly);
  store::Statement unknown = db.prepare("SELECT count(*) FROM games WHERE date_key IS NULL");
  ASSERT_TRUE(unknown.step());
  EXPECT_EQ(unknown.column_int64(0), 0);
  const Ids ordered = ids(real_db_, search::GameFilter{}, search::GameOrder::Date);
  ASSERT_EQ(ordered.size(), 69u);
  int previous_year = 0;
  for (int64_t id : ordered) {
    store::Statement s = db.prepare("SELECT date FROM games WHERE id = ?1");
    s.bind_int64(1, id);
    ASSERT_TRUE(s.step());
    const int year = std::stoi(std::string(s.column_text(0).substr(0, 4)));
    EXPECT_LE(previous_year, year) << "game " << id;
    previous_year = year;
  }
}

}  // namespace
}  // namespace pgnbase::query
