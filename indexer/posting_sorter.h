// External sort of postings: sorted runs in memory, spilled to temporary files when a
// memory budget is full, and a k-way merge at the end.
//
// Runs come two ways. The import's workers each sort the postings of their chunk
// (make_game_postings, below: a stable MSD radix sort on the key alone, as the postings
// are made in game and ply order) and hand the sorted run over with add_sorted_run(), so
// the single writer thread sorts nothing; where the postings fit in the budget they stop
// at key partition order, which is all the final merge of runs in memory needs
// (add_sorted_run). add() fills a buffer of its own that is sorted when it is spilled or
// merged (tests and small callers; sort_posting_records, which falls back to an in-place
// American flag sort for a budget-sized buffer,
// https://en.wikipedia.org/wiki/American_flag_sort). Any add order gives the same result.
//
// Memory: a posting in memory costs 17 bytes; when the runs held exceed the budget
// they are merged into one run (indexer/posting_run_file.h). The first such spill runs
// on the caller's thread (with helpers); after it (the input is known to be larger than
// the budget) the sorted runs are spilled on threads of their own whenever they fill half
// the budget, so that the thread handing runs over (the import's single writer) merges
// none of them.
// Whatever is held in memory or being spilled stays within the budget. The final merge
// works one key partition at a time (position_posting.h: no key spans two partitions),
// so merge_partitions() merges and consumes partitions on several threads at once, and so
// does each spill (spill_threads, each writing its partitions to a file of its own); a
// partition of memory runs whose games ascend from run to run (chunks in input order) is
// merged by a stable sort by key instead of comparing the runs' heads.
// Each file run is read through a buffer of budget / 8 / runs, between 4 KiB and 1 MiB.
// At most kMaxMergeFanIn file runs are merged at once; more are first merged into
// larger runs (one extra pass over the data).
//
// Thread safety: one thread at a time, except inside merge_partitions (see there).
// Temporary files are removed by the merge or, at the latest, by the destructor.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <exception>
#include <functional>
#include <optional>
#include <span>
#include <thread>
#include <vector>

#include "core/move_code.h"
#include "indexer/huge_page_array.h"
#include "store/position_posting.h"
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
  // temp_dir must exist. spill_threads: the threads that share each spill's key
  // partitions (and each merge of run files into a larger one), at most kKeyPartitions.
  PostingSorter(size_t memory_budget_bytes, std::filesystem::path temp_dir, unsigned spill_threads = 1);

  void add(const store::Posting& posting) {
    if (size_ == run_capacity_ || (size_ + 1 + held_) * kBytesPerBufferedPosting > memory_budget_bytes_) spill();
    if (!buffer_.data()) buffer_ = HugePageArray<Record>(run_capacity_);
    buffer_[size_++] = to_record(posting);
    ++total_;
  }
  // Takes a run already sorted by sort_posting_records (e.g. one chunk's postings,
  // sorted by the worker that made them). A record's game is id_offset + its game_id
  // (the import's chunks keep their games' indexes in the chunk; the sum must fit 32 bits).
  // first_game and last_game bound its games' ids (offset included) where the caller
  // knows them: runs whose bounds ascend, as chunks' do, are merged by a sort.
  // With sorted false the run is in key partition order only, the records of each key in
  // (game_id, ply) order (a chunk's postings as PostingChunkSorter places them, without
  // its finish()): the final merge of runs in memory sorts each partition anyway, and a
  // spill or a merge by comparison sorts the run first.
  void add_sorted_run(std::vector<Record> run, uint32_t id_offset = 0, uint32_t first_game = 0,
                      uint32_t last_game = UINT32_MAX, bool sorted = true);
  // Whether runs should come sorted: once postings have been spilled (the input is
  // larger than the budget), every run will be spilled, and sorting it where it is made
  // spares the spilling thread.
  bool wants_sorted_runs() const { return runs_spilled_ > 0; }

  ~PostingSorter();
  PostingSorter(const PostingSorter&) = delete;
  PostingSorter& operator=(const PostingSorter&) = delete;

  // Calls sink with every posting in posting_less order, in batches of consecutive
  // postings, then removes the temporary files. The sorter is empty afterwards and
  // may be reused. A throwing sink leaves the sorter empty too (files removed).
  void merge(const std::function<void(std::span<const store::Posting>)>& sink);
  // The same, one key partition at a time, on `threads` threads: for each partition p,
  // in ascending order of start, one thread calls begin(p) (which may wait), add(p, batch)
  // for its postings in order, then end(p). Different partitions run on different
  // threads at once. The first exception of a callback or a reader stops the merge and
  // is rethrown here.
  struct PartitionSink {
    std::function<void(unsigned)> begin;
    std::function<void(unsigned, std::span<const store::Posting>)> add;
    std::function<void(unsigned)> end;
  };
  void merge_partitions(unsigned threads, const PartitionSink& sink);

  static Record to_record(const store::Posting& p) {
    return Record{p.key, p.game_id, p.ply, p.next_move, static_cast<uint8_t>(p.result)};
  }

  uint64_t size() const { return total_; }
  // Runs written to temporary files so far (cascade merges included).
  size_t runs_spilled() const { return runs_spilled_; }
  // Wall seconds add_sorted_run spent over the memory budget: waiting for the background
  // spill, then spilling itself. The caller's thread (the import's writer) is held up
  // that long by the spills, which otherwise run beside it.
  double held_up_seconds() const { return held_up_seconds_; }
  // The run files currently on disk (for tests).
  std::vector<std::filesystem::path> run_paths() const;

 private:
  void sort_buffer();
  void spill();
  // Hands the memory runs to a thread that merges them into a run file.
  struct MemoryRun {
    std::vector<Record> records;
    uint32_t id_offset = 0;
    uint32_t first_game = 0, last_game = 0;  // bounds of its game ids, offset added
    bool sorted = true;                      // else in key partition order (add_sorted_run)
  };
  // Sorts the runs that came in key partition order only.
  static void sort_partition_ordered(std::vector<MemoryRun>& runs);
  // Merges the file runs, the memory runs and, with with_buffer, the buffer into a new
  // run, its key partitions shared among spill_threads_ threads (this one and more), each
  // writing the partitions it merges to a file of its own. The CPU seconds of the others,
  // and with on_spill_thread this one's, go to spill_cpu_by_thread_.
  PostingRunFile write_run(std::span<PostingRunFile> files, std::vector<MemoryRun>& runs, bool with_buffer,
                           bool on_spill_thread);
  void spill_in_background();
  // Waits for the background spill under way, if any: its file joins runs_, or its
  // error is thrown here.
  void finish_background_spill();
  void cascade();
  // Merges partition p (or every partition: kKeyPartitions) of the file runs, the
  // memory runs given and, with with_buffer, the buffer. may_sort: memory runs alone whose
  // games ascend from run to run are merged by one stable sort by key (else by comparing
  // heads, which needs sorted runs).
  void merge_partition(unsigned partition, std::span<PostingRunFile> runs, size_t reader_buffer_bytes,
                       std::span<const MemoryRun> memory_runs, bool with_buffer, bool may_sort,
                       const std::function<void(std::span<const store::Posting>)>& sink) const;
  size_t reader_buffer_bytes(size_t runs) const;

  size_t memory_budget_bytes_;
  std::filesystem::path temp_dir_;
  size_t run_capacity_;            // postings per in-memory run
  HugePageArray<Record> buffer_;   // reserved on first add, released by merge()
  size_t size_ = 0;                // postings in buffer_
  std::vector<MemoryRun> memory_runs_;  // runs from add_sorted_run
  size_t held_ = 0;                // postings in memory_runs_
  std::vector<PostingRunFile> runs_;
  uint64_t total_ = 0;
  size_t runs_spilled_ = 0;
  // The background spill: the runs it merges, their postings, its run or error (set by
  // its thread, read after the join), and the CPU seconds of all spills by thread slot
  // (slot t of one spill after slot t of the one before: each is a serial thread's share),
  // added to the spill role (core/thread_cpu.h) when the sorter is merged.
  unsigned spill_threads_;
  std::thread spiller_;
  std::vector<MemoryRun> spilling_;
  size_t spilling_postings_ = 0;
  std::optional<PostingRunFile> spilled_;
  std::exception_ptr spill_error_;
  std::vector<double> spill_cpu_by_thread_;
  double held_up_seconds_ = 0;  // see held_up_seconds()
};

