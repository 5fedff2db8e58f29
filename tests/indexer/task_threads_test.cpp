// Threads kept from batch to batch (core/task_threads.h): the import's row staging runs
// each chunk's parts on them. Among the indexer's tests so that ThreadSanitizer runs
// these with the pipeline's (tools/run_tests.sh).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "core/task_threads.h"
#include "core/thread_cpu.h"

namespace pgnbase {
namespace {

// Each task of a batch records the thread it ran on.
std::vector<std::thread::id> run_batch(TaskThreads& threads, size_t count) {
  std::vector<std::thread::id> ran_on(count);
  threads.run(count, [&](size_t slot) { ran_on[slot] = std::this_thread::get_id(); });
  threads.wait();
  return ran_on;
}

TEST(TaskThreads, ABatchsTasksRunAtOnce) {
  // Every task waits until all have started: tasks run one after another would never get
  // there (the wait gives up after ten seconds and the test fails instead of hanging).
  TaskThreads threads(ThreadRole::Other, "a test thread");
  constexpr size_t kTasks = 5;
  std::mutex mutex;
  std::condition_variable arrived;
  size_t started = 0;
  std::vector<bool> met(kTasks, false);
  threads.run(kTasks, [&](size_t slot) {
    std::unique_lock lock(mutex);
    ++started;
    arrived.notify_all();
    met[slot] = arrived.wait_for(lock, std::chrono::seconds(10), [&] { return started == kTasks; });
  });
  threads.wait();
  for (size_t slot = 0; slot < kTasks; ++slot) EXPECT_TRUE(met[slot]) << "task " << slot;
}

TEST(TaskThreads, ThreadsAreKeptForTheNextBatches) {
  TaskThreads threads(ThreadRole::Other, "a test thread");
  const std::vector<std::thread::id> first = run_batch(threads, 3);
  EXPECT_EQ(std::set<std::thread::id>(first.begin(), first.end()).size(), 3u);
  EXPECT_EQ(first.end(), std::find(first.begin(), first.end(), std::this_thread::get_id()));
  // A smaller batch runs on the first threads, a larger one starts only the ones missing.
  const std::vector<std::thread::id> smaller = run_batch(threads, 2);
  EXPECT_EQ(smaller, std::vector<std::thread::id>(first.begin(), first.begin() + 2));
  const std::vector<std::thread::id> larger = run_batch(threads, 5);
  EXPECT_EQ(std::vector<std::thread::id>(larger.begin(), larger.begin() + 3), first);
  EXPECT_EQ(std::set<std::thread::id>(larger.begin(), larger.end()).size(), 5u);
  for (int batch = 0; batch < 50; ++batch)
    EXPECT_EQ(run_batch(threads, 4), std::vector<std::thread::id>(larger.begin(), larger.begin() + 4));
  EXPECT_FALSE(threads.running());
}

TEST(TaskThreads, WaitRethrowsATasksErrorAfterTheOthersRan) {
  TaskThreads threads(ThreadRole::Other, "a test thread");
  std::vector<int> ran(4, 0);
  threads.run(4, [&](size_t slot) {
    ran[slot] = 1;
    if (slot == 2) throw std::runtime_error("part 3 failed");
  });
  try {
    threads.wait();
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "part 3 failed");
  }
  EXPECT_EQ(ran, std::vector<int>(4, 1));
  EXPECT_FALSE(threads.running());
  // The error went with its batch: the next one runs and waits cleanly.
  EXPECT_EQ(run_batch(threads, 4).size(), 4u);
}

TEST(TaskThreads, AbandonWaitsAndDropsTheError) {
  TaskThreads threads(ThreadRole::Other, "a test thread");
  std::vector<int> ran(3, 0);
  threads.run(3, [&](size_t slot) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    ran[slot] = 1;
    throw std::runtime_error("dropped");
  });
  threads.abandon();
  EXPECT_EQ(ran, std::vector<int>(3, 1));  // every task had ended
  EXPECT_FALSE(threads.running());
  EXPECT_NO_THROW(run_batch(threads, 3));
}

TEST(TaskThreads, ThreadsWithARoleAddTheirCpuWhenTheyEnd) {
  const size_t rows = size_t(ThreadRole::Rows);
  const ThreadCpuTotals before = thread_cpu_totals();
  {
    TaskThreads threads(ThreadRole::Rows, "a test thread");
    for (int batch = 0; batch < 10; ++batch) run_batch(threads, batch % 2 == 0 ? 2 : 3);
    EXPECT_EQ(thread_cpu_totals().threads[rows], before.threads[rows]);  // still kept
  }
  EXPECT_EQ(thread_cpu_totals().threads[rows], before.threads[rows] + 3);
}

TEST(TaskThreads, EndsWithABatchNotWaitedFor) {
  std::vector<int> ran(2, 0);
  {
    TaskThreads threads(ThreadRole::Other, "a test thread");
    threads.run(2, [&](size_t slot) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      ran[slot] = 1;
    });
  }  // the destructor waits for the batch before the threads end
  EXPECT_EQ(ran, std::vector<int>(2, 1));
}

}  // namespace
}  // namespace pgnbase
