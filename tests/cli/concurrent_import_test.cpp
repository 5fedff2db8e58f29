// Imports beside each other and imports that end early, with real processes on the
// bundled real games (tools/sample): two pgn-index runs on one database, SIGTERM, SIGINT
// and kill -9 mid-import, and threads that the system refuses to start.
#include <pty.h>
#include <sys/resource.h>

#include <chrono>
#include <mutex>
#include <thread>

#include "store/database.h"
#include "tests/cli/cli_support.h"
#include "tests/support/bundled_sample.h"
#include "tests/support/files.h"

namespace pgnbase::cli_test {
namespace {

using namespace std::chrono_literals;

// The first column of the query's first row; -1 while the database or its tables do not exist.
int64_t count(const std::string& db, const std::string& sql) {
  try {
    if (!fs::exists(db)) return -1;
    store::Database d(db, store::Database::Mode::ReadOnly);
    store::Statement s = d.prepare(sql);
    return s.step() ? s.column_int64(0) : -1;
  } catch (const store::StoreError&) {
    return -1;
  }
}

// Waits up to 60 s for done(); false on timeout.
bool eventually(const std::function<bool()>& done) {
  for (auto end = std::chrono::steady_clock::now() + 60s; std::chrono::steady_clock::now() < end;
       std::this_thread::sleep_for(20ms))
    if (done()) return true;
  return false;
}

Redirects stdin_from(int fd) {
  Redirects r;
  r.stdin_fd = fd;
  return r;
}

Redirects stderr_to(int fd) {
  Redirects r;
  r.stderr_fd = fd;
  return r;
}

// True while some connection holds the database's write lock.
bool write_locked(const std::string& db) {
  if (!fs::exists(db)) return false;
  try {
    store::Database d(db, store::Database::Mode::ReadWrite);
    d.set_busy_timeout(0ms);
    d.exec("BEGIN IMMEDIATE");
    d.exec("ROLLBACK");
    return false;
  } catch (const store::StoreError&) {
    return true;
  }
}

// A pipe whose read end becomes a child's stdin.
struct Pipe {
  int read_end = -1, write_end = -1;
  Pipe() {
    int fds[2];
    EXPECT_EQ(pipe2(fds, O_CLOEXEC), 0);  // no other child may hold an end open
    read_end = fds[0];
    write_end = fds[1];
  }
  void write_all(const std::string& bytes) {
    for (size_t at = 0; at < bytes.size();) {
      const ssize_t n = ::write(write_end, bytes.data() + at, bytes.size() - at);
      if (n <= 0) return;  // the reader died; the test's checks say so
      at += size_t(n);
    }
  }
  // Closes the parent's copy of the read end once the child has its own, so that writing
  // to a child that died fails (EPIPE) instead of blocking.
  void close_read() {
    if (read_end >= 0) ::close(read_end);
    read_end = -1;
  }
  void close_write() {
    if (write_end >= 0) ::close(write_end);
    write_end = -1;
  }
  ~Pipe() {
    close_write();
    if (read_end >= 0) ::close(read_end);
  }
};

// Reads a pseudo-terminal's output on a thread, so the child never blocks writing.
class TerminalReader {
 public:
  TerminalReader() {
    EXPECT_EQ(openpty(&master_, &slave_, nullptr, nullptr, nullptr), 0);
    fcntl(master_, F_SETFD, FD_CLOEXEC);
    fcntl(slave_, F_SETFD, FD_CLOEXEC);
    thread_ = std::thread([this] {
      char buffer[4096];
      for (ssize_t n; (n = ::read(master_, buffer, sizeof buffer)) > 0;) {
        std::lock_guard lock(mutex_);
        text_.append(buffer, size_t(n));
      }
    });
  }
  int slave() const { return slave_; }
  // Closes the parent's copy of the slave once the child has its own.
  void close_slave() { ::close(slave_); }
  std::string text() {
    std::lock_guard lock(mutex_);
    return text_;
  }
  ~TerminalReader() {
    thread_.join();  // read() fails with EIO once the child has closed the terminal
    ::close(master_);
  }

