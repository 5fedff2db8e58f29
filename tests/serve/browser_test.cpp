// The page in headless Chromium (tests/web/browser_test.mjs, puppeteer-core driving
// Debian's chromium): explorer moves by clicking, a top game stepped with the arrow
// keys, a search from the form, a player's plots, no console errors or outside requests,
// and a database of hostile tags (tests/data/web/xss_tags.pgn) shown as text. Skips when
// node or chromium is missing; fails when puppeteer-core is (tools/run_tests.sh installs it).
#include <gtest/gtest.h>

#include <cstdlib>

#include "tests/serve/serve_test_support.h"

namespace pgnbase::serve_test {
namespace {

namespace fs = std::filesystem;

const fs::path kWebTests = fs::path(PGNBASE_SOURCE_DIR) / "tests" / "web";

std::string chromium_path() {
  const char* set = std::getenv("PGNBASE_CHROMIUM");
  return set ? set : "/usr/bin/chromium";
}

TEST(BrowserTest, ThePageWorksInChromium) {
  if (std::system("node --version > /dev/null 2>&1") != 0) GTEST_SKIP() << "node is not installed: the browser tests skip";
  if (!fs::exists(chromium_path())) GTEST_SKIP() << chromium_path() << " is missing (apt-get install chromium): the browser tests skip";
  ASSERT_TRUE(fs::exists(kWebTests / "node_modules" / "puppeteer-core"))
      << "puppeteer-core is missing: run npm install in tests/web (tools/run_tests.sh does)";
  const fs::path pgn_query = fs::path(PGNBASE_BINARY_DIR) / "tools" / "pgn-query";
  ASSERT_TRUE(fs::exists(pgn_query)) << pgn_query;

  test::TempDir dir("serve-browser");
  const std::string sample = (dir.path() / "sample.db").string(), xss = (dir.path() / "xss.db").string();
  import_into(sample, {test::kSample.string()});
  import_into(xss, {(fs::path(PGNBASE_SOURCE_DIR) / "tests" / "data" / "web" / "xss_tags.pgn").string()});
  const fs::path shots = fs::path(PGNBASE_BINARY_DIR) / "screenshots";
  const fs::path log = dir.path() / "browser.log";
  const std::string command = "cd '" + kWebTests.string() + "' && node browser_test.mjs '" + pgn_query.string() + "' '" +
                              sample + "' '" + xss + "' '" + shots.string() + "' > '" + log.string() + "' 2>&1";
  const int status = std::system(command.c_str());
  const std::string output = test::read_file(log);
  std::cout << output;
  EXPECT_EQ(status, 0) << output;
  EXPECT_EQ(output.find("FAIL"), std::string::npos);
  EXPECT_TRUE(fs::exists(shots / "explorer.png") && fs::exists(shots / "game.png"));
}

}  // namespace
}  // namespace pgnbase::serve_test
