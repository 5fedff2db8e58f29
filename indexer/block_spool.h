// Encoded position index blocks that wait in a temporary file instead of in memory.
//
// The final merge of a segment (position_index.h) may run while the writing thread
// builds the games indexes and cannot insert blocks: partitions finished further ahead of
// the insertion than memory allows go here, and the writer reads them back in key order.
// The file is created in the temp folder (named like a posting run file, so that the
// cleanups of run_file_cleanup.h know it) and unlinked at once: nothing is left behind,
// even after kill -9; its space is freed when the spool is destroyed.
//
// Errors (cannot create, disk full, short read) throw store::PositionIndexError naming
// the folder. Thread safety: write from any thread; read from one thread at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <span>
#include <vector>

namespace pgnbase::indexer {

class BlockSpool {
 public:
  explicit BlockSpool(std::filesystem::path directory) : directory_(std::move(directory)) {}
  ~BlockSpool();
  BlockSpool(const BlockSpool&) = delete;
  BlockSpool& operator=(const BlockSpool&) = delete;

  // Appends bytes (the file is made on the first call); returns where they start.
  uint64_t write(std::span<const uint8_t> bytes);
  // Reads size bytes written at offset into out (resized).
  void read(uint64_t offset, size_t size, std::vector<uint8_t>& out) const;
  uint64_t bytes_written() const;

 private:
  std::filesystem::path directory_;
  mutable std::mutex mutex_;
  int fd_ = -1;
  uint64_t end_ = 0;
};

}  // namespace pgnbase::indexer
