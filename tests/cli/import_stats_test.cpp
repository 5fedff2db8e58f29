// pgn-index --stats on the bundled real games (tools/sample): the CPU seconds of each
// thread role and the ceiling the busiest serial thread sets, as bench/scaling.sh reads
// them. The sample is cut into chunks small enough for the workers to share it.
#include <gtest/gtest.h>

#include <map>
#include <sstream>

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
  // The ceiling is the games over the busiest serial thread's seconds, which the lines
  // print rounded to 0.01 s (the writer's 0.0886 s shows as 0.09).
  const double ceiling = second_number(lines.at("ceiling"));
  EXPECT_GT(ceiling, 0) << r.out;
  EXPECT_LE(ceiling, 2000 / (writer - 0.005) * 1.01) << r.out;
}

TEST_F(ImportStats, QuietWithoutStatsPrintsNothing) {
  const std::string db = path("sample.db");
  Ran r = run(dir_, kIndexBinary, {"-q", "-o", db, test::kSample.string()});
  ASSERT_EQ(r.code, 0) << r;
  EXPECT_EQ(r.out, "");
}

}  // namespace
}  // namespace pgnbase::cli_test
