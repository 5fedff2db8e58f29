// BlockSpool: encoded blocks that wait in an unlinked temporary file during the final
// merge of a segment (indexer/block_spool.h).
#include "indexer/block_spool.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <iterator>
#include <thread>
#include <vector>

#include "store/position_posting.h"
#include "tests/support/temp_dir.h"

namespace pgnbase::indexer {
namespace {

namespace fs = std::filesystem;

std::vector<uint8_t> bytes_of_block(int thread, int block) {
  std::vector<uint8_t> bytes(size_t(1 + (block * 37 + thread * 101) % 5000));
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = uint8_t(i * 7 + size_t(thread) * 13 + size_t(block));
  return bytes;
}

// Written from four threads at once, every block reads back as it was, and the folder
// holds no file, during or after (the file is unlinked as soon as it is made).
TEST(BlockSpool, BlocksWrittenFromManyThreadsReadBackAndLeaveNoFile) {
  test::TempDir dir;
  constexpr int kThreads = 4, kBlocks = 200;
  std::vector<std::vector<uint64_t>> offsets(kThreads, std::vector<uint64_t>(kBlocks));
  uint64_t total = 0;
  {
    BlockSpool spool(dir.path());
    std::vector<std::thread> writers;
    for (int t = 0; t < kThreads; ++t)
      writers.emplace_back([&, t] {
        for (int b = 0; b < kBlocks; ++b) offsets[size_t(t)][size_t(b)] = spool.write(bytes_of_block(t, b));
      });
    for (std::thread& w : writers) w.join();
    for (int t = 0; t < kThreads; ++t)
      for (int b = 0; b < kBlocks; ++b) total += bytes_of_block(t, b).size();
    EXPECT_EQ(spool.bytes_written(), total);
    EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 0);
    std::vector<uint8_t> read;
    for (int t = 0; t < kThreads; ++t)
      for (int b = 0; b < kBlocks; ++b) {
        const std::vector<uint8_t> expected = bytes_of_block(t, b);
        spool.read(offsets[size_t(t)][size_t(b)], expected.size(), read);
        ASSERT_EQ(read, expected) << "thread " << t << " block " << b;
      }
    // Past its end is an error, not garbage.
    EXPECT_THROW(spool.read(total - 10, 20, read), store::PositionIndexError);
  }
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 0);
}

TEST(BlockSpool, AFolderThatIsNotThereFailsOnTheFirstWrite) {
  test::TempDir dir;
  BlockSpool spool(dir.path() / "missing");
  const std::vector<uint8_t> bytes(10, 1);
  EXPECT_THROW(spool.write(bytes), store::PositionIndexError);
}

}  // namespace
}  // namespace pgnbase::indexer
