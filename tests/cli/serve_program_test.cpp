// `pgn-query serve` runs pgn-query-serve, the program beside pgn-query that alone links the
// HTTP library: its help and its errors read as pgn-query's own, the server stands in
// pgn-query's place (the same process, so a kill of what was started stops it), and a
// pgn-query without it beside says so in one line.
#include <signal.h>

#include <chrono>
#include <thread>

#include "cli_support.h"

namespace pgnbase::cli_test {
namespace {

class ServeProgram : public CliTest {};

TEST_F(ServeProgram, HelpAndErrorsReadAsPgnQuerys) {
  const Ran overview = query({"--help"});
  EXPECT_NE(overview.out.find("  serve    the database in a browser"), std::string::npos) << overview;
  const Ran help = query({"serve", "--help"});
  EXPECT_EQ(help.code, 0) << help;
  EXPECT_NE(help.out.find("pgn-query serve DB [--port 8080]"), std::string::npos) << help;
  EXPECT_NE(help.out.find("--time-limit"), std::string::npos) << help;
  const Ran bad_port = query({"serve", path("any.db"), "--port", "70000"});
  EXPECT_EQ(bad_port.code, 2) << bad_port;
  EXPECT_EQ(bad_port.err, "pgn-query serve: --port must be 0 to 65535 (see pgn-query serve --help)\n");
  const Ran missing = query({"serve", path("missing.db")});
  EXPECT_EQ(missing.code, 1) << missing;
  ASSERT_EQ(missing.err_lines().size(), 1u) << missing;
  EXPECT_TRUE(missing.err.starts_with("pgn-query serve: ")) << missing;
}

TEST_F(ServeProgram, TheServerRunsInPgnQuerysProcess) {
  const std::string db = path("games.db");
  ASSERT_EQ(index({"-q", "-o", db, file("games.pgn", random_games(20, 7))}).code, 0);
  const pid_t pid = start(dir_, kQueryBinary, {"serve", db, "--port", "0"});
  std::string out;
  for (int i = 0; i < 200 && out.find("http://") == std::string::npos; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    out = test::read_file(dir_ / "stdout.txt");
  }
  EXPECT_NE(out.find("pgn-query serve: " + db + " at http://127.0.0.1:"), std::string::npos) << out;
  // The process started as pgn-query is now pgn-query-serve.
  std::error_code error;
  const fs::path running = fs::read_symlink("/proc/" + std::to_string(pid) + "/exe", error);
  EXPECT_EQ(running.filename(), "pgn-query-serve") << error.message();
  kill(pid, SIGTERM);
  const Ran ended = finish(dir_, pid);
  EXPECT_TRUE(ended.signal == SIGTERM || ended.code == 0) << ended;
}

TEST_F(ServeProgram, WithoutItsProgramBesideServeSaysSo) {
  const fs::path alone = dir_ / "alone";
  fs::create_directories(alone);
  fs::copy_file(kQueryBinary, alone / "pgn-query");
  const Ran ran = run(dir_, (alone / "pgn-query").string(), {"serve", path("any.db")});
  EXPECT_EQ(ran.code, 1) << ran;
  ASSERT_EQ(ran.err_lines().size(), 1u) << ran;
  EXPECT_NE(ran.err.find("pgn-query serve: cannot run " + (alone / "pgn-query-serve").string()), std::string::npos)
      << ran;
  // Every other command works without it.
  EXPECT_EQ(run(dir_, (alone / "pgn-query").string(), {"key", "8/8/8/8/8/8/8/K6k w - - 0 1"}).code, 0);
}

}  // namespace
}  // namespace pgnbase::cli_test