 private:
  int master_ = -1, slave_ = -1;
  std::mutex mutex_;
  std::string text_;
  std::thread thread_;
};

class ConcurrentImport : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    previous_sigpipe_ = signal(SIGPIPE, SIG_IGN);  // a child that died fails a write instead
  }
  void TearDown() override {
    signal(SIGPIPE, previous_sigpipe_);
    CliTest::TearDown();
  }
  sighandler_t previous_sigpipe_ = SIG_DFL;
  std::string db() const { return path("games.db"); }
  // A folder for the captured output of one of several programs running at once.
  fs::path output_dir(const std::string& name) const {
    fs::create_directories(dir_ / name);
    return dir_ / name;
  }
  void second_import_waits_for_the_first(bool database_exists);
};

// A second import into a database that another import is writing waits for it and then
// adds its own file: appended to a database that exists, or both building a
// new one (the first builds it under a private name, indexer/fresh_build.h; the second
// waits for that name's lock and then appends to what the first published).
void ConcurrentImport::second_import_waits_for_the_first(bool database_exists) {
  const std::string database = db();
  if (database_exists) {
    ASSERT_EQ(index({"-q", "-o", database, file("old.pgn", test::games_text(1900, 2000))}).code, 0);
  }
  // The bundled sample's 2,000 games, split over the (old,) first and second files.
  const std::string second = file("second.pgn", test::games_text(1500, database_exists ? 1900 : 2000));
  Pipe input;
  const pid_t first =
      start(output_dir("first"), kIndexBinary, {"-o", database, "-j", "2", "-"}, stdin_from(input.read_end));
  input.close_read();
  if (database_exists) {
    // The first import reads standard input ahead; given more than the 64 KiB it reads
    // ahead, it begins the file (takes the write lock) and waits for the rest.
    input.write_all(test::games_text(0, 200));
    ASSERT_TRUE(eventually([&] { return write_locked(database); })) << "the first import never took the write lock";
  } else {
    ASSERT_TRUE(eventually([&] { return fs::exists(database + "-building"); })) << "the first import never began its build";
    EXPECT_FALSE(fs::exists(database)) << "a database that is being built is not visible";
    input.write_all(test::games_text(0, 200));
  }

  TerminalReader terminal;
  const pid_t waiting = start(output_dir("second"), kIndexBinary, {"-o", database, second}, stderr_to(terminal.slave()));
  terminal.close_slave();
  EXPECT_TRUE(eventually([&] { return terminal.text().find("waiting for another import") != std::string::npos; }))
      << "no waiting line on the second import's terminal:\n" << terminal.text();
  input.write_all(test::games_text(200, 1500));
  input.close_write();

  const Ran a = finish(output_dir("first"), first);
  const Ran b = finish(output_dir("second"), waiting, stderr_to(0));
  EXPECT_EQ(a.code, 0) << a;
  EXPECT_EQ(b.code, 0) << "second import:\n" << terminal.text();
  EXPECT_EQ(count(database, "SELECT COUNT(*) FROM sources"), database_exists ? 3 : 2);
  EXPECT_EQ(count(database, "SELECT COUNT(*) FROM games"), 2000);
  EXPECT_FALSE(fs::exists(database + "-building"));
}

TEST_F(ConcurrentImport, SecondImportWaitsForTheFirstAndBothFilesAreStored) {
  second_import_waits_for_the_first(/*database_exists=*/true);
}

TEST_F(ConcurrentImport, SecondImportOfANewDatabaseWaitsForTheFirstToPublishIt) {
  second_import_waits_for_the_first(/*database_exists=*/false);
}

