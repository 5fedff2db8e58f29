// CPU seconds by thread role (core/thread_cpu.h): what pgn-index --stats reports.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>

#include "core/thread_cpu.h"
#include "core/thread_group.h"

namespace pgnbase {
namespace {

// Spins until the calling thread has used `seconds` of CPU.
void burn(double seconds) {
  const double until = this_thread_cpu_seconds() + seconds;
  std::atomic<uint64_t> sink{0};
  while (this_thread_cpu_seconds() < until) sink.fetch_add(1, std::memory_order_relaxed);
}

TEST(ThreadCpu, ThreadsWithARoleAddTheirCpuWhenTheyEnd) {
  const ThreadCpuTotals before = thread_cpu_totals();
  {
    ThreadGroup group;
    for (int i = 0; i < 2; ++i) group.start([] { burn(0.02); }, "a test thread", ThreadRole::Merge);
    group.start([] { burn(0.01); }, "a thread without a role");
    group.join();
  }
  const ThreadCpuTotals after = thread_cpu_totals();
  const size_t merge = size_t(ThreadRole::Merge), other = size_t(ThreadRole::Other);
  EXPECT_EQ(after.threads[merge], before.threads[merge] + 2);
  EXPECT_GE(after.seconds[merge] - before.seconds[merge], 0.04);
  EXPECT_GE(after.busiest[merge], 0.02);
  EXPECT_EQ(after.threads[other], before.threads[other]);  // not counted: no role
  EXPECT_GE(process_cpu_seconds(), after.seconds[merge]);
}

TEST(ThreadCpu, RolesHaveNames) {
  EXPECT_EQ(role_name(ThreadRole::Worker), "worker");
  EXPECT_EQ(role_name(ThreadRole::Reader), "reader");
  EXPECT_EQ(role_name(ThreadRole::Merge), "merge");
  EXPECT_EQ(role_name(ThreadRole::Spill), "spill");
  EXPECT_EQ(role_name(ThreadRole::Rows), "rows");
}

}  // namespace
}  // namespace pgnbase