// Sorts records by (key, game_id, ply), in place.
void sort_posting_records(PostingSorter::Record* records, size_t n);

// Sorts a chunk's postings as they are made, game by game and ply by ply (so that records
// of one key are in (game_id, ply) order already), with no second buffer of them all:
// count(key) for each record, then begin(out) and place(record) for each in the same
// order, then finish(). `out` ends sorted by (key, game_id, ply); before finish() it is in
// key partition order (the placing digit has at least store::kKeyPartitionBits bits),
// which is all PostingSorter::add_sorted_run needs of a run that stays in memory.
class PostingChunkSorter {
 public:
  using Record = PostingSorter::Record;
  explicit PostingChunkSorter(size_t records);
  void count(uint64_t key) { ++starts_[(key >> shift_) + 1]; }
  // out: room for every counted record.
  void begin(Record* out);
  void place(const Record& record) { out_[next_[record.key >> shift_]++] = record; }
  void finish();

 private:
  int shift_;                  // the top digit, which place() sorts by, is key >> shift_
  std::vector<size_t> starts_;  // bucket b is [starts_[b], starts_[b + 1])
  std::vector<size_t> next_;
  Record* out_ = nullptr;
};

// The postings of a run of games, every position of each (the import's chunk, a batch of
// a merged database): for_each_game(visit) calls visit(keys, codes, result) for each game
// in order (keys[i] the key after i plies, codes[i] the move played from it), the same
// games at each of its three calls; a game's index among them is its postings' game_id.
// out ends sorted (PostingChunkSorter), or with sort false in key partition order only.
template <class ForEachGame>
void make_game_postings(ForEachGame&& for_each_game, std::vector<PostingSorter::Record>& out, bool sort = true) {
  size_t total = 0;
  for_each_game([&](std::span<const uint64_t> keys, std::span<const MoveCode>, store::GameResult) { total += keys.size(); });
  PostingChunkSorter sorter(total);
  for_each_game([&](std::span<const uint64_t> keys, std::span<const MoveCode>, store::GameResult) {
    for (uint64_t key : keys) sorter.count(key);
  });
  out.resize(total);
  sorter.begin(out.data());
  uint32_t index = 0;
  for_each_game([&](std::span<const uint64_t> keys, std::span<const MoveCode> codes, store::GameResult result) {
    for (size_t ply = 0; ply < keys.size(); ++ply) {
      const MoveCode next = ply < codes.size() ? codes[ply] : kNullMoveCode;
      sorter.place({keys[ply], index, uint16_t(std::min<size_t>(ply, 0xFFFF)), next, uint8_t(result)});
    }
    ++index;
  });
  if (sort) sorter.finish();
}

}  // namespace pgnbase::indexer