TEST_F(ConcurrentImport, ImportThatStartedFirstSeesWhatAnotherStoredMeanwhile) {
  const std::string own = file("own.pgn", test::games_text(0, 1000));
  const std::string other = file("other.pgn", test::games_text(1000, 1500));
  Pipe input;
  // Imports own.pgn, then waits for standard input, holding no lock.
  const pid_t first = start(output_dir("first"), kIndexBinary, {"-o", db(), "-j", "2", own, "-"},
                            stdin_from(input.read_end));
  input.close_read();
  ASSERT_TRUE(eventually([&] { return count(db(), "SELECT COUNT(*) FROM sources") == 1; }));
  const Ran b = run(output_dir("second"), kIndexBinary, {"-o", db(), other});
  ASSERT_EQ(b.code, 0) << b;
  // New games, then the other import's games again: the duplicate check must know them.
  input.write_all(test::games_text(1500, 2000) + test::games_text(1000, 1500));
  input.close_write();
  const Ran a = finish(output_dir("first"), first);
  EXPECT_EQ(a.code, 0) << a;  // was: UNIQUE constraint failed: games.id
  EXPECT_EQ(count(db(), "SELECT COUNT(*) FROM games"), 2000);
  EXPECT_EQ(count(db(), "SELECT duplicates FROM sources WHERE path = '-'"), 500);
  EXPECT_EQ(count(db(), "SELECT COUNT(*) - COUNT(DISTINCT name) FROM names"), 0);
  EXPECT_EQ(count(db(), "SELECT COUNT(*) FROM games WHERE white_id NOT IN (SELECT id FROM names)"), 0);
}

// The run files of the position index sort in a folder of their own.
std::vector<std::string> run_files(const fs::path& folder) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(folder))
    if (entry.path().filename().string().starts_with("pgnbase-postings-")) names.push_back(entry.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

// A background job's ignored SIGINT would stay ignored in the child.
Redirects with_default_sigint(Redirects r) {
  r.in_child = [] { signal(SIGINT, SIG_DFL); };
  return r;
}

class InterruptedImport : public ConcurrentImport {
 protected:
  fs::path temp() const { return dir_ / "tmp"; }
  // Starts an import of stdin that spills run files with --memory 1M and stops, its
  // first 4 MiB chunk indexed, waiting for more input.
  pid_t start_spilling_import(Pipe& input) {
    fs::create_directories(temp());
    const pid_t pid =
        start(output_dir("import"), kIndexBinary,
              {"-o", db(), "-j", "2", "--memory", "1M", "--temp-dir", temp().string(), "-"},
              with_default_sigint(stdin_from(input.read_end)));
    input.close_read();
    input.write_all(test::games_text(0, 1400));  // about 5.3 MB
    EXPECT_TRUE(eventually([&] { return !run_files(temp()).empty(); })) << "no run file appeared";
    return pid;
  }
};

class InterruptedBySignal : public InterruptedImport, public ::testing::WithParamInterface<int> {};

TEST_P(InterruptedBySignal, LeavesNoRunFileAndNoSource) {
  Pipe input;
  const pid_t pid = start_spilling_import(input);
  kill(pid, GetParam());
  const Ran r = finish(output_dir("import"), pid);
  EXPECT_EQ(r.signal, GetParam()) << r;
  EXPECT_EQ(run_files(temp()), std::vector<std::string>{});
  // The new database was being built under its private name: neither name stays.
  EXPECT_FALSE(fs::exists(db()));
  EXPECT_FALSE(fs::exists(db() + "-building"));
}

INSTANTIATE_TEST_SUITE_P(SigtermAndSigint, InterruptedBySignal, ::testing::Values(SIGTERM, SIGINT),
                         [](const auto& info) { return info.param == SIGTERM ? "Sigterm" : "Sigint"; });

TEST_F(InterruptedImport, KillNineLeavesRunFilesThatTheNextImportRemoves) {
  // Files the sweep must keep: a live process's (this test's), and another user's.
  const std::string live = "pgnbase-postings-" + std::to_string(getpid()) + "-AbCdEf.run";
  Pipe input;
  const pid_t pid = start_spilling_import(input);
  test::write_file(temp() / live, "live");
  kill(pid, SIGKILL);
  finish(output_dir("import"), pid);
  const size_t left = run_files(temp()).size() - 1;
  ASSERT_GT(left, 0u);
  const bool root = geteuid() == 0;
  const std::string foreign = "pgnbase-postings-" + std::to_string(pid) + "-GhIjKl.run";
  if (root) {
    test::write_file(temp() / foreign, "nobody's");
    ASSERT_EQ(chown((temp() / foreign).c_str(), 65534, 65534), 0);
  }

  const Ran r = index({"-o", db(), "--temp-dir", temp().string(), file("more.pgn", test::games_text(0, 10))});
  EXPECT_EQ(r.code, 0) << r;
  ASSERT_EQ(r.err_lines().size(), 1u) << r;
  const std::string removed = "pgn-index: removed " + std::to_string(left) + (left == 1 ? " run file (" : " run files (");
  EXPECT_EQ(r.err_lines()[0].rfind(removed, 0), 0u) << r;
  EXPECT_NE(r.err.find("(pid " + std::to_string(pid) + ")"), std::string::npos) << r;
  std::vector<std::string> kept = {live};
  if (root) kept.push_back(foreign);
  std::sort(kept.begin(), kept.end());
  EXPECT_EQ(run_files(temp()), kept);
}

// Tasks (threads included) of a user, as RLIMIT_NPROC counts them.
long tasks_of_user(uid_t uid) {
  long tasks = 0;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string name = entry.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;  // self, thread-self ...
    std::ifstream status(entry.path() / "status");
    uid_t real = ~uid_t{0};
    long threads = 0;
    for (std::string line; std::getline(status, line);) {
      if (line.starts_with("Uid:")) real = uid_t(std::stoul(line.substr(4)));
      if (line.starts_with("Threads:")) threads = std::stol(line.substr(8));
    }
    if (real == uid) tasks += threads;
  }
  return tasks;
}

