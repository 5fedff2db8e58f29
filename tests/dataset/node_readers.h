// The independent Parquet readers of the dataset tests: DuckDB (@duckdb/node-api) and
// hyparquet, run with node from tests/dataset (tools/run_tests.sh installs them with npm
// install). A test skips only when node itself is missing; node without the packages
// is a failure that says how to install them.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace pgnbase::dataset_test {

inline const std::filesystem::path kReaderDir = std::filesystem::path(PGNBASE_SOURCE_DIR) / "tests" / "dataset";

// Runs program (found on PATH) with args in folder; returns stdout, or nullopt when it
// exited badly (its stderr then goes to the test log).
inline std::optional<std::string> run_program(const std::filesystem::path& folder, const std::string& program,
                                              const std::vector<std::string>& args, int* exit_code = nullptr) {
  int fds[2];
  if (pipe(fds) != 0) return std::nullopt;
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], STDOUT_FILENO);
    close(fds[0]);
    close(fds[1]);
    if (chdir(folder.c_str()) != 0) _exit(126);
    std::vector<char*> argv{const_cast<char*>(program.c_str())};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execvp(program.c_str(), argv.data());
    _exit(127);
  }
  close(fds[1]);
  std::string out;
  char buffer[65536];
  for (ssize_t n; (n = read(fds[0], buffer, sizeof buffer)) > 0;) out.append(buffer, size_t(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (exit_code) *exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::nullopt;
  return out;
}

inline std::optional<std::string> run_node(const std::vector<std::string>& args) {
  return run_program(kReaderDir, "node", args);
}

inline bool node_found() {
  const auto v = run_node({"--version"});
  return v.has_value();
}

// Skips the test when node is missing; fails when the reader packages are.
#define PGNBASE_REQUIRE_NODE_READERS()                                                                      \
  do {                                                                                                     \
    if (!::pgnbase::dataset_test::node_found())                                                            \
      GTEST_SKIP() << "node is not installed: the Parquet files cannot be checked by DuckDB and hyparquet"; \
    ASSERT_TRUE(std::filesystem::exists(::pgnbase::dataset_test::kReaderDir / "node_modules" / "hyparquet")) \
        << "the reader packages are missing: run npm install in tests/dataset (tools/run_tests.sh does)";       \
  } while (0)

// SQL through DuckDB: the rows as tab-separated lines.
inline std::vector<std::string> duckdb_rows(const std::string& sql) {
  const auto out = run_node({"duckdb_query.mjs", sql});
  EXPECT_TRUE(out.has_value()) << "DuckDB failed on: " << sql;
  std::vector<std::string> rows;
  std::istringstream in(out.value_or(""));
  for (std::string line; std::getline(in, line);) rows.push_back(line);
  return rows;
}

// Several statements through one DuckDB run (one node start): each one's rows, in order.
inline std::vector<std::vector<std::string>> duckdb_batch(const std::vector<std::string>& statements) {
  std::vector<std::string> args{"duckdb_query.mjs"};
  args.insert(args.end(), statements.begin(), statements.end());
  if (statements.size() == 1) args.push_back("SELECT 1 WHERE false");  // keeps the separator lines
  const auto out = run_node(args);
  EXPECT_TRUE(out.has_value()) << "DuckDB failed on one of " << statements.size() << " statements";
  std::vector<std::vector<std::string>> results(1);
  std::istringstream in(out.value_or(""));
  for (std::string line; std::getline(in, line);) {
    if (line == "\x1d") results.emplace_back();
    else results.back().push_back(line);
  }
  results.resize(statements.size());
  return results;
}

// One value from DuckDB (the first column of the first row), "" when none.
inline std::string duckdb_value(const std::string& sql) {
  const auto rows = duckdb_rows(sql);
  return rows.empty() ? "" : rows[0].substr(0, rows[0].find('\t'));
}

// What hyparquet reads from files: hyparquet_dump.mjs's lines.
inline std::vector<std::string> hyparquet_dump(const std::vector<std::filesystem::path>& files) {
  std::vector<std::string> args{"hyparquet_dump.mjs"};
  for (const auto& f : files) args.push_back(f.string());
  const auto out = run_node(args);
  EXPECT_TRUE(out.has_value()) << "hyparquet failed on " << files.size() << " files";
  std::vector<std::string> lines;
  std::istringstream in(out.value_or(""));
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace pgnbase::dataset_test
