// pgn-index reading a path that can be read only once: a named FIFO, /dev/stdin,
// /dev/fd/N and /proc/self/fd/N of a pipe, a character device. Each must be opened and
// read once, as "-" is, so that every game of the bundled sample (2,000 real lichess
// games, tools/sample) arrives; a second open would start after the bytes already read.
#include <signal.h>
#include <sys/stat.h>

#include <atomic>
#include <thread>

#include "indexer/content_hash.h"
#include "store/database.h"
#include "tests/cli/cli_support.h"
#include "tests/support/bundled_sample.h"
#include "tests/support/files.h"

namespace pgnbase::cli_test {
namespace {

constexpr int64_t kSampleGames = 2000;  // tools/sample/README.md

int64_t count(const std::string& db, const std::string& sql) {
  store::Database d(db, store::Database::Mode::ReadOnly);
  store::Statement s = d.prepare(sql);
  return s.step() ? s.column_int64(0) : -1;
}

std::string text(const std::string& db, const std::string& sql) {
  store::Database d(db, store::Database::Mode::ReadOnly);
  store::Statement s = d.prepare(sql);
  return s.step() ? std::string(s.column_text(0)) : "";
}

// Writes bytes to fd from a thread, then closes fd (the reader then sees the end).
class PipeFeeder {
 public:
  PipeFeeder(int fd, const std::string& bytes)
      : thread_([fd, &bytes] {
          for (size_t at = 0; at < bytes.size();) {
            const ssize_t n = ::write(fd, bytes.data() + at, bytes.size() - at);
            if (n <= 0) break;  // the reader went away; the test's counts say so
            at += size_t(n);
          }
          ::close(fd);
        }) {}
  ~PipeFeeder() { thread_.join(); }

 private:
  std::thread thread_;
};

class PipeInput : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    // A reader that closes early must give the feeding thread EPIPE, not kill the test.
    previous_sigpipe_ = ::signal(SIGPIPE, SIG_IGN);
    db_ = path("games.db");
  }
  void TearDown() override {
    ::signal(SIGPIPE, previous_sigpipe_);
    CliTest::TearDown();
  }

  // Runs pgn-index -o DB input while a thread writes the sample into a pipe whose read
  // end the child holds at child_fd (0: standard input).
  Ran index_from_pipe(const std::string& input, int child_fd) {
    int ends[2];
    EXPECT_EQ(::pipe2(ends, O_CLOEXEC), 0);  // no other child may hold an end open
    Redirects redirects;
    if (child_fd == STDIN_FILENO) redirects.stdin_fd = ends[0];
    else redirects.in_child = [read_end = ends[0], child_fd] { ::dup2(read_end, child_fd); };
    const pid_t pid = start(dir_, kIndexBinary, {"-o", db_, "-j", "2", input}, redirects);
    ::close(ends[0]);
    Ran r;
    {
      PipeFeeder feeder(ends[1], test::sample_text());
      r = finish(dir_, pid, redirects);
    }
    return r;
  }

  // Every game of the sample arrived: the summary says so and the database holds them.
  void expect_whole_sample(const Ran& r, const std::string& name) {
    EXPECT_EQ(r.code, 0) << r;
    EXPECT_EQ(r.err, "") << r;
    EXPECT_NE(r.out.find(name + ": 2000 games found, 2000 imported, 0 rejected"), std::string::npos) << r;
    EXPECT_EQ(count(db_, "SELECT COUNT(*) FROM games"), kSampleGames);
    EXPECT_EQ(count(db_, "SELECT COUNT(*) FROM rejects"), 0);
    // Byte for byte: the source's content hash is that of the whole sample.
    indexer::ContentHasher hasher;
    hasher.update(test::sample_text());
    EXPECT_EQ(text(db_, "SELECT content_hash FROM sources"), hasher.finish());
  }

  std::string db_;
  sighandler_t previous_sigpipe_ = SIG_DFL;
};

TEST_F(PipeInput, DevStdinOfAPipeReadsEveryGame) {
  expect_whole_sample(index_from_pipe("/dev/stdin", STDIN_FILENO), "/dev/stdin");
}

TEST_F(PipeInput, DevFdOfAPipeReadsEveryGame) {
  // What the shell passes for pgn-index -o DB <(zstdcat games.pgn.zst).
  expect_whole_sample(index_from_pipe("/dev/fd/7", 7), "/dev/fd/7");
}

TEST_F(PipeInput, ProcSelfFdOfAPipeReadsEveryGame) {
  expect_whole_sample(index_from_pipe("/proc/self/fd/7", 7), "/proc/self/fd/7");
}

TEST_F(PipeInput, NamedFifoReadsEveryGame) {
  const std::string fifo = path("games.fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // The writer opens the FIFO again whenever a reader closes it early, so that code which
  // opens the path twice loses the first bytes (as `zstdcat > fifo` would) but never hangs.
  std::atomic<bool> stop{false};
  std::thread writer([&] {
    const std::string& bytes = test::sample_text();
    for (size_t at = 0; at < bytes.size() && !stop;) {
      const int fd = ::open(fifo.c_str(), O_WRONLY | O_CLOEXEC);  // waits for a reader
      if (fd < 0) break;
      for (ssize_t n; at < bytes.size() && (n = ::write(fd, bytes.data() + at, bytes.size() - at)) > 0;) at += size_t(n);
      ::close(fd);
    }
  });
  Ran r = index({"-o", db_, "-j", "2", fifo});
  stop = true;
  ::close(::open(fifo.c_str(), O_RDONLY | O_NONBLOCK));  // frees a writer still waiting to open
  writer.join();
  expect_whole_sample(r, fifo);
}

TEST_F(PipeInput, CharacterDevicesHaveAClearOutcome) {
  // /dev/null is an empty input: imported as such, like an empty file.
  Ran r = index({"-o", db_, "/dev/null"});
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_NE(r.out.find("/dev/null: 0 games found, 0 imported, 0 rejected"), std::string::npos) << r;
  EXPECT_EQ(count(db_, "SELECT COUNT(*) FROM sources"), 1);
  // /dev/zero never ends but is refused from its first bytes: one line, status 1.
  r = index({"-o", db_, "/dev/zero"});
  EXPECT_EQ(r.code, 1) << r;
  EXPECT_EQ(r.err, "pgn-index: /dev/zero: not a PGN file (looks like binary data)\n") << r;
  EXPECT_EQ(count(db_, "SELECT COUNT(*) FROM sources"), 1);
}

TEST_F(PipeInput, DatabaseReadThroughDevStdinOrDevFdIsStillRefused) {
  const std::string pgn = file("three.pgn", test::games_text(0, 3));
  ASSERT_EQ(index({"-q", "-o", db_, pgn}).code, 0);
  const std::string before = test::read_file(db_);
  // pgn-index -o games.db /dev/stdin < games.db
  Redirects from_db;
  from_db.stdin_path = db_;
  Ran r = index({"-o", db_, "/dev/stdin"}, from_db);
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_NE(r.err.find("is the same file as the input '/dev/stdin'"), std::string::npos) << r;
  // pgn-index -o games.db /dev/fd/7 7< games.db
  Redirects fd_of_db;
  fd_of_db.in_child = [this] { ::dup2(::open(db_.c_str(), O_RDONLY), 7); };
  r = index({"-o", db_, "/dev/fd/7"}, fd_of_db);
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_NE(r.err.find("is the same file as the input '/dev/fd/7'"), std::string::npos) << r;
  EXPECT_EQ(test::read_file(db_), before);
}

}  // namespace
}  // namespace pgnbase::cli_test
