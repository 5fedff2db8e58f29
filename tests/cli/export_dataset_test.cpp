// pgn-query export-dataset as careful as export: a signal, kill -9, a full disk, a low
// open-file limit, a game too long for the dataset and a database with hostile ids each
// leave the dataset folder usable, with one line saying what happened. Real processes on
// real games of the bundled sample (tests/support/bundled_sample.h).
#include <sys/resource.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <thread>

#include "store/database.h"
#include "tests/cli/cli_support.h"
#include "tests/support/bundled_sample.h"
#include "tests/support/files.h"

namespace pgnbase::cli_test {
namespace {

// Every path under dir, relative, sorted ("" when dir does not exist).
std::vector<std::string> tree(const fs::path& dir) {
  std::vector<std::string> out;
  if (!fs::exists(dir)) return out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) out.push_back(fs::relative(e.path(), dir).string());
  std::sort(out.begin(), out.end());
  return out;
}

// The names under dir that start with a dot: temporary files and folders.
std::vector<std::string> dot_names(const fs::path& dir) {
  std::vector<std::string> out;
  for (const std::string& path : tree(dir))
    if (fs::path(path).filename().string().starts_with(".")) out.push_back(path);
  return out;
}

// Whether the child has ended, without reaping it.
bool has_ended(pid_t pid) {
  siginfo_t info{};
  return waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid;
}

// A pid that no process has (one that just ended).
pid_t ended_pid() {
  const pid_t pid = fork();
  if (pid == 0) _exit(0);
  waitpid(pid, nullptr, 0);
  return pid;
}

class ExportDatasetCli : public CliTest {
 protected:
  // A database of the sample's first n games.
  std::string database(size_t n, const std::string& name = "games.db") {
    const std::string db = path(name);
    const Ran r = index({"-q", "-o", db, file(name + ".pgn", test::games_text(0, n))});
    EXPECT_EQ(r.code, 0) << r;
    return db;
  }
  Ran export_dataset(const std::string& db, const std::string& dir, const Redirects& redirects = {}) {
    return query({"export-dataset", db, dir}, redirects);
  }

