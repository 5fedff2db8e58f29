// What the server refuses and survives: bad parameters (400, one line), unknown paths
// (404), other methods (405), long query strings (414), a request past its time bound
// (503), a damaged database (500 for that request, then on), concurrent requests, and an
// import that the next request sees.
#include <gtest/gtest.h>

#include <atomic>
#include <fstream>

#include "search/explorer.h"
#include "store/read_snapshot.h"
#include "store/schema_version.h"
#include "tests/serve/serve_test_support.h"

namespace pgnbase::serve_test {
namespace {

namespace fs = std::filesystem;

// One line: the message and its newline, nothing else.
bool one_line(const std::string& body) {
  return !body.empty() && body.back() == '\n' && body.find('\n') == body.size() - 1;
}

using SafetyTest = SampleServerTest;

TEST_F(SafetyTest, BadParametersAnswer400WithOneLine) {
  const char* targets[] = {
      "/api/explorer?fen=not-a-fen",
      "/api/explorer?play=e2e5",
      "/api/explorer?min-elo=high",
      "/api/explorer?min-elo=3000&max-elo=2000",
      "/api/explorer?speeds=fast",
      "/api/explorer?ratings=1234",
      "/api/explorer?topGames=1000",
      "/api/explorer?colour=white",
      "/api/search?limit=1000",
      "/api/search?offset=-1",
      "/api/search?order=alphabetical",
      "/api/search?material=KRX",
      "/api/search?eco=Z99",
      "/api/search?date-from=2020&date-to=2019",
      "/api/search?fen=8/8/8/8/8/8/8/8%20w%20-%20-&moves=1.e4",
      "/api/search?desc=maybe",
      "/api/player",
      "/api/stats?format=csv",
      "/api/position?play=e2e4,e2e4",
  };
  for (const char* target : targets) {
    auto response = server_->client()->Get(target);
    ASSERT_TRUE(response) << target;
    EXPECT_EQ(response->status, 400) << target << ": " << response->body;
    EXPECT_TRUE(one_line(response->body)) << target << ": " << response->body;
    EXPECT_EQ(response->get_header_value("Content-Type"), "text/plain; charset=utf-8");
  }
}

TEST_F(SafetyTest, UnknownPathsAnswer404AndNothingReachesTheFileSystem) {
  for (const char* target : {"/api/games", "/api/game/99999", "/api/game/abc", "/api/player?name=nobody-at-all", "/nothing.html",
                             "/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/web/app.js", "/CMakeLists.txt"}) {
    auto response = server_->client()->Get(target);
    ASSERT_TRUE(response) << target;
    EXPECT_EQ(response->status, 404) << target << ": " << response->body;
    EXPECT_TRUE(one_line(response->body)) << target;
    EXPECT_EQ(response->body.find("root:"), std::string::npos);
  }
}

TEST_F(SafetyTest, OnlyGetAndHeadAreAnswered) {
  auto client = server_->client();
  auto head = client->Head("/");
  ASSERT_TRUE(head);
  EXPECT_EQ(head->status, 200);
  EXPECT_TRUE(head->body.empty());
  auto post = client->Post("/api/stats", "x=1", "application/x-www-form-urlencoded");
  ASSERT_TRUE(post);
  EXPECT_EQ(post->status, 405);
  EXPECT_EQ(post->get_header_value("Allow"), "GET, HEAD");
  auto del = client->Delete("/api/game/1");
  ASSERT_TRUE(del);
  EXPECT_EQ(del->status, 405);
}

TEST_F(SafetyTest, EveryAnswerCarriesTheSecurityHeaders) {
  for (const char* target : {"/", "/app.js", "/api/stats", "/api/nothing", "/api/explorer?fen=bad"}) {
    auto response = server_->client()->Get(target);
    ASSERT_TRUE(response);
    const std::string csp = response->get_header_value("Content-Security-Policy");
    EXPECT_NE(csp.find("default-src 'none'"), std::string::npos) << target;
    EXPECT_NE(csp.find("script-src 'self'"), std::string::npos) << target;
    EXPECT_EQ(csp.find("unsafe-inline"), std::string::npos) << target;
    EXPECT_EQ(response->get_header_value("X-Content-Type-Options"), "nosniff") << target;
  }
}

TEST_F(SafetyTest, LongQueryStringsAreRefused) {
  auto response = server_->client()->Get("/api/search?white=" + std::string(5000, 'a'));
  ASSERT_TRUE(response);
  EXPECT_EQ(response->status, 414);
  auto parameter = server_->client()->Get("/api/search?white=" + std::string(2000, 'a'));
  ASSERT_TRUE(parameter);
  EXPECT_EQ(parameter->status, 400);
  std::string many = "/api/search?";
  for (int i = 0; i < 60; ++i) many += "x" + std::to_string(i) + "=1&";
  auto too_many = server_->client()->Get(many);
  ASSERT_TRUE(too_many);
  EXPECT_EQ(too_many->status, 400);
}

TEST_F(SafetyTest, ConcurrentRequestsGetTheSameAnswersAsOneAtATime) {
  const std::vector<std::string> targets = {"/api/explorer?play=e2e4", "/api/search?player=nikotheo&limit=5",
                                            "/api/game/100", "/api/stats", "/api/player?name=Feokl1995",
                                            "/api/explorer?play=d2d4&min-elo=3000", "/api/position?play=e2e4,c7c5"};
  std::vector<std::string> expected;
  for (const std::string& t : targets) expected.push_back(server_->client()->Get(t)->body);
  std::atomic<int> wrong = 0, done = 0;
  std::vector<std::thread> clients;
  for (int c = 0; c < 8; ++c)
    clients.emplace_back([&, c] {
      auto client = server_->client();
      for (int i = 0; i < 20; ++i) {
        const size_t which = size_t(c + i) % targets.size();
        auto response = client->Get(targets[which]);
        if (!response || response->status != 200 || response->body != expected[which]) ++wrong;
        ++done;
      }
    });
  for (std::thread& t : clients) t.join();
  EXPECT_EQ(done, 160);
  EXPECT_EQ(wrong, 0);
}

TEST(ServeBoundsTest, ARequestPastItsTimeBoundEndsWith503) {
  test::TempDir dir("serve-deadline");
  const std::string db = (dir.path() / "sample.db").string();
  import_into(db, {test::kSample.string()});
  serve::ServeOptions options = options_for(db);
  options.time_limit = std::chrono::milliseconds(1);
  RunningServer server(options);
  auto response = server.client()->Get("/api/search?pieces=wKg1%20wBg2&for=4&order=date");
  ASSERT_TRUE(response);
  EXPECT_EQ(response->status, 503) << response->body;
  EXPECT_NE(response->body.find("longer than the server's bound"), std::string::npos) << response->body;
  // The worker is free again: a request that needs no database answers at once.
  auto position = server.client()->Get("/api/position");
  ASSERT_TRUE(position);
  EXPECT_EQ(position->status, 200);
}

TEST(ServeDamageTest, ADamagedDatabaseAnswers500AndTheServerGoesOn) {
  test::TempDir dir("serve-damage");
  const std::string db = (dir.path() / "sample.db").string();
  import_into(db, {test::kSample.string()});
  const std::string good = test::read_file(db);
  RunningServer server(options_for(db));
  auto before = server.client()->Get("/api/stats");
  ASSERT_TRUE(before);
  ASSERT_EQ(before->status, 200);

  // Everything after the first pages becomes noise: tables and indexes are torn.
  std::string damaged = good;
  for (size_t i = 8192; i < damaged.size(); ++i) damaged[i] = char((i * 2654435761u) >> 13);
  test::write_file(db, damaged);
  int failures = 0;
  for (const char* target : {"/api/stats", "/api/game/5", "/api/search?white=nikotheo", "/api/explorer?play=e2e4",
                             "/api/player?name=Nikotheo"}) {
    auto response = server.client()->Get(target);
    ASSERT_TRUE(response) << target;  // an answer, not a dropped connection
    EXPECT_TRUE(response->status == 500 || response->status == 404 || response->status == 200) << target;
    if (response->status == 500) {
      ++failures;
      EXPECT_TRUE(one_line(response->body)) << response->body;
    }
  }
  EXPECT_GT(failures, 0);

  // The file repaired, the same server answers again.
  test::write_file(db, good);
  auto after = server.client()->Get("/api/stats");
  ASSERT_TRUE(after);
  EXPECT_EQ(after->status, 200);
  EXPECT_EQ(after->body, before->body);
}

TEST(ServeImportTest, AnImportIsSeenByTheNextRequest) {
  test::TempDir dir("serve-import");
  const std::string db = (dir.path() / "growing.db").string();
  const fs::path first = dir.path() / "first.pgn", second = dir.path() / "second.pgn";
  test::write_file(first, test::games_text(0, 100));
  test::write_file(second, test::games_text(100, 150));
  import_into(db, {first.string()});
  RunningServer server(options_for(db));
  auto count = [&] {
    auto response = server.client()->Get("/api/search?limit=1");
    EXPECT_TRUE(response && response->status == 200);
    const json_check::Value v = parse_json(response ? response->body : "");
    return v.find("total") ? int64_t(v.find("total")->number) : -1;
  };
  // The explorer with a filter reads the game facets, which the server keeps between
  // requests until the games change: after the import they must be the new ones.
  auto explorer_games = [&] {
    auto response = server.client()->Get("/api/explorer?min-elo=2500&topGames=3");
    EXPECT_TRUE(response && response->status == 200);
    const json_check::Value v = parse_json(response ? response->body : "");
    return v.find("games") ? int64_t(v.find("games")->number) : -1;
  };
  auto library_games = [&] {
    store::Database d = store::open_for_reading(db);
    store::ReadSnapshot snapshot(d);
    search::ExplorerOptions options;
    options.filter.position = Board();  // the start position, as the request
    options.filter.min_elo = 2500;
    options.use_facets = false;  // the SQL answer, as a judge
    return int64_t(search::explore(d, options).games);
  };
  EXPECT_EQ(count(), 100);
  const int64_t before = explorer_games();
  EXPECT_EQ(before, library_games());
  import_into(db, {second.string()});
  EXPECT_EQ(count(), 150);
  EXPECT_EQ(explorer_games(), library_games());
  EXPECT_GT(explorer_games(), before);  // the second file's rated games count too
}

}  // namespace
}  // namespace pgnbase::serve_test
