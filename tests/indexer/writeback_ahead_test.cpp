// WritebackAhead (indexer/writeback_ahead.h): while a file grows, its writeback starts a
// few MiB behind its end, so that a sync at the end has little left. Seen through the
// page cache's own count of a file's dirty pages (the cachestat system call, Linux 6.5);
// skipped where the kernel lacks it or the filesystem keeps no dirty pages (tmpfs).
#include "indexer/writeback_ahead.h"

#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/temp_dir.h"

namespace pgnbase::indexer {
namespace {

using namespace std::chrono_literals;

// cachestat(2): the same number on every architecture (the unified table, Linux 6.5).
constexpr long kCachestatSyscall = 451;
struct CachestatRange {
  uint64_t offset, length;
};
struct Cachestat {
  uint64_t cache, dirty, writeback, evicted, recently_evicted;
};

// Dirty pages of [0, bytes) of the file, or nullopt where the kernel cannot say.
std::optional<uint64_t> dirty_pages(int fd, off_t bytes) {
  CachestatRange range{0, uint64_t(bytes)};
  Cachestat stat{};
  if (::syscall(kCachestatSyscall, fd, &range, &stat, 0) != 0) return std::nullopt;
  return stat.dirty;
}

constexpr off_t kWrite = off_t{4} << 20;
constexpr off_t kFileBytes = 12 * kWrite;  // 48 MiB
constexpr uint64_t kPages = uint64_t(kFileBytes) / 4096;

int create(const std::string& path) { return ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644); }

// kFileBytes in writes of kWrite, with a pause after each.
void fill(int fd, std::chrono::milliseconds pause) {
  const std::vector<char> bytes(size_t(kWrite), 'x');
  for (off_t done = 0; done < kFileBytes; done += kWrite) {
    EXPECT_EQ(::pwrite(fd, bytes.data(), bytes.size(), done), kWrite);
    std::this_thread::sleep_for(pause);
  }
}

class WritebackAheadTest : public test::TempDirTest {};

TEST_F(WritebackAheadTest, StartsTheWritebackOfAGrowingFileBehindItsEnd) {
  // A file written alone keeps its pages dirty (the kernel's own flusher waits 30 s by
  // default); one written under WritebackAhead has them written back, but for its end.
  const int alone = create((dir_ / "alone").string());
  ASSERT_GE(alone, 0);
  fill(alone, 0ms);
  const std::optional<uint64_t> dirty_alone = dirty_pages(alone, kFileBytes);
  if (!dirty_alone || *dirty_alone < kPages / 2) {
    ::close(alone);
    GTEST_SKIP() << "no count of dirty pages here (cachestat needs Linux 6.5; tmpfs keeps none)";
  }

  const int fd = create((dir_ / "watched").string());
  ASSERT_GE(fd, 0);
  std::optional<uint64_t> dirty_before_lag;
  {
    WritebackAhead writeback(fd);
    fill(fd, std::chrono::milliseconds(WritebackAhead::kPollMilliseconds));
    // The hints cover at least everything up to a step before the lag.
    const off_t hinted = kFileBytes - WritebackAhead::kLagBytes - WritebackAhead::kStepBytes;
    for (auto waited = 0ms; waited < 10s; waited += 50ms) {
      dirty_before_lag = dirty_pages(fd, hinted);
      if (dirty_before_lag && *dirty_before_lag == 0) break;
      std::this_thread::sleep_for(50ms);
    }
  }
  const std::optional<uint64_t> still_dirty_alone = dirty_pages(alone, kFileBytes);
  ::close(fd);
  ::close(alone);
  if (still_dirty_alone && *still_dirty_alone < kPages / 2)
    GTEST_SKIP() << "the kernel wrote back the file written alone meanwhile: nothing to compare";
  ASSERT_TRUE(dirty_before_lag);
  EXPECT_EQ(*dirty_before_lag, 0u) << "pages before the lag still dirty";
}

}  // namespace
}  // namespace pgnbase::indexer
