// pgn-index under faults (issue 5), the short version for CI: kill -9 mid-import, a
// file-size limit standing in for a full disk, and queries while an import writes.
// tools/kill_test.sh is the long version on the largest real file.
#include <signal.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "store/database.h"
#include "tests/cli/cli_support.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"

namespace pgnbase {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using cli_test::random_games;

const std::string kIndexBinary = PGNBASE_BINARY_DIR "/tools/pgn-index";
const std::string kQueryBinary = PGNBASE_BINARY_DIR "/tools/pgn-query";

// Starts binary with args (no shell), output into log; rlimit_fsize > 0 limits file size.
pid_t start(const std::string& binary, const std::vector<std::string>& args, const fs::path& log,
            long rlimit_fsize = 0) {
  const pid_t pid = fork();
  if (pid == 0) {
    int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, STDOUT_FILENO);
    dup2(fd, STDERR_FILENO);
    if (rlimit_fsize > 0) {
      rlimit limit{rlim_t(rlimit_fsize), rlim_t(rlimit_fsize)};
      setrlimit(RLIMIT_FSIZE, &limit);
    }
    std::vector<char*> argv{const_cast<char*>(binary.c_str())};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(binary.c_str(), argv.data());
    _exit(127);
  }
  return pid;
}

struct Ended {
  bool exited = false;
  int code = -1, signal = 0;
  std::string output;
};

Ended finish(pid_t pid, const fs::path& log) {
  int status = 0;
  waitpid(pid, &status, 0);
  Ended e;
  e.exited = WIFEXITED(status);
  e.code = e.exited ? WEXITSTATUS(status) : -1;
  e.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  e.output = test::read_file(log);
  return e;
}

std::string describe(const Ended& e) {
  return (e.exited ? "exit " + std::to_string(e.code) : "signal " + std::to_string(e.signal)) + ": " + e.output;
}

// FNV-1a over every row of a query, so two databases can be compared table by table.
uint64_t hash_rows(store::Database& db, const std::string& sql) {
  uint64_t h = 1469598103934665603ull;
  auto mix = [&](const void* data, size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
  };
  store::Statement s = db.prepare(sql);
  uint64_t rows = 0;
  while (s.step()) {
    ++rows;
    for (int c = 0; c < s.column_count(); ++c) {
      const bool null = s.column_is_null(c);
      mix(&null, 1);
      auto bytes = s.column_blob(c);
      const uint64_t n = bytes.size();
      mix(&n, sizeof n);
      mix(bytes.data(), bytes.size());
    }
  }
  mix(&rows, sizeof rows);
  return h;
}

// What must be equal between an interrupted-and-resumed import and an uninterrupted one.
struct Fingerprint {
  uint64_t games = 0, positions = 0, sources = 0, rejects = 0, names = 0;
  int64_t game_count = 0;
  bool operator==(const Fingerprint&) const = default;
};

Fingerprint fingerprint(const std::string& path) {
  store::Database db(path, store::Database::Mode::ReadWrite);
  Fingerprint f;
  f.games = hash_rows(db, "SELECT * FROM games ORDER BY id");
  f.positions = hash_rows(db, "SELECT segment_id, first_key, last_key, postings, data FROM position_blocks "
                              "ORDER BY segment_id, first_key, block_id");
  f.sources = hash_rows(db, "SELECT id, path, size, content_hash, games_found, imported, rejected FROM sources ORDER BY id");
  f.rejects = hash_rows(db, "SELECT * FROM rejects ORDER BY id");
  f.names = hash_rows(db, "SELECT * FROM names ORDER BY id");
  store::Statement s = db.prepare("SELECT COUNT(*) FROM games");
  if (s.step()) f.game_count = s.column_int64(0);
  return f;
}

// The database opens, passes integrity_check, and holds only whole files.
void expect_consistent(const std::string& path) {
  store::Database db(path, store::Database::Mode::ReadWrite);
  EXPECT_EQ(db.integrity_check(), "ok");
  store::Statement schema = db.prepare("SELECT COUNT(*) FROM sqlite_master WHERE name = 'sources'");
  if (!schema.step() || schema.column_int64(0) == 0) return;  // killed before the schema was written
  store::Statement pending = db.prepare("SELECT COUNT(*) FROM sources WHERE content_hash LIKE 'pending:%'");
  ASSERT_TRUE(pending.step());
  EXPECT_EQ(pending.column_int64(0), 0) << "a half-written source survived";
  store::Statement whole = db.prepare(
      "SELECT (SELECT COUNT(*) FROM games), (SELECT COALESCE(SUM(imported), 0) FROM sources)");
  ASSERT_TRUE(whole.step());
  EXPECT_EQ(whole.column_int64(0), whole.column_int64(1)) << "games of an unfinished file survived";
}

class CrashRecovery : public test::TempDirTest {
 protected:
  void SetUp() override {
    test::TempDirTest::SetUp();
    ASSERT_TRUE(fs::exists(kIndexBinary)) << kIndexBinary << " is not built";
  }

  // Four inputs of seeded random games.
  std::vector<std::string> write_inputs(int games_per_file) {
    std::vector<std::string> paths;
    for (uint32_t i = 0; i < 4; ++i) {
      const fs::path path = dir_ / ("part" + std::to_string(i) + ".pgn");
      std::ofstream(path, std::ios::binary) << random_games(games_per_file, 100 + i);
      paths.push_back(path.string());
    }
    return paths;
  }
  std::vector<std::string> index_args(const std::string& db, const std::vector<std::string>& inputs) {
    std::vector<std::string> args = {"-q", "--threads", "2", "-o", db};
    args.insert(args.end(), inputs.begin(), inputs.end());
    return args;
  }
};