// Runs the child as a user who may start only `threads` threads beside its main one:
// RLIMIT_NPROC (root, whom it does not bind, becomes nobody first).
Redirects with_thread_limit(unsigned threads) {
  const uid_t uid = geteuid() == 0 ? 65534 : geteuid();
  const rlim_t limit = rlim_t(tasks_of_user(uid) + 1 + threads);
  Redirects r;
  r.in_child = [uid, limit] {
    if (uid != geteuid() && (setgid(uid) != 0 || setuid(uid) != 0)) _exit(125);
    rlimit l{limit, limit};
    setrlimit(RLIMIT_NPROC, &l);
  };
  return r;
}

TEST_F(ConcurrentImport, ThreadThatCannotStartEndsTheImportWithOneLine) {
  fs::permissions(dir_ / "work", fs::perms::all);
  const std::string games = file("games.pgn", test::games_text(0, 2000));
  fs::permissions(games, fs::perms::all);
  const Ran r = index({"-o", db(), "-j", "64", games}, with_thread_limit(2));
  EXPECT_EQ(r.signal, 0) << r;  // was: SIGABRT from std::terminate
  EXPECT_EQ(r.code, 1) << r;
  ASSERT_EQ(r.err_lines().size(), 1u) << r;
  EXPECT_NE(r.err.find("cannot start "), std::string::npos) << r;
  EXPECT_FALSE(fs::exists(db())) << "a new database with nothing imported stays";
}

TEST_F(ConcurrentImport, QueryThreadThatCannotStartEndsTheSearchWithOneLine) {
  ASSERT_EQ(index({"-q", "-o", db(), test::kSample.string()}).code, 0);
  fs::permissions(dir_ / "work", fs::perms::all);
  for (const auto& entry : fs::directory_iterator(dir_ / "work")) fs::permissions(entry.path(), fs::perms::all);
  const Ran r = query({"search", db(), "--format", "jsonl", "-j", "16"}, with_thread_limit(2));
  EXPECT_EQ(r.signal, 0) << r;
  EXPECT_EQ(r.code, 1) << r;
  ASSERT_EQ(r.err_lines().size(), 1u) << r;
  EXPECT_NE(r.err.find("cannot start formatting thread 3 of 16"), std::string::npos) << r;
}

}  // namespace
}  // namespace pgnbase::cli_test
