// External sort of postings: in-memory runs bounded by a memory budget, sorted runs
// spilled to temporary files when the budget is full, and a k-way merge at the end.
//
// A run is sorted in place: an American flag sort (in-place MSD radix,
// https://en.wikipedia.org/wiki/American_flag_sort) on the key's top bits, which
// splits the run into buckets of about 16 postings (keys are hashes, so buckets are
// even), then a comparison sort of each bucket. Any add order gives the same result.
//
// Memory: a buffered posting costs 17 bytes, so a run holds budget / 17 postings,
// in one huge-page array reserved up front and committed as it fills
// (indexer/huge_page_array.h). The merge reads every run through a buffer of
// budget / 8 / runs, between 4 KiB and 1 MiB. At most kMaxMergeFanIn runs are merged at once; more are first merged into
// larger runs (one extra pass over the data).
//
// Thread safety: one thread at a time. Temporary files are removed by merge() or,
// at the latest, by the destructor.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <vector>

#include "indexer/huge_page_array.h"
#include "indexer/position_posting.h"
#include "indexer/posting_run_file.h"

namespace pgnbase::indexer {

class PostingSorter {
 public:
  static constexpr size_t kMaxMergeFanIn = 64;
  // The in-memory layout of a buffered posting: 17 bytes, no padding.
  struct [[gnu::packed]] Record {
    uint64_t key;
    uint32_t game_id;
    uint16_t ply;
    uint16_t next_move;
    uint8_t result;
  };
  static_assert(sizeof(Record) == 17);
  static constexpr size_t kBytesPerBufferedPosting = sizeof(Record);

  // memory_budget_bytes bounds the run buffer; the merge adds read buffers of at most
  // budget / 8 in all. Tiny budgets are allowed (one posting per run, for tests).
  // temp_dir must exist.
  PostingSorter(size_t memory_budget_bytes, std::filesystem::path temp_dir);

  void add(const Posting& posting) {
    if (size_ == run_capacity_) spill();
    if (!buffer_.data()) buffer_ = HugePageArray<Record>(run_capacity_);
    buffer_[size_++] = Record{posting.key, posting.game_id, posting.ply, posting.next_move,
                              static_cast<uint8_t>(posting.result)};
    ++total_;
  }

  // Calls sink with every posting in posting_less order, in batches of consecutive
  // postings, then removes the temporary files. The sorter is empty afterwards and
  // may be reused. A throwing sink leaves the sorter empty too (files removed).
  void merge(const std::function<void(std::span<const Posting>)>& sink);

  uint64_t size() const { return total_; }
  // Runs written to temporary files so far (cascade merges included).
  size_t runs_spilled() const { return runs_spilled_; }
  // The run files currently on disk (for tests).
  std::vector<std::filesystem::path> run_paths() const;

 private:
  void sort_buffer();
  void spill();
  void merge_runs(std::vector<PostingRunFile> runs, bool with_buffer,
                  const std::function<void(std::span<const Posting>)>& sink);
  size_t reader_buffer_bytes(size_t runs) const;

  size_t memory_budget_bytes_;
  std::filesystem::path temp_dir_;
  size_t run_capacity_;            // postings per in-memory run
  HugePageArray<Record> buffer_;   // reserved on first add, released by merge()
  size_t size_ = 0;                // postings in buffer_
  std::vector<PostingRunFile> runs_;
  uint64_t total_ = 0;
  size_t runs_spilled_ = 0;
};

}  // namespace pgnbase::indexer
