// Player reports and name lists against a brute-force scan of every game (the report
// goes through the name indexes and reads games by id; the scan reads the whole games
// table in SQL and counts in the test). Real games: the 2000 lichess games of
// tools/sample (always present), and pgn-extract's Fischer file when ../shared/data is.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "search/game_filter.h"
#include "query/player_report.h"
#include "query_test_support.h"
#include "tests/support/shared_data.h"
#include "tests/support/temp_dir.h"
#include "tests/support/bundled_sample.h"

namespace pgnbase {
namespace {

using query::NameCount;
using query::PlayerReport;
using query::ResultCounts;

const std::string kSample = test::kSample.string();

struct ScannedGame {
  int64_t id;
  std::string white, black, eco, event;
  int result;
  std::optional<int64_t> date_key, white_elo, black_elo;
  int64_t plies;
};

std::vector<ScannedGame> scan(const std::string& db_path) {
  store::Database db(db_path, store::Database::Mode::ReadOnly);
  store::Statement s = db.prepare(
      "SELECT g.id, w.name, b.name, g.result, g.date_key, g.white_elo, g.black_elo, coalesce(g.eco, ''), g.plies, "
      "coalesce(e.name, '') FROM games g LEFT JOIN names w ON w.id = g.white_id LEFT JOIN names b ON b.id = g.black_id "
      "LEFT JOIN names e ON e.id = g.event_id ORDER BY g.id");
  std::vector<ScannedGame> games;
  auto opt = [&](int c) { return s.column_is_null(c) ? std::nullopt : std::optional<int64_t>(s.column_int64(c)); };
  while (s.step())
    games.push_back({s.column_int64(0), std::string(s.column_is_null(1) ? "" : s.column_text(1)),
                     std::string(s.column_is_null(2) ? "" : s.column_text(2)), std::string(s.column_text(7)),
                     std::string(s.column_text(9)), int(s.column_int64(3)), opt(4), opt(5), opt(6), s.column_int64(8)});
  return games;
}

// +1 win, 0 draw, -1 loss, 2 unknown, from the player's side.
int outcome(int result, bool white) {
  if (result == 2) return 0;
  if (result == 1) return white ? 1 : -1;
  if (result == 3) return white ? -1 : 1;
  return 2;
}

void add(ResultCounts& c, int o) {
  ++c.games;
  (o == 1 ? c.wins : o == 0 ? c.draws : o == -1 ? c.losses : c.unknown)++;
}

void expect_same(const ResultCounts& a, const ResultCounts& b, const std::string& what) {
  EXPECT_EQ(a.games, b.games) << what;
  EXPECT_EQ(a.wins, b.wins) << what;
  EXPECT_EQ(a.draws, b.draws) << what;
  EXPECT_EQ(a.losses, b.losses) << what;
  EXPECT_EQ(a.unknown, b.unknown) << what;
}

// Checks the report of one exact name against the scan.
void check_player(const std::string& db_path, const std::vector<ScannedGame>& games, const std::string& name) {
  store::Database db(db_path, store::Database::Mode::ReadOnly);
  query::PlayerReportOptions options;
  options.name = search::NamePattern{name};
  options.top = 0;
  const PlayerReport r = query::build_player_report(db, options);
  ASSERT_EQ(r.names, std::vector<std::string>{name});

  ResultCounts white, black;
  std::map<int64_t, ResultCounts> years;
  std::map<int64_t, std::optional<int64_t>> peak;
  std::map<std::string, ResultCounts> opponents;
  std::map<std::pair<bool, std::string>, ResultCounts> openings;
  std::vector<int64_t> win_plies;
  for (const ScannedGame& g : games) {
    for (bool as_white : {true, false}) {
      if ((as_white ? g.white : g.black) != name) continue;
      const int o = outcome(g.result, as_white);
      add(as_white ? white : black, o);
      add(years[g.date_key ? *g.date_key / 10000 : -1], o);
      const auto elo = as_white ? g.white_elo : g.black_elo;
      auto& p = peak[g.date_key ? *g.date_key / 10000 : -1];
      if (elo) p = std::max(p.value_or(*elo), *elo);
      add(opponents[as_white ? g.black : g.white], o);
      add(openings[{as_white, g.eco}], o);
      if (o == 1) win_plies.push_back(g.plies);
    }
  }
  expect_same(r.as_white, white, name + " as White");
  expect_same(r.as_black, black, name + " as Black");
  EXPECT_EQ(r.total.games, white.games + black.games);

  ASSERT_EQ(r.years.size(), years.size());
  for (const auto& y : r.years) {
    const int64_t key = y.year.value_or(-1);
    ASSERT_TRUE(years.count(key)) << key;
    expect_same(y.results, years[key], name + " in " + std::to_string(key));
    EXPECT_EQ(y.peak_elo, peak[key]) << key;
  }
  ASSERT_EQ(r.opponents.size(), opponents.size());
  for (size_t i = 0; i < r.opponents.size(); ++i) {
    expect_same(r.opponents[i].results, opponents[r.opponents[i].name], "against " + r.opponents[i].name);
    if (i) {
      EXPECT_GE(r.opponents[i - 1].results.games, r.opponents[i].results.games);  // most games first
    }
  }
  ASSERT_EQ(r.openings.size(), openings.size());
  for (size_t i = 0; i < r.openings.size(); ++i) {
    const auto& op = r.openings[i];
    expect_same(op.results, openings[{op.as_white, op.eco}], "opening " + op.eco);
    if (i) {
      EXPECT_GE(r.openings[i - 1].results.games, op.results.games);
    }
  }
  std::sort(win_plies.begin(), win_plies.end());
  ASSERT_FALSE(r.longest_wins.empty());
  EXPECT_EQ(r.longest_wins[0].plies, win_plies.back());
  EXPECT_EQ(r.shortest_wins[0].plies, win_plies.front());
  for (const auto& g : r.longest_wins) EXPECT_EQ(g.outcome, 1);
}

class PlayerReportTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new test::TempDir;
    std::vector<std::string> files = {kSample};
    if (test::have_shared_data())
      files.push_back((test::shared_data() / "nasty" / "pgn-extract-tests" / "fischer.pgn").string());
    query_test::import_files(dir_->file("r.db"), files);
    games_ = new std::vector<ScannedGame>(scan(dir_->file("r.db")));
  }
  static void TearDownTestSuite() {
    delete games_;
    delete dir_;
  }
  static std::string db() { return dir_->file("r.db"); }