TEST_F(CrashRecovery, KillNineThenRerunEqualsUninterruptedImport) {
  const std::vector<std::string> inputs = write_inputs(1500);
  const std::string reference = (dir_ / "reference.db").string();
  const auto begun = Clock::now();
  Ended ref = finish(start(kIndexBinary, index_args(reference, inputs), dir_ / "ref.log"), dir_ / "ref.log");
  const double seconds = std::chrono::duration<double>(Clock::now() - begun).count();
  ASSERT_TRUE(ref.exited && ref.code == 0) << describe(ref);

  const std::string db = (dir_ / "killed.db").string();
  std::mt19937 rng(20261123);
  int killed = 0;
  for (int attempt = 0; attempt < 2; ++attempt) {
    std::uniform_real_distribution<double> moment(0.1 * seconds, 0.7 * seconds);
    const pid_t pid = start(kIndexBinary, index_args(db, inputs), dir_ / "killed.log");
    std::this_thread::sleep_for(std::chrono::duration<double>(moment(rng)));
    kill(pid, SIGKILL);
    Ended e = finish(pid, dir_ / "killed.log");
    if (!e.exited && e.signal == SIGKILL) ++killed;
    if (!fs::exists(db)) continue;  // killed before the database was created
    expect_consistent(db);
  }
  EXPECT_GE(killed, 1) << "the import finished before every kill (took " << seconds << " s)";

  Ended rerun = finish(start(kIndexBinary, index_args(db, inputs), dir_ / "rerun.log"), dir_ / "rerun.log");
  ASSERT_TRUE(rerun.exited && rerun.code == 0) << describe(rerun);
  expect_consistent(db);
  const Fingerprint want = fingerprint(reference), got = fingerprint(db);
  EXPECT_GT(want.game_count, 0);
  EXPECT_EQ(got.game_count, want.game_count);
  EXPECT_EQ(got.games, want.games) << "games differ from the uninterrupted import";
  EXPECT_EQ(got.positions, want.positions) << "position blocks differ from the uninterrupted import";
  EXPECT_EQ(got.sources, want.sources);
  EXPECT_EQ(got.rejects, want.rejects);
  EXPECT_EQ(got.names, want.names);
}

TEST_F(CrashRecovery, FullDiskIsAClearErrorAndLeavesTheDatabaseAsBefore) {
  const fs::path small = dir_ / "small.pgn", large = dir_ / "large.pgn";
  std::ofstream(small, std::ios::binary) << random_games(100, 1);
  std::ofstream(large, std::ios::binary) << random_games(2000, 2);
  const std::string db = (dir_ / "full.db").string();
  Ended first = finish(start(kIndexBinary, index_args(db, {small.string()}), dir_ / "first.log"), dir_ / "first.log");
  ASSERT_TRUE(first.exited && first.code == 0) << describe(first);
  const Fingerprint before = fingerprint(db);
  // Every file the import writes (database, WAL, spilled runs) may grow to 16 KiB past
  // the database's current size: the large file's games do not fit.
  const long limit = long(fs::file_size(db)) + (16 << 10);
  Ended full = finish(start(kIndexBinary, index_args(db, {large.string()}), dir_ / "full.log", limit),
                      dir_ / "full.log");
  EXPECT_TRUE(full.exited) << "killed by signal " << full.signal << " (SIGXFSZ is " << SIGXFSZ << ")";
  EXPECT_EQ(full.code, 1) << describe(full);
  std::istringstream lines(full.output);
  std::string line;
  int count = 0;
  while (std::getline(lines, line))
    if (!line.empty()) ++count;
  EXPECT_EQ(count, 1) << full.output;
  EXPECT_EQ(full.output.rfind("pgn-index: ", 0), 0u) << full.output;
  expect_consistent(db);
  EXPECT_EQ(fingerprint(db), before) << "the failed import changed the database";
  // With room again, the same command finishes.
  Ended again = finish(start(kIndexBinary, index_args(db, {large.string()}), dir_ / "again.log"), dir_ / "again.log");
  EXPECT_TRUE(again.exited && again.code == 0) << describe(again);
}

TEST_F(CrashRecovery, QueriesWhileAnImportWrites) {
  if (!fs::exists(kQueryBinary)) GTEST_SKIP() << kQueryBinary << " is not built";
  const std::vector<std::string> inputs = write_inputs(600);
  const std::string db = (dir_ / "busy.db").string();
  Ended first = finish(start(kIndexBinary, index_args(db, {inputs[0]}), dir_ / "first.log"), dir_ / "first.log");
  ASSERT_TRUE(first.exited && first.code == 0) << describe(first);
  const pid_t writer = start(kIndexBinary, index_args(db, {inputs[1], inputs[2], inputs[3]}), dir_ / "writer.log");
  int queries = 0;
  for (;;) {
    int status = 0;
    const bool writer_done = waitpid(writer, &status, WNOHANG) == writer;
    Ended q = finish(start(kQueryBinary, {"stats", db}, dir_ / "query.log"), dir_ / "query.log");
    ++queries;
    ASSERT_TRUE(q.exited && q.code == 0) << "query " << queries << " during the import: " << describe(q);
    if (writer_done) {
      EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the import failed";
      break;
    }
  }
  EXPECT_GE(queries, 2);
}

}  // namespace
}  // namespace pgnbase
