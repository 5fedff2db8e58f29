// --order with --desc against a sort of every game done here: newest first with unknown
// dates last, weakest first with unrated games last, ids from the end; with and without
// a header filter and a position (the three ways GameSearch selects games).
#include <gtest/gtest.h>

#include <algorithm>

#include "core/fen.h"
#include "search/game_search.h"
#include "query_test_support.h"
#include "tests/support/shared_data.h"
#include "tests/support/temp_dir.h"
#include "tests/support/bundled_sample.h"

namespace pgnbase {
namespace {

struct Key {
  int64_t id;
  std::optional<int64_t> date, white_elo, black_elo;
  std::string white;
};

class SearchOrderTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new test::TempDir;
    std::vector<std::string> files = {test::kSample.string()};
    if (test::have_shared_data()) {
      files.push_back((test::shared_data() / "nasty" / "pgn-extract-tests" / "fischer.pgn").string());
      files.push_back((test::shared_data() / "nasty" / "pgn-extract-tests" / "petrosian.pgn").string());
    }
    query_test::import_files(dir_->file("o.db"), files);
  }
  static void TearDownTestSuite() { delete dir_; }

  static std::vector<Key> keys() {
    store::Database db(dir_->file("o.db"), store::Database::Mode::ReadOnly);
    store::Statement s = db.prepare(
        "SELECT g.id, g.date_key, g.white_elo, g.black_elo, coalesce(w.name, '') FROM games g "
        "LEFT JOIN names w ON w.id = g.white_id ORDER BY g.id");
    std::vector<Key> out;
    auto opt = [&](int c) { return s.column_is_null(c) ? std::nullopt : std::optional<int64_t>(s.column_int64(c)); };
    while (s.step()) out.push_back({s.column_int64(0), opt(1), opt(2), opt(3), std::string(s.column_text(4))});
    return out;
  }

  static std::vector<int64_t> run(search::SearchOptions options) {
    store::Database db(dir_->file("o.db"), store::Database::Mode::ReadOnly);
    search::GameSearch search(db, std::move(options));
    std::vector<int64_t> ids;
    while (search.next()) ids.push_back(search.row().id);
    return ids;
  }

  static test::TempDir* dir_;
};
test::TempDir* SearchOrderTest::dir_ = nullptr;

// The expected order: known values by the sort direction, unknown ones last; ties by id
// in the same direction.
std::vector<int64_t> expected(std::vector<Key> games, search::GameOrder order, bool desc) {
  auto value = [&](const Key& k) -> std::optional<int64_t> {
    if (order == search::GameOrder::Date) return k.date;
    if (order == search::GameOrder::Elo) {
      if (!k.white_elo && !k.black_elo) return std::nullopt;
      return k.white_elo.value_or(*k.black_elo) + k.black_elo.value_or(*k.white_elo);
    }
    return int64_t(0);
  };
  // Elo's natural order is strongest first; --desc turns it round.
  const bool larger_first = order == search::GameOrder::Elo ? !desc : desc;
  std::stable_sort(games.begin(), games.end(), [&](const Key& a, const Key& b) {
    const auto va = value(a), vb = value(b);
    if (va.has_value() != vb.has_value()) return va.has_value();
    if (va && *va != *vb) return larger_first ? *va > *vb : *va < *vb;
    return desc ? a.id > b.id : a.id < b.id;
  });
  std::vector<int64_t> ids;
  for (const Key& k : games) ids.push_back(k.id);
  return ids;
}

// One test, one import (each test is its own process under CTest): the three ways
// GameSearch selects games.
TEST_F(SearchOrderTest, EveryOrderBothWaysMatchesASortDoneHere) {
  const std::vector<Key> games = keys();
  for (search::GameOrder order : {search::GameOrder::Id, search::GameOrder::Date, search::GameOrder::Elo})
    for (bool desc : {false, true}) {
      search::SearchOptions options;
      options.order = order;
      options.descending = desc;
      EXPECT_EQ(run(options), expected(games, order, desc)) << int(order) << " desc " << desc;
    }

  // With a player filter (the ids come from the name index).
  std::vector<Key> filtered = games;
  std::erase_if(filtered, [](const Key& k) { return k.white != "DrNykterstein"; });
  search::SearchOptions options;
  options.filter.white = search::NamePattern{"DrNykterstein"};
  options.order = search::GameOrder::Date;
  options.descending = true;
  options.limit = 50;
  std::vector<int64_t> want = expected(filtered, search::GameOrder::Date, true);
  want.resize(50);
  EXPECT_EQ(run(options), want);

  // A position search (candidates from the position index).
  // After 1.e4 c5: many games of both files.
  const Board board = parse_fen("rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2").value();
  search::SearchOptions forward;
  forward.filter.position = board;
  std::vector<int64_t> ids = run(forward);
  ASSERT_GT(ids.size(), 10u);
  search::SearchOptions backward = forward;
  backward.descending = true;
  std::reverse(ids.begin(), ids.end());
  EXPECT_EQ(run(backward), ids);
  backward.order = search::GameOrder::Date;
  const std::vector<int64_t> newest = run(backward);
  for (size_t i = 1; i < newest.size(); ++i) {
    const auto a = games[size_t(newest[i - 1] - 1)].date, b = games[size_t(newest[i] - 1)].date;
    if (a && b) {
      EXPECT_GE(*a, *b);
    }
    if (!a) {
      EXPECT_FALSE(b.has_value());  // unknown dates last
    }
  }
}

}  // namespace
}  // namespace pgnbase