  // Starts an export of db into dir and stops it (SIGSTOP) once its temporary folder holds
  // a file: the export is then surely under way. Returns its pid, or -1 when it ended first.
  pid_t start_and_stop_midway(const std::string& db, const fs::path& dir) {
    const pid_t pid = start(dir_, kQueryBinary, {"export-dataset", db, dir.string()});
    const fs::path temp = dir / (".export-tmp-" + std::to_string(pid));
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < deadline && !has_ended(pid)) {
      std::error_code ignored;
      if (fs::exists(temp) && !fs::is_empty(temp, ignored)) {
        kill(pid, SIGSTOP);
        if (!fs::is_empty(temp, ignored)) return pid;  // still at work when stopped
        kill(pid, SIGCONT);
      }
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    finish(dir_, pid);
    return -1;
  }
};

// SIGINT and SIGTERM left the spill folder and a .part...tmp file, and the next export
// into the folder was refused ("holds files but no _meta").
class InterruptedExport : public ExportDatasetCli, public ::testing::WithParamInterface<int> {};

TEST_P(InterruptedExport, LeavesTheFolderAsItFoundIt) {
  const int signal_number = GetParam();
  const std::string db = database(150);
  const fs::path made = path("made"), existing = path("existing");
  fs::create_directories(existing);
  for (const fs::path& dir : {made, existing}) {
    const std::vector<std::string> before = tree(dir);
    pid_t pid = -1;
    for (int attempt = 0; attempt < 3 && pid < 0; ++attempt) {
      std::error_code ignored;
      fs::remove_all(dir, ignored);
      if (dir == existing) fs::create_directories(dir);
      pid = start_and_stop_midway(db, dir);
    }
    ASSERT_GT(pid, 0) << "every export ended before it could be stopped";
    kill(pid, signal_number);
    kill(pid, SIGCONT);
    const Ran r = finish(dir_, pid);
    EXPECT_EQ(r.signal, signal_number) << r;
    EXPECT_EQ(fs::exists(dir), dir == existing) << "the export made the folder, so it goes";
    EXPECT_EQ(tree(dir), before) << "files left behind";
    const Ran again = export_dataset(db, dir.string());
    EXPECT_EQ(again.code, 0) << again;
    EXPECT_NE(again.out.find("150 games"), std::string::npos) << again;
    EXPECT_TRUE(dot_names(dir).empty()) << testing::PrintToString(dot_names(dir));
  }
}

INSTANTIATE_TEST_SUITE_P(SigintAndSigterm, InterruptedExport, ::testing::Values(SIGINT, SIGTERM),
                         [](const auto& info) { return info.param == SIGINT ? "Sigint" : "Sigterm"; });

// kill -9 leaves the temporary folder; the next export removes it, says so in one line and
// exports. Temporary files that earlier versions left beside their final names go too.
TEST_F(ExportDatasetCli, KillNineLeftoversAreRemovedByTheNextExport) {
  const std::string db = database(300);
  const fs::path dir = path("dataset");
  pid_t pid = -1;
  for (int attempt = 0; attempt < 3 && pid < 0; ++attempt) {
    std::error_code ignored;
    fs::remove_all(dir, ignored);
    pid = start_and_stop_midway(db, dir);
  }
  ASSERT_GT(pid, 0) << "every export ended before it could be stopped";
  kill(pid, SIGKILL);
  EXPECT_EQ(finish(dir_, pid).signal, SIGKILL);
  const fs::path left = dir / (".export-tmp-" + std::to_string(pid));
  ASSERT_TRUE(fs::exists(left));
  // What an export of an earlier version, killed, left: a part file and _meta's temporary.
  const pid_t old = ended_pid();
  fs::create_directories(dir / "games" / "source=1");
  test::write_file(dir / "games" / "source=1" / (".part-000001.parquet.tmp-" + std::to_string(old)), "half a file");
  test::write_file(dir / (".meta.tmp-" + std::to_string(old)), "pgnbase_dataset: 2\n");
  // A live process's temporary folder (this test's: as if another export were at work)
  // is not the next export's to remove.
  const fs::path live = dir / (".export-tmp-" + std::to_string(getpid())) / "games+source=1+part-000001.parquet";
  fs::create_directories(live.parent_path());
  test::write_file(live, "mine");

  const Ran r = export_dataset(db, dir.string());
  EXPECT_EQ(r.code, 0) << r;
  ASSERT_EQ(r.err_lines().size(), 1u) << r;
  EXPECT_TRUE(r.err.starts_with("pgn-query export-dataset: removed ")) << r;
  EXPECT_NE(r.err.find(" temporary files ("), std::string::npos) << r;
  EXPECT_NE(r.err.find("left in " + dir.string() + " by ended exports (pid "), std::string::npos) << r;
  EXPECT_NE(r.err.find(std::to_string(pid)), std::string::npos) << r;
  EXPECT_NE(r.err.find(std::to_string(old)), std::string::npos) << r;
  EXPECT_NE(r.out.find("export 1: games 1..300, 300 games"), std::string::npos) << r;
  EXPECT_EQ(dot_names(dir), std::vector<std::string>{fs::relative(live.parent_path(), dir).string()});
  EXPECT_EQ(test::read_file(live), "mine");
}

// "File too large" (ulimit -f) or a full disk in a first export left games/source=1/,
// and the retry was refused: the folder must be left as it was found.
TEST_F(ExportDatasetCli, FailedFirstExportLeavesTheFolderAsItFoundIt) {
  const std::string db = database(100);
  Redirects small_files;
  small_files.file_size_limit = 48 << 10;
  const fs::path absent = path("absent"), deep = path("a") + "/b/dataset", empty = path("empty");
  fs::create_directories(empty);
  for (const fs::path& dir : {absent, deep, empty}) {
    const Ran r = export_dataset(db, dir.string(), small_files);
    EXPECT_EQ(r.code, 1) << r;
    ASSERT_EQ(r.err_lines().size(), 1u) << r;
    EXPECT_NE(r.err.find("File too large"), std::string::npos) << r;
  }
  EXPECT_FALSE(fs::exists(absent));
  EXPECT_FALSE(fs::exists(path("a"))) << "the folders made on the way go too";
  EXPECT_TRUE(fs::is_empty(empty));
  for (const fs::path& dir : {absent, deep, empty}) {
    const Ran r = export_dataset(db, dir.string());
    EXPECT_EQ(r.code, 0) << r;
    EXPECT_TRUE(dot_names(dir).empty());
  }
}

// A rename that fails halfway through the commit (here the last file's folder is a file)
// left the files renamed before it in place without their _meta line, and the next
// export stopped at them. The commit now takes back what it renamed.
TEST_F(ExportDatasetCli, CommitThatFailsHalfwayTakesBackWhatItRenamed) {
  const std::string db = path("games.db"), b = file("b.pgn", test::games_text(10, 20));
  ASSERT_EQ(index({"-q", "-o", db, file("a.pgn", test::games_text(0, 10)), b}).code, 0);
  const fs::path dir = path("dataset");
  ASSERT_EQ(export_dataset(db, dir.string()).code, 0);
  test::write_file(b, test::games_text(10, 21));  // b.pgn replaced: a removed source and new games
  ASSERT_EQ(index({"-q", "-o", db, "--replace", b}).code, 0);
  fs::rename(dir / "removed", path("removed-aside"));
  test::write_file(dir / "removed", "in the way of removed/part-000002.parquet");
  const std::vector<std::string> before = tree(dir);
  const std::string meta = test::read_file(dir / "_meta");
  const Ran r = export_dataset(db, dir.string());
  EXPECT_EQ(r.code, 1) << r;
  ASSERT_EQ(r.err_lines().size(), 1u) << r;
  EXPECT_NE(r.err.find("removed/part-000002.parquet: cannot rename into place"), std::string::npos) << r;
  EXPECT_EQ(tree(dir), before) << "games/, positions/ and explorer/ files of export 2 stayed";
  EXPECT_EQ(test::read_file(dir / "_meta"), meta);
  fs::remove(dir / "removed");
  fs::rename(path("removed-aside"), dir / "removed");
  const Ran again = export_dataset(db, dir.string());
  EXPECT_EQ(again.code, 0) << again;
  EXPECT_NE(again.out.find("export 2: games 21..31, 11 games, removed source 2 (10 games gone)"), std::string::npos)
      << again;
}

// A failed first export of an earlier version left empty folders: they are no reason to
// refuse the folder, since it holds no file.
TEST_F(ExportDatasetCli, EmptyFoldersAreNoReasonToRefuse) {
  const std::string db = database(20);
  fs::create_directories(path("dataset/games/source=1"));
  fs::create_directories(path("dataset/positions/kb=3"));
  const Ran r = export_dataset(db, path("dataset"));
  EXPECT_EQ(r.code, 0) << r;
  fs::create_directories(path("other/notes"));
  test::write_file(path("other/notes/today.txt"), "mine");
  const Ran refused = export_dataset(db, path("other"));
  EXPECT_EQ(refused.code, 1) << refused;
  EXPECT_NE(refused.err.find("holds files but no _meta"), std::string::npos) << refused;
}

// --bucket-bits 10 and 12 kept one spill file open per bucket: "Too many open files"
// under ulimit -n 1024, 1,016 files left behind. The spill now holds one file open.
TEST_F(ExportDatasetCli, ManyBucketsFitALowOpenFileLimit) {
  const std::string db = database(3);
  const Ran one = query({"export-dataset", db, path("one"), "--bucket-bits", "0"});
  ASSERT_EQ(one.code, 0) << one;
  const std::string positions = one.out.substr(one.out.find(" games, ") + 8);
  Redirects few_files;
  few_files.in_child = [] {
    rlimit limit{64, 64};
    setrlimit(RLIMIT_NOFILE, &limit);
  };
  const Ran r = query({"export-dataset", db, path("ten"), "--bucket-bits", "10"}, few_files);
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_EQ(r.out.substr(r.out.find(" games, ") + 8, 20), positions.substr(0, 20)) << r << one;
  EXPECT_TRUE(dot_names(path("ten")).empty());
  size_t buckets = 0;
  for (const auto& e : fs::directory_iterator(path("ten") + "/positions")) {
    const int kb = std::stoi(e.path().filename().string().substr(3));
    EXPECT_LT(kb, 1024);
    ++buckets;
  }
  EXPECT_GT(buckets, 100u) << "3 games reach over a hundred of the 1,024 buckets";
}

// A game of 68,000 plies (pgn-index takes it) aborted the whole export: now it is skipped
// and named in one line, and the others exported (exit 1, as export exits when it could
// not write every game).
TEST_F(ExportDatasetCli, GameLongerThanTheDatasetTakesIsSkippedAndNamed) {
  std::string moves;
  const char* shuffle[] = {"Nf3", "Nf6", "Ng1", "Ng8"};
  for (int ply = 0; ply < 68000; ++ply) {
    if (ply % 2 == 0) moves += std::to_string(ply / 2 + 1) + ". ";
    moves += shuffle[ply % 4];
    moves += ply % 16 == 15 ? "\n" : " ";
  }
  const std::string long_game = "[Event \"Knights\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n" + moves + "*\n\n";
  const std::string db = path("games.db");
  const Ran imported =
      index({"-q", "-o", db, file("games.pgn", test::games_text(0, 10) + long_game + test::games_text(10, 20))});
  ASSERT_EQ(imported.code, 0) << imported;
  const Ran r = export_dataset(db, path("dataset"));
  EXPECT_EQ(r.code, 1) << r;
  ASSERT_EQ(r.err_lines().size(), 1u) << r;
  EXPECT_EQ(r.err_lines()[0], "pgn-query export-dataset: game 11 skipped: 68000 plies, more than the dataset's 65535");
  EXPECT_NE(r.out.find("export 1: games 1..21, 20 games, 1 game skipped"), std::string::npos) << r;
  EXPECT_NE(test::read_file(path("dataset/_meta")).find("1 skipped (more than 65535 plies): 11"), std::string::npos);
  const Ran again = export_dataset(db, path("dataset"));
  EXPECT_EQ(again.code, 0) << again;
  EXPECT_NE(again.out.find("nothing new to export"), std::string::npos) << again;
}

// Game ids of 200,000,000 and 2^32 - 1 made the export allocate 16 bytes per id below the
// largest (3.2 GB; std::bad_alloc). Memory now follows the games exported. The child's
// allocations are capped, so that the old behaviour fails fast instead of swapping.
TEST_F(ExportDatasetCli, HostileGameIdsCostMemoryByTheGamesNotTheIds) {
  const std::string db = database(20);
  {
    store::Database d(db, store::Database::Mode::ReadWrite);
    d.exec("UPDATE games SET id = 200000000 WHERE id = 19; UPDATE game_annotations SET id = 200000000 WHERE id = 19;"
           "UPDATE games SET id = 4294967295 WHERE id = 20; UPDATE game_annotations SET id = 4294967295 WHERE id = 20");
  }
  Redirects capped;
  capped.in_child = [] {
#if defined(__SANITIZE_ADDRESS__)
    const char* old = std::getenv("ASAN_OPTIONS");
    const std::string options = std::string(old ? old : "") + ":allocator_may_return_null=1:max_allocation_size_mb=1024";
    setenv("ASAN_OPTIONS", options.c_str(), 1);
#else
    rlimit limit{rlim_t(2) << 30, rlim_t(2) << 30};
    setrlimit(RLIMIT_AS, &limit);
#endif
  };
  const pid_t pid = start(dir_, kQueryBinary, {"export-dataset", db, path("dataset")}, capped);
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  Ran r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  r.out = test::read_file(dir_ / "stdout.txt");
  r.err = test::read_file(dir_ / "stderr.txt");
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_NE(r.out.find("export 1: games 1..4294967295, 20 games"), std::string::npos) << r;
  EXPECT_LT(usage.ru_maxrss, 400 * 1024) << "KiB";
}

}  // namespace
}  // namespace pgnbase::cli_test
