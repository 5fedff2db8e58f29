// pgn-index --stats on the bundled real games (tools/sample): the CPU seconds of each
// thread role and the ceiling the busiest serial thread sets, as bench/scaling.sh reads
// them. The sample is cut into chunks small enough for the workers to share it.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "store/database.h"
#include "tests/cli/cli_support.h"
#include "tests/support/bundled_sample.h"

namespace pgnbase::cli_test {
namespace {

class ImportStats : public CliTest {};

// The lines of --stats by their first word ("writer", "worker", ...).
std::map<std::string, std::string> stats_lines(const std::string& out) {
  std::map<std::string, std::string> lines;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string first;
    words >> first;
    lines[first] = line;
  }
  return lines;
}

double second_number(const std::string& line) {
  std::istringstream words(line);
  std::string role;
  double value = -1;
  words >> role >> value;
  return value;
}

TEST_F(ImportStats, NamesEveryRoleAndTheCeilingOfTheBusiestSerialThread) {
  const std::string db = path("sample.db");
  Ran r = run(dir_, kIndexBinary, {"-q", "--stats", "-j", "3", "-o", db, test::kSample.string()});
  ASSERT_EQ(r.code, 0) << r;
  const auto lines = stats_lines(r.out);
  ASSERT_TRUE(lines.count("cpu")) << r.out;
  EXPECT_NE(lines.at("cpu").find("2000 games"), std::string::npos) << r.out;
  for (const char* role : {"writer", "reader", "worker", "merge", "other", "ceiling"})
    ASSERT_TRUE(lines.count(role)) << role << " missing in\n" << r.out;
  // The sample (7.6 MB) is two chunks of 4 MiB or more: three workers started.
  EXPECT_NE(lines.at("worker").find("3 threads"), std::string::npos) << r.out;
  const double writer = second_number(lines.at("writer")), workers = second_number(lines.at("worker"));
  EXPECT_GT(writer, 0) << r.out;
  EXPECT_GT(workers, 0) << r.out;  // replaying 2,000 games takes CPU
  // The ceiling is the games over the busiest serial thread's seconds.
  const double ceiling = second_number(lines.at("ceiling"));
  EXPECT_GT(ceiling, 0) << r.out;
  // The writer's seconds are printed to 0.01, the ceiling from the exact ones: 0.087 s
  // prints as 0.09 while the ceiling says 2000 / 0.087.
  EXPECT_LE(ceiling, 2000 / std::max(writer - 0.005, 0.001) * 1.01) << r.out;
}

// The number after `label` in line ("games indexes 0.12, ..."), -1 when absent.
double number_after(const std::string& line, const std::string& label) {
  const size_t at = line.find(label);
  return at == std::string::npos ? -1 : std::stod(line.substr(at + label.size()));
}

// Past --memory, postings are spilled to run files, one spill at a time, each spill's key
// partitions shared by half the -j threads: a role of its own (bench/scaling.sh's spill_s),
// whose busiest thread summed over the spills is a serial part, absent when nothing spills.
TEST_F(ImportStats, SpillsOfPostingsAreASerialRoleOfTheirOwn) {
  const std::string db = path("sample.db");
  // Chunks of at most 1 MiB and a budget of 1 MiB: the first spill runs on the writer (and a
  // helper), the next ones on the spill threads.
  Ran r = run(dir_, kIndexBinary,
              {"-q", "--stats", "-j", "4", "--memory", "1M", "--max-game-bytes", "1M", "-o", db, test::kSample.string()});
  ASSERT_EQ(r.code, 0) << r;
  const auto lines = stats_lines(r.out);
  ASSERT_TRUE(lines.count("spill")) << r.out;
  const std::string& spill = lines.at("spill");
  EXPECT_NE(spill.find("one spill at a time, its partitions on 2 threads"), std::string::npos) << r.out;
  const double total = second_number(spill), busiest = number_after(spill, "busiest ");
  EXPECT_GE(total, 0) << r.out;
  // Each printed to 0.01: the busiest is at most the total, at least half of it.
  EXPECT_LE(busiest, total + 0.011) << r.out;
  EXPECT_GE(busiest, total / 2 - 0.011) << r.out;
  Ran in_memory = run(dir_, kIndexBinary, {"-q", "--stats", "-j", "3", "-o", path("whole.db"), test::kSample.string()});
  ASSERT_EQ(in_memory.code, 0) << in_memory;
  EXPECT_EQ(stats_lines(in_memory.out).count("spill"), 0u) << in_memory.out;
}

TEST_F(ImportStats, TheWritersLineSplitsItsSecondsIntoItsSteps) {
  const std::vector<std::string>& games = test::sample_games();
  std::string head, tail;
  for (size_t i = 0; i < games.size(); ++i) (i < 1500 ? head : tail) += games[i];
  const std::string db = path("sample.db");
  // 4 threads: the games indexes are built at the publish (store/index_bulk_build.h).
  Ran first = run(dir_, kIndexBinary, {"-q", "--stats", "-j", "4", "-o", db, file("head.pgn", head)});
  ASSERT_EQ(first.code, 0) << first;
  const std::string writer = stats_lines(first.out).at("writer");
  const double indexes = number_after(writer, "games indexes "), segment = number_after(writer, "position segment ");
  const double summaries = number_after(writer, "explorer summaries "), rest = number_after(writer, "the rest ");
  for (double part : {indexes, segment, summaries, rest}) ASSERT_GE(part, 0) << writer;
  // Each part and the total printed to 0.01: the four add up to the total within the
  // five roundings.
  EXPECT_NEAR(indexes + segment + summaries + rest, second_number(writer), 0.026) << writer;
  EXPECT_GT(indexes + rest, 0) << writer;  // 1,500 rows and their indexes take CPU
  // The wall times: the end's total is its two steps', each at least its CPU.
  const auto lines = stats_lines(first.out);
  ASSERT_TRUE(lines.count("held-up") && lines.count("end")) << first.out;
  EXPECT_GE(second_number(lines.at("held-up")), 0) << first.out;
  const std::string& end = lines.at("end");
  const double indexes_wall = number_after(end, "games indexes "), segment_wall = number_after(end, "position segment ");
  EXPECT_NEAR(indexes_wall + segment_wall, second_number(end), 0.016) << end;
  EXPECT_GE(indexes_wall, indexes - 0.011) << first.out;
  EXPECT_GE(segment_wall, segment - 0.011) << first.out;
  // A new database is closed and synced once, before its rename (FreshBuild::publish).
  ASSERT_TRUE(lines.count("publish")) << first.out;
  EXPECT_GE(second_number(lines.at("publish")), 0) << first.out;
  EXPECT_LE(second_number(lines.at("publish")), number_after(lines.at("cpu"), "(wall ") + 0.011) << first.out;
  // Its games indexes are built after the writer's last row, on threads of their own,
  // into a file that SQLite finds whole, with all seven.
  ASSERT_TRUE(lines.count("indexes")) << first.out;
  const std::string& built = lines.at("indexes");
  EXPECT_GT(second_number(built), 0) << first.out;
  EXPECT_LE(number_after(built, "longest chain "), second_number(built) + 0.011) << first.out;
  EXPECT_NE(built.find("(0 by SQLite)"), std::string::npos) << first.out;
  auto expect_whole_with_games_indexes = [](const std::string& path) {
    store::Database file(path, store::Database::Mode::ReadOnly);
    EXPECT_EQ(file.integrity_check(), "ok") << path;
    store::Statement names = file.prepare(
        "SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name IN ('games_white', 'games_black', "
        "'games_eco', 'games_date', 'games_white_elo', 'games_black_elo', 'games_event')");
    ASSERT_TRUE(names.step());
    EXPECT_EQ(names.column_int64(0), 7) << path;
  };
  expect_whole_with_games_indexes(db);

  // An append keeps the indexes and updates them row by row: no index is built, and the
  // WAL's commits are its syncs: nothing to publish.
  Ran again = run(dir_, kIndexBinary, {"-q", "--stats", "-o", db, file("tail.pgn", tail)});
  ASSERT_EQ(again.code, 0) << again;
  EXPECT_EQ(number_after(stats_lines(again.out).at("writer"), "games indexes "), 0) << again.out;
  EXPECT_EQ(stats_lines(again.out).count("publish"), 0u) << again.out;
  EXPECT_EQ(stats_lines(again.out).count("indexes"), 0u) << again.out;

  // With fewer threads the writer builds them (SQLite's CREATE INDEX): no indexes line.
  Ran two = run(dir_, kIndexBinary, {"-q", "--stats", "-j", "2", "-o", path("two.db"), file("head2.pgn", head)});
  ASSERT_EQ(two.code, 0) << two;
  EXPECT_EQ(stats_lines(two.out).count("indexes"), 0u) << two.out;
  expect_whole_with_games_indexes(path("two.db"));
}

TEST_F(ImportStats, QuietWithoutStatsPrintsNothing) {
  const std::string db = path("sample.db");
  Ran r = run(dir_, kIndexBinary, {"-q", "-o", db, test::kSample.string()});
  ASSERT_EQ(r.code, 0) << r;
  EXPECT_EQ(r.out, "");
}

}  // namespace
}  // namespace pgnbase::cli_test
