// Running pgn-index and pgn-query as a shell would, for the CLI tests: no shell, but
// standard input, output and error pointed where a test needs them (a file, the end of
// the database as `>>` would, a terminal), and an optional file-size limit.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "tests/support/random_moves.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"

namespace pgnbase::cli_test {

namespace fs = std::filesystem;

inline const std::string kIndexBinary = PGNBASE_BINARY_DIR "/tools/pgn-index";
inline const std::string kQueryBinary = PGNBASE_BINARY_DIR "/tools/pgn-query";

struct Redirects {
  std::string stdin_path;   // empty: /dev/null
  std::string stdout_path;  // empty: a capture file
  bool append_stdout = false;     // open stdout_path as `>>` does
  int stdout_fd = -1;             // when >= 0, stdout goes here (a terminal)
  long file_size_limit = 0;       // RLIMIT_FSIZE in bytes when > 0
  std::string working_dir;        // empty: the test's own
  int stdin_fd = -1;              // when >= 0, stdin comes from here (a pipe)
  int stderr_fd = -1;             // when >= 0, stderr goes here (a terminal)
  std::function<void()> in_child;  // runs in the child just before exec (limits, user)
};

struct Ran {
  int code = -1;    // exit status, -1 after a signal
  int signal = 0;   // the terminating signal
  std::string out, err;

  std::vector<std::string> err_lines() const {
    std::vector<std::string> lines;
    size_t start = 0;
    for (size_t end; (end = err.find('\n', start)) != std::string::npos; start = end + 1)
      if (end > start) lines.push_back(err.substr(start, end - start));
    if (start < err.size()) lines.push_back(err.substr(start));
    return lines;
  }
};

inline std::ostream& operator<<(std::ostream& os, const Ran& r) {
  return os << (r.signal ? "signal " + std::to_string(r.signal) : "exit " + std::to_string(r.code)) << "\nstdout:\n"
            << r.out.substr(0, 2000) << "\nstderr:\n" << r.err;
}

// Starts binary with args; stdout and stderr of the child go to dir/stdout.txt and
// dir/stderr.txt unless redirected.
inline pid_t start(const fs::path& dir, const std::string& binary, const std::vector<std::string>& args,
                   const Redirects& redirects = {}) {
  const std::string out = redirects.stdout_path.empty() ? (dir / "stdout.txt").string() : redirects.stdout_path;
  const std::string err = (dir / "stderr.txt").string();
  const pid_t pid = fork();
  if (pid == 0) {
    const int in = redirects.stdin_fd >= 0 ? redirects.stdin_fd
                   : open(redirects.stdin_path.empty() ? "/dev/null" : redirects.stdin_path.c_str(), O_RDONLY);
    const int o = redirects.stdout_fd >= 0
                      ? redirects.stdout_fd
                      : open(out.c_str(), O_WRONLY | O_CREAT | (redirects.append_stdout ? O_APPEND : O_TRUNC), 0644);
    const int e = redirects.stderr_fd >= 0 ? redirects.stderr_fd : open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(in, STDIN_FILENO);
    dup2(o, STDOUT_FILENO);
    dup2(e, STDERR_FILENO);
    if (!redirects.working_dir.empty() && chdir(redirects.working_dir.c_str()) != 0) _exit(126);
    if (redirects.file_size_limit > 0) {
      rlimit limit{rlim_t(redirects.file_size_limit), rlim_t(redirects.file_size_limit)};
      setrlimit(RLIMIT_FSIZE, &limit);
    }
    if (redirects.in_child) redirects.in_child();
    std::vector<char*> argv{const_cast<char*>(binary.c_str())};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(binary.c_str(), argv.data());
    _exit(127);
  }
  return pid;
}

inline Ran finish(const fs::path& dir, pid_t pid, const Redirects& redirects = {}) {
  int status = 0;
  waitpid(pid, &status, 0);
  Ran r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  if (redirects.stdout_path.empty() && redirects.stdout_fd < 0) r.out = test::read_file(dir / "stdout.txt");
  if (redirects.stderr_fd < 0) r.err = test::read_file(dir / "stderr.txt");
  return r;
}

inline Ran run(const fs::path& dir, const std::string& binary, const std::vector<std::string>& args,
               const Redirects& redirects = {}) {
  return finish(dir, start(dir, binary, args, redirects), redirects);
}

// Seeded random legal games written as PGN: deterministic, so CI needs no data files.
inline std::string random_games(int games, uint32_t seed) {
  std::mt19937 rng(seed);
  std::string out;
  for (int g = 0; g < games; ++g) {
    out += "[Event \"Random " + std::to_string(seed) + "\"]\n[White \"W" + std::to_string(rng() % 50) +
           "\"]\n[Black \"B" + std::to_string(rng() % 50) + "\"]\n[Result \"*\"]\n\n";
    test::append_random_moves(rng, out);
    out += "*\n\n";
  }
  return out;
}

// A fresh folder per test (removed afterwards) holding the programs' captured output.
class CliTest : public test::TempDirTest {
 protected:
  void SetUp() override {
    test::TempDirTest::SetUp();
    ASSERT_TRUE(fs::exists(kIndexBinary)) << kIndexBinary << " is not built";
    ASSERT_TRUE(fs::exists(kQueryBinary)) << kQueryBinary << " is not built";
    fs::create_directories(dir_ / "work");
  }

  // Paths of the test's files live in work/, apart from the captured output.
  std::string path(const std::string& name) const { return (dir_ / "work" / name).string(); }
  std::string file(const std::string& name, const std::string& bytes) const {
    test::write_file(path(name), bytes);
    return path(name);
  }
  // The names in work/, sorted, but for the -wal and -shm files that a read-only
  // SQLite connection leaves beside a database.
  std::vector<std::string> work_files() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir_ / "work")) {
      const std::string name = entry.path().filename().string();
      if (!name.ends_with(".db-wal") && !name.ends_with(".db-shm")) names.push_back(name);
    }
    std::sort(names.begin(), names.end());
    return names;
  }
  Ran index(const std::vector<std::string>& args, const Redirects& redirects = {}) {
    return run(dir_, kIndexBinary, args, redirects);
  }
  Ran query(const std::vector<std::string>& args, const Redirects& redirects = {}) {
    return run(dir_, kQueryBinary, args, redirects);
  }
};

}  // namespace pgnbase::cli_test
