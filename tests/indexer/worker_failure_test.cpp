// A thread of the import that throws, or cannot start, ends the import with an error and
// the file rolled back, never with std::terminate. Runs under TSan too (run_tests.sh).
#include <gtest/gtest.h>
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <new>

#include "indexer/import_pipeline.h"
#include "core/thread_group.h"
#include "tests/support/temp_dir.h"

namespace pgnbase::indexer {
namespace {

namespace fs = std::filesystem;

// In the repository, so these tests always run: 2,000 real lichess games, 7.6 MB.
const fs::path kSample = fs::path(PGNBASE_SOURCE_DIR) / "tools" / "sample" / "lichess-drnykterstein-2000.pgn.zst";

int64_t count(store::Database& db, const std::string& sql) {
  store::Statement s = db.prepare(sql);
  return s.step() ? s.column_int64(0) : -1;
}

TEST(ThreadGroupTest, FirstExceptionOfAThreadIsRethrownByJoinAndStopsTheOthers) {
  std::atomic<bool> stop{false};
  std::atomic<int> finished{0};
  ThreadGroup group([&] { stop = true; });
  for (int i = 0; i < 4; ++i)
    group.start(
        [&, i] {
          if (i == 2) throw std::runtime_error("thread 2 failed");
          while (!stop.load()) std::this_thread::yield();  // ends only because of on_error
          ++finished;
        },
        "test thread");
  try {
    group.join();
    FAIL() << "join did not rethrow";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "thread 2 failed");
  }
  EXPECT_EQ(finished.load(), 3);
}

// Runs body in a forked child whose threads get a stack larger than the address space
// can hold, so that every thread start fails; returns the child's exit status (or 128 +
// the signal). Fork keeps the test process's own threads out of it.
int in_child_that_cannot_start_threads(const std::function<int()>& body) {
  const pid_t pid = fork();
  if (pid == 0) {
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, size_t{1} << 46);  // 64 TiB
    pthread_setattr_default_np(&attr);
    _exit(body());
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

TEST(ThreadGroupTest, ThreadThatCannotStartIsAnErrorNamingIt) {
  const int status = in_child_that_cannot_start_threads([] {
    try {
      ThreadGroup group;
      group.start([] {}, "worker thread 1 of 3");
    } catch (const ThreadStartError& e) {
      return std::string(e.what()).starts_with("cannot start worker thread 1 of 3: ") ? 0 : 2;
    }
    return 3;  // the thread started after all: the test proves nothing here
  });
  if (status == 3) GTEST_SKIP() << "this system starts threads with a 64 TiB stack";
  EXPECT_EQ(status, 0);
}

class ImportFailureTest : public test::TempDirTest {
 protected:
  ImportOutcome import(DatabaseWriter& writer, const std::function<void(uint64_t)>& on_worker_chunk) {
    ImportOptions options;
    options.threads = 3;
    options.chunk_bytes = 256 << 10;  // about 30 chunks
    options.on_worker_chunk = on_worker_chunk;
    return import_file(kSample.string(), writer, options);
  }
};

TEST_F(ImportFailureTest, WorkerThatThrowsEndsTheImportAndRollsTheFileBack) {
  const std::string db = (dir_ / "x.db").string();
  DatabaseWriter writer(db, WriterOptions{});
  EXPECT_THROW(import(writer, [](uint64_t chunk) {
                 if (chunk == 7) throw std::bad_alloc();
               }),
               std::bad_alloc);
  EXPECT_EQ(count(writer.database(), "SELECT COUNT(*) FROM games"), 0);
  EXPECT_EQ(count(writer.database(), "SELECT COUNT(*) FROM sources"), 0);
  // The writer is usable afterwards: the same file imports whole.
  const ImportOutcome outcome = import(writer, {});
  EXPECT_EQ(outcome.summary.imported, 2000u);
  EXPECT_EQ(count(writer.database(), "SELECT COUNT(*) FROM games"), 2000);
}

TEST_F(ImportFailureTest, ImportThatCannotStartItsThreadsFailsAndRollsTheFileBack) {
  const std::string db = (dir_ / "x.db").string();
  const int status = in_child_that_cannot_start_threads([&] {
    try {
      DatabaseWriter writer(db, WriterOptions{});
      import(writer, {});
    } catch (const ThreadStartError&) {
      return 0;
    }
    return 3;
  });
  if (status == 3) GTEST_SKIP() << "this system starts threads with a 64 TiB stack";
  ASSERT_EQ(status, 0);
  store::Database check(db, store::Database::Mode::ReadOnly);
  EXPECT_EQ(count(check, "SELECT COUNT(*) FROM sources"), 0);
}

}  // namespace
}  // namespace pgnbase::indexer