  static test::TempDir* dir_;
  static std::vector<ScannedGame>* games_;
};
test::TempDir* PlayerReportTest::dir_ = nullptr;
std::vector<ScannedGame>* PlayerReportTest::games_ = nullptr;

// Few tests, one import each (each test is its own process under CTest).
TEST_F(PlayerReportTest, ReportsOfRealPlayersMatchTheScan) {
  std::map<std::string, int> counts;
  for (const ScannedGame& g : *games_) ++counts[g.white], ++counts[g.black];
  std::vector<std::pair<int, std::string>> by_games;
  for (const auto& [name, n] : counts) by_games.emplace_back(-n, name);
  std::sort(by_games.begin(), by_games.end());
  ASSERT_GE(by_games.size(), 3u);
  EXPECT_EQ(by_games[0].second, "DrNykterstein");
  EXPECT_EQ(-by_games[0].first, 2000);
  for (int i = 0; i < 3; ++i) check_player(db(), *games_, by_games[i].second);
  // Fischer, whose games are often dated by the year alone.
  if (test::have_shared_data()) check_player(db(), *games_, "Fischer, Robert J.");

  // The name is matched as --player matches it.
  store::Database database(db(), store::Database::Mode::ReadOnly);
  query::PlayerReportOptions options;
  options.name = search::NamePattern{"drnykterstein"};  // case-insensitive, as --player
  const PlayerReport r = query::build_player_report(database, options);
  EXPECT_EQ(r.names, std::vector<std::string>{"DrNykterstein"});
  EXPECT_EQ(r.total.games, 2000);
  EXPECT_EQ(r.as_white.games + r.as_black.games, 2000);
  options.name = search::NamePattern{"Nobody At All"};
  EXPECT_EQ(query::build_player_report(database, options).total.games, 0);
}

TEST_F(PlayerReportTest, PlayersAndEventsListsMatchTheScan) {
  std::map<std::string, NameCount> expected;
  for (const ScannedGame& g : *games_)
    for (bool white : {true, false}) {
      NameCount& n = expected[white ? g.white : g.black];
      ++n.games;
      ++(white ? n.as_white : n.as_black);
      if (g.date_key) {
        n.first_date = std::min(n.first_date.value_or(*g.date_key), *g.date_key);
        n.last_date = std::max(n.last_date.value_or(*g.date_key), *g.date_key);
      }
    }
  store::Database database(db(), store::Database::Mode::ReadOnly);
  query::NameListOptions options;
  options.min_games = 5;
  const std::vector<NameCount> listed = query::list_names(database, options);
  size_t with_five = 0;
  for (const auto& [name, n] : expected) with_five += n.games >= 5;
  ASSERT_EQ(listed.size(), with_five);
  for (size_t i = 0; i < listed.size(); ++i) {
    const NameCount& want = expected[listed[i].name];
    EXPECT_EQ(listed[i].games, want.games) << listed[i].name;
    EXPECT_EQ(listed[i].as_white, want.as_white) << listed[i].name;
    EXPECT_EQ(listed[i].first_date, want.first_date) << listed[i].name;
    EXPECT_EQ(listed[i].last_date, want.last_date) << listed[i].name;
    if (i) {
      EXPECT_GE(listed[i - 1].games, listed[i].games);
    }
  }
  options.like = search::NamePattern{"nikotheo"};
  const std::vector<NameCount> one = query::list_names(database, options);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].games, expected["Nikotheo"].games);

  // Events.
  std::map<std::string, int64_t> events;
  for (const ScannedGame& g : *games_) ++events[g.event];
  query::NameListOptions event_options;
  event_options.events = true;
  const std::vector<NameCount> listed_events = query::list_names(database, event_options);
  ASSERT_FALSE(listed_events.empty());
  int64_t total = 0;
  for (const NameCount& n : listed_events) {
    EXPECT_EQ(n.games, events[n.name]) << n.name;
    total += n.games;
  }
  EXPECT_EQ(total + events[""], int64_t(games_->size()));  // games with no Event tag are in no event
}

TEST(DateText, WritesOnlyTheKnownParts) {
  EXPECT_EQ(query::date_text(20190517), "2019.05.17");
  EXPECT_EQ(query::date_text(20190500), "2019.05");
  EXPECT_EQ(query::date_text(19590000), "1959");
}

}  // namespace
}  // namespace pgnbase
