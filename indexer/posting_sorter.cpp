#include "indexer/posting_sorter.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <exception>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <system_error>
#include <thread>
#include <utility>

#include "core/thread_cpu.h"

namespace pgnbase::indexer {

namespace {

constexpr size_t kBatchPostings = 4096;
constexpr size_t kMinReaderBuffer = 4 << 10;
constexpr size_t kMaxReaderBuffer = 1 << 20;
constexpr uint64_t kMinPostingsPerSpillThread = 1024;

using Record = PostingSorter::Record;

store::Posting to_posting(const Record& record, uint32_t id_offset = 0) {
  return store::Posting{record.key, id_offset + record.game_id, record.ply, record.next_move,
                        static_cast<store::GameResult>(record.result & 3)};
}

bool record_less(const Record& a, const Record& b) {
  uint64_t a_key = a.key, b_key = b.key;
  if (a_key != b_key) return a_key < b_key;
  uint32_t a_game = a.game_id, b_game = b.game_id;
  if (a_game != b_game) return a_game < b_game;
  return uint16_t{a.ply} < uint16_t{b.ply};
}

// Sorts records by (key, game_id, ply): an in-place radix pass on 8 key bits at
// `shift`, recursing into each bucket on the next 8 bits, and a comparison sort once
// a bucket is small (keys are hashes, so two levels usually suffice) or the key bits
// are used up (many postings of one key). Needs no memory besides the records.
void sort_records(Record* records, size_t n, int shift) {
  if (n < 64 || shift < 0) {
    std::sort(records, records + n, record_less);
    return;
  }
  constexpr size_t kBuckets = 256;
  std::array<size_t, kBuckets + 1> next{};
  std::array<size_t, kBuckets> end{};
  for (size_t i = 0; i < n; ++i) ++next[((records[i].key >> shift) & 0xff) + 1];
  for (size_t b = 0; b < kBuckets; ++b) {
    next[b + 1] += next[b];
    end[b] = next[b + 1];
  }
  // Cycle each misplaced record to its bucket's next free slot.
  for (size_t b = 0; b < kBuckets; ++b) {
    while (next[b] < end[b]) {
      Record record = records[next[b]];
      size_t home = (record.key >> shift) & 0xff;
      while (home != b) {
        std::swap(record, records[next[home]++]);
        home = (record.key >> shift) & 0xff;
      }
      records[next[b]++] = record;
    }
  }
  size_t begin = 0;
  for (size_t b = 0; b < kBuckets; ++b) {
    if (end[b] - begin > 1) sort_records(records + begin, end[b] - begin, shift - 8);
    begin = end[b];
  }
}

// A stable sort by key alone, through a second buffer: records of one key keep their
// order, so postings collected game by game and ply by ply come out in (key, game_id,
// ply) order with no comparison of games. Each level moves records by one digit of the
// key between the two buffers (sequential writes, unlike the in-place cycles above),
// a digit wide enough for about 16 records a bucket, which insertion then sorts; a level
// moves nothing when every record falls in one bucket (the many postings of an opening
// position). `low`: the key's bits below it are not sorted yet (the bits above are equal).
constexpr int kMaxDigitBits = 11;
constexpr size_t kInsertionSortRecords = 32;
using BucketStarts = std::array<size_t, (size_t{1} << kMaxDigitBits) + 1>;

int digit_bits(size_t n, int low) { return std::min(low, std::clamp(int(std::bit_width(n / 16)), 4, kMaxDigitBits)); }

void insertion_sort_by_key(Record* records, size_t n) {
  for (size_t i = 1; i < n; ++i) {
    const Record record = records[i];
    size_t j = i;
    for (; j > 0 && records[j - 1].key > record.key; --j) records[j] = records[j - 1];
    records[j] = record;
  }
}

// Bucket starts of the records by the digit of `bits` bits at shift (starts[buckets] = n);
// false when they all fall in one bucket.
bool key_buckets(const Record* records, size_t n, int shift, int bits, BucketStarts& starts) {
  const size_t buckets = size_t{1} << bits;
  const uint64_t mask = buckets - 1;
  std::fill_n(starts.begin(), buckets + 1, 0);
  for (size_t i = 0; i < n; ++i) ++starts[((records[i].key >> shift) & mask) + 1];
  bool one_bucket = false;
  for (size_t b = 0; b < buckets; ++b) {
    one_bucket |= starts[b + 1] == n;
    starts[b + 1] += starts[b];
  }
  return !one_bucket;
}

void scatter_by_key(const Record* from, Record* to, size_t n, int shift, int bits, BucketStarts& starts) {
  const uint64_t mask = (uint64_t{1} << bits) - 1;
  for (size_t i = 0; i < n; ++i) to[starts[(from[i].key >> shift) & mask]++] = from[i];
}

void stable_sort_from(Record* from, Record* to, size_t n, int low);

// Sorts the records at data in place; spare is as long and its content is lost.
void stable_sort_in(Record* data, Record* spare, size_t n, int low) {
  BucketStarts starts;
  while (n > kInsertionSortRecords && low > 0) {
    const int bits = digit_bits(n, low), shift = low - bits;
    low = shift;
    if (!key_buckets(data, n, shift, bits, starts)) continue;
    scatter_by_key(data, spare, n, shift, bits, starts);
    // Scattering moved each start to its bucket's end: bucket b is [start, starts[b]).
    for (size_t b = 0, begin = 0; b < (size_t{1} << bits); begin = starts[b++])
      stable_sort_from(spare + begin, data + begin, starts[b] - begin, shift);
    return;
  }
  insertion_sort_by_key(data, n);
}

// Sorts the records at from into to (as long); from's content is lost.
void stable_sort_from(Record* from, Record* to, size_t n, int low) {
  if (n <= kInsertionSortRecords || low == 0) {
    std::copy(from, from + n, to);
    insertion_sort_by_key(to, n);
    return;
  }
  BucketStarts starts;
  const int bits = digit_bits(n, low), shift = low - bits;
  key_buckets(from, n, shift, bits, starts);
  scatter_by_key(from, to, n, shift, bits, starts);
  for (size_t b = 0, begin = 0; b < (size_t{1} << bits); begin = starts[b++])
    stable_sort_in(to + begin, from + begin, starts[b] - begin, shift);
}

// Runs a callable when the scope ends, however it ends.
template <class F>
struct ScopeExit {
  F f;
  ~ScopeExit() { f(); }
};
template <class F>
ScopeExit(F) -> ScopeExit<F>;

// Collects postings into batches for a sink.
class BatchEmitter {
 public:
  explicit BatchEmitter(const std::function<void(std::span<const store::Posting>)>& sink) : sink_(sink) {
    batch_.reserve(kBatchPostings);
  }
  void add(const store::Posting& posting) {
    batch_.push_back(posting);
    if (batch_.size() == kBatchPostings) flush();
  }
  void flush() {
    if (!batch_.empty()) sink_(batch_);
    batch_.clear();
  }

 private:
  const std::function<void(std::span<const store::Posting>)>& sink_;
  std::vector<store::Posting> batch_;
};

// A source's next posting in a merge, as two numbers that order postings as posting_less
// does; a spent source holds the largest values, which no posting has (its ply sits
// above 16 zero bits).
struct MergeHead {
  uint64_t key = ~uint64_t{0};
  uint64_t game_and_ply = ~uint64_t{0};

  static MergeHead of(const store::Posting& posting) {
    return {posting.key, uint64_t{posting.game_id} << 32 | uint64_t{posting.ply} << 16};
  }
  // Ties go to the older source: the lower number.
  bool before(const MergeHead& other, uint32_t source, uint32_t other_source) const {
    if (key != other.key) return key < other.key;
    if (game_and_ply != other.game_and_ply) return game_and_ply < other.game_and_ply;
    return source < other_source;
  }
};

// A sorted range of records in memory, the part of one run in one partition.
struct RecordRange {
  const Record* begin;
  const Record* end;
  uint32_t id_offset;  // added to each record's game id
};

// The records of `partition` in a sorted run (all of them for kKeyPartitions).
RecordRange partition_range(const Record* begin, const Record* end, unsigned partition) {
  if (partition >= store::kKeyPartitions) return {begin, end, 0};
  auto partition_of = [](const Record& r) { return store::key_partition(r.key); };
  const Record* lo = std::partition_point(begin, end, [&](const Record& r) { return partition_of(r) < partition; });
  const Record* hi = std::partition_point(lo, end, [&](const Record& r) { return partition_of(r) <= partition; });
  return {lo, hi, 0};
}

// Whether each run's games all come after the games of the runs before it (chunks in
// input order).
template <class Runs>
bool games_ascend(const Runs& runs) {
  for (size_t i = 1; i < runs.size(); ++i)
    if (runs[i].first_game <= runs[i - 1].last_game) return false;
  return true;
}

// Merges sorted ranges of one key partition whose games ascend from range to range: put
// one after the other, a stable sort by key alone gives (key, game, ply) order. Two
// buffers of a partition's postings cost less than a merge's comparisons per posting.
void sort_ranges_by_key(std::span<const RecordRange> ranges, BatchEmitter& emitter) {
  size_t n = 0;
  for (const RecordRange& range : ranges) n += size_t(range.end - range.begin);
  std::unique_ptr<Record[]> records(new Record[n]), spare(new Record[n]);
  Record* out = records.get();
  for (const RecordRange& range : ranges)
    for (const Record* r = range.begin; r != range.end; ++r) {
      *out = *r;
      out->game_id = r->game_id + range.id_offset;
      ++out;
    }
  // The partition's keys share their top bits: sorting starts below them.
  stable_sort_in(records.get(), spare.get(), n, 64 - store::kKeyPartitionBits);
  for (size_t i = 0; i < n; ++i) emitter.add(to_posting(records[i]));
}

// Sorts a run in key partition order, its records of each key in (game_id, ply) order:
// each partition stably by key.
void sort_partitions_of(std::vector<Record>& run) {
  std::unique_ptr<Record[]> spare;
  size_t spare_size = 0;
  auto partition_of = [](const Record& r) { return store::key_partition(r.key); };
  for (auto begin = run.begin(); begin != run.end();) {
    const unsigned p = partition_of(*begin);
    const auto end = std::partition_point(begin, run.end(), [&](const Record& r) { return partition_of(r) <= p; });
    const size_t n = size_t(end - begin);
    if (spare_size < n) spare.reset(new Record[spare_size = n]);
    stable_sort_in(&*begin, spare.get(), n, 64 - store::kKeyPartitionBits);
    begin = end;
  }
}

// Runs work(t, next) on `threads` threads: this one as t = 0 and threads - 1 more (fewer
// where none can start), each started one named `name` and calling helper_done(t) as it
// ends. next() hands each key partition once, in ascending order, to whichever thread
// asks, then kKeyPartitions (also once a thread has failed); the first exception is
// rethrown here after every thread has ended.
template <class Work, class HelperDone>
void share_partitions(unsigned threads, const char* name, Work&& work, HelperDone&& helper_done) {
  std::atomic<unsigned> next_partition{0};
  std::atomic<bool> failed{false};
  std::exception_ptr error;
  std::mutex error_mutex;
  auto next = [&]() -> unsigned {
    return failed ? store::kKeyPartitions : std::min(next_partition++, store::kKeyPartitions);
  };
  auto run = [&](unsigned t) {
    try {
      work(t, next);
    } catch (...) {
      std::lock_guard lock(error_mutex);
      if (!error) error = std::current_exception();
      failed = true;
    }
  };
  std::vector<std::thread> helpers;
  try {
    for (unsigned t = 1; t < threads; ++t)
      helpers.emplace_back([&, t] {
        name_this_thread(name);
        run(t);
        helper_done(t);
      });
  } catch (const std::system_error&) {
    // Fewer threads than asked (none could start): the others and this one do the work.
  }
  run(0);
  for (std::thread& t : helpers) t.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace

void sort_posting_records(Record* records, size_t n) {
  // Up to 64 MiB of records a second buffer is the faster way; past that (a budget-sized
  // buffer of postings added one by one), sorting in place keeps memory as it was.
  constexpr size_t kMaxStableSortRecords = (size_t{64} << 20) / sizeof(Record);
  if (n > kMaxStableSortRecords) return sort_records(records, n, 56);
  std::unique_ptr<Record[]> spare(new Record[n]);
  stable_sort_in(records, spare.get(), n, 64);
  // Records of one key in (game_id, ply) order stay so; where a key's records came in
  // another order, that run is sorted by game and ply too.
  for (size_t run = 0; run < n;) {
    size_t end = run + 1;
    bool ordered = true;
    for (; end < n && records[end].key == records[run].key; ++end) ordered &= !record_less(records[end], records[end - 1]);
    if (!ordered) std::sort(records + run, records + end, record_less);
    run = end;
  }
}

PostingChunkSorter::PostingChunkSorter(size_t records)
    : shift_(64 - std::max(int(store::kKeyPartitionBits), digit_bits(records, 64))),
      starts_((size_t{1} << (64 - shift_)) + 1) {}

void PostingChunkSorter::begin(Record* out) {
  for (size_t b = 1; b < starts_.size(); ++b) starts_[b] += starts_[b - 1];
  next_.assign(starts_.begin(), starts_.end() - 1);
  out_ = out;
}

void PostingChunkSorter::finish() {
  // Each bucket holds its records in the order placed; sorting it by the rest of the key
  // keeps that order among equal keys.
  size_t largest = 0;
  for (size_t b = 0; b + 1 < starts_.size(); ++b) largest = std::max(largest, starts_[b + 1] - starts_[b]);
  std::unique_ptr<Record[]> spare(new Record[largest]);
  for (size_t b = 0; b + 1 < starts_.size(); ++b)
    stable_sort_in(out_ + starts_[b], spare.get(), starts_[b + 1] - starts_[b], shift_);
}

PostingSorter::PostingSorter(size_t memory_budget_bytes, std::filesystem::path temp_dir, unsigned spill_threads)
    : memory_budget_bytes_(memory_budget_bytes),
      temp_dir_(std::move(temp_dir)),
      run_capacity_(std::max<size_t>(1, memory_budget_bytes / kBytesPerBufferedPosting)),
      spill_threads_(std::clamp(spill_threads, 1u, store::kKeyPartitions)),
      spill_cpu_by_thread_(spill_threads_) {}

void PostingSorter::sort_buffer() { sort_posting_records(buffer_.data(), size_); }

PostingSorter::~PostingSorter() {
  if (spiller_.joinable()) spiller_.join();  // its error, if any, has no one to go to now
}

void PostingSorter::add_sorted_run(std::vector<Record> run, uint32_t id_offset, uint32_t first_game,
                                   uint32_t last_game, bool sorted) {
  if (run.empty()) return;
  total_ += run.size();
  held_ += run.size();
  memory_runs_.push_back({std::move(run), id_offset, first_game, last_game, sorted});
  const size_t limit = memory_budget_bytes_ / kBytesPerBufferedPosting;
  if (held_ + size_ + spilling_postings_ > limit) {
    const auto started = std::chrono::steady_clock::now();
    finish_background_spill();
    if (held_ + size_ > limit) spill();
    held_up_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  } else if (runs_spilled_ > 0 && size_ == 0 && !spiller_.joinable() && held_ > limit / 2) {
    spill_in_background();
  }
}

void PostingSorter::spill() {
  finish_background_spill();  // its file is older: it goes first in runs_
  if (size_ == 0 && memory_runs_.empty()) return;
  sort_buffer();
  runs_.push_back(write_run({}, memory_runs_, true, /*on_spill_thread=*/false));
  ++runs_spilled_;
  size_ = 0;
  memory_runs_.clear();
  held_ = 0;
}

void PostingSorter::spill_in_background() {
  finish_background_spill();
  spilling_ = std::move(memory_runs_);
  memory_runs_.clear();
  spilling_postings_ = held_;
  held_ = 0;
  ++runs_spilled_;
  auto job = [this] {
    name_this_thread("pgn-spill");
    try {
      spilled_ = write_run({}, spilling_, false, /*on_spill_thread=*/true);
    } catch (...) {
      spill_error_ = std::current_exception();
    }
  };
  try {
    spiller_ = std::thread(job);
  } catch (const std::system_error&) {  // no thread to be had: spill here
    memory_runs_ = std::move(spilling_);
    spilling_.clear();
    held_ = std::exchange(spilling_postings_, 0);
    --runs_spilled_;
    spill();
  }
}

PostingRunFile PostingSorter::write_run(std::span<PostingRunFile> files, std::vector<MemoryRun>& runs, bool with_buffer,
                                        bool on_spill_thread) {
  // Chunks' runs in partition order (before the first spill), games ascending: one sort
  // of each partition of them all, as the final merge does. Sorted runs: a tournament,
  // which measured faster there than sorting (bench/README.md).
  const bool in_partition_order = std::any_of(runs.begin(), runs.end(), [](const MemoryRun& r) { return !r.sorted; });
  const bool sort_partitions = in_partition_order && files.empty() && !(with_buffer && size_) && games_ascend(runs);
  if (!sort_partitions) sort_partition_ordered(runs);
  uint64_t postings = with_buffer ? size_ : 0;
  for (const MemoryRun& run : runs) postings += run.records.size();
  for (const PostingRunFile& file : files) postings += file.postings();

  // A tiny spill (tests' budgets) is not worth a thread.
  const unsigned threads = unsigned(std::clamp<uint64_t>(postings / kMinPostingsPerSpillThread, 1, spill_threads_));
  if (threads == 1 && !sort_partitions) {
    // Every partition in one pass: each file is read through once, not sought 64 times.
    PostingRunWriter writer(temp_dir_, postings);
    merge_partition(store::kKeyPartitions, files, reader_buffer_bytes(files.size()), runs, with_buffer, false,
                    [&writer](std::span<const store::Posting> batch) {
                      for (const store::Posting& posting : batch) writer.add(posting);
                    });
    if (on_spill_thread) spill_cpu_by_thread_[0] += this_thread_cpu_seconds();
    return writer.finish();
  }
  const size_t buffer_bytes = reader_buffer_bytes(files.size() * threads);
  std::vector<std::optional<PostingRunFile>> written(threads);
  // Each thread writes the partitions it takes, in ascending order, to a file of its own.
  share_partitions(
      threads, "pgn-spill",
      [&](unsigned thread, auto& next) {
        std::optional<PostingRunWriter> writer;  // made at the first posting
        auto add = [&](std::span<const store::Posting> batch) {
          if (!writer) writer.emplace(temp_dir_, postings / threads + 1);
          for (const store::Posting& posting : batch) writer->add(posting);
        };
        for (unsigned p; (p = next()) < store::kKeyPartitions;)
          merge_partition(p, files, buffer_bytes, runs, with_buffer, sort_partitions, add);
        if (writer) written[thread] = writer->finish();
      },
      [this](unsigned thread) { spill_cpu_by_thread_[thread] += this_thread_cpu_seconds(); });
  if (on_spill_thread) spill_cpu_by_thread_[0] += this_thread_cpu_seconds();
  std::vector<PostingRunFile> parts;
  for (std::optional<PostingRunFile>& file : written)
    if (file) parts.push_back(std::move(*file));
  return PostingRunFile::join(std::move(parts));
}

void PostingSorter::sort_partition_ordered(std::vector<MemoryRun>& runs) {
  for (MemoryRun& run : runs)
    if (!run.sorted) {
      sort_partitions_of(run.records);
      run.sorted = true;
    }
}

void PostingSorter::finish_background_spill() {
  if (!spiller_.joinable()) return;
  spiller_.join();
  spilling_.clear();
  spilling_postings_ = 0;
  if (spilled_) runs_.push_back(std::move(*spilled_));
  spilled_.reset();
  if (spill_error_) std::rethrow_exception(std::exchange(spill_error_, nullptr));
}

std::vector<std::filesystem::path> PostingSorter::run_paths() const {
  std::vector<std::filesystem::path> paths;
  for (const PostingRunFile& run : runs_)
    for (const std::filesystem::path& path : run.paths()) paths.push_back(path);
  return paths;
}

size_t PostingSorter::reader_buffer_bytes(size_t runs) const {
  size_t share = memory_budget_bytes_ / 8 / std::max<size_t>(1, runs);
  return std::clamp(share, kMinReaderBuffer, kMaxReaderBuffer);
}

void PostingSorter::cascade() {
  // Merge the oldest runs into one until the rest fit in one merge with the memory runs.
  while (runs_.size() + 1 > kMaxMergeFanIn) {
    std::vector<PostingRunFile> group;
    for (size_t i = 0; i < kMaxMergeFanIn; ++i) group.push_back(std::move(runs_[i]));
    runs_.erase(runs_.begin(), runs_.begin() + kMaxMergeFanIn);
    // The group's files only: the memory runs join the final merge.
    std::vector<MemoryRun> none;
    runs_.push_back(write_run(group, none, false, /*on_spill_thread=*/false));
    ++runs_spilled_;
  }
}

void PostingSorter::merge_partition(unsigned partition, std::span<PostingRunFile> runs, size_t buffer_bytes,
                                    std::span<const MemoryRun> memory_runs, bool with_buffer, bool may_sort,
                                    const std::function<void(std::span<const store::Posting>)>& sink) const {
  // Sources in age order (file runs, then memory runs, then the buffer): ties keep the
  // older source first, so the output is deterministic.
  std::vector<PostingRunReader> readers;
  readers.reserve(runs.size());
  for (const PostingRunFile& run : runs) {
    if (partition < store::kKeyPartitions) readers.emplace_back(run, buffer_bytes, partition);
    else readers.emplace_back(run, buffer_bytes);
  }
  std::vector<RecordRange> ranges;
  for (const MemoryRun& run : memory_runs) {
    ranges.push_back(partition_range(run.records.data(), run.records.data() + run.records.size(), partition));
    ranges.back().id_offset = run.id_offset;
  }
  if (with_buffer && size_) ranges.push_back(partition_range(buffer_.data(), buffer_.data() + size_, partition));

  BatchEmitter emitter(sink);
  const bool all_sorted = std::all_of(memory_runs.begin(), memory_runs.end(), [](const MemoryRun& r) { return r.sorted; });
  if (readers.empty() && ranges.size() == 1 && all_sorted) {  // one sorted source: no heap
    for (const Record* r = ranges[0].begin; r != ranges[0].end; ++r) emitter.add(to_posting(*r, ranges[0].id_offset));
    emitter.flush();
    return;
  }
  if (may_sort && readers.empty() && ranges.size() == memory_runs.size() && partition < store::kKeyPartitions &&
      games_ascend(memory_runs)) {
    sort_ranges_by_key(ranges, emitter);
    emitter.flush();
    return;
  }
  // Comparing heads needs sorted sources: merge_partitions and the spills sort the runs
  // that came in partition order first.
  if (!all_sorted) throw std::logic_error("PostingSorter: a run in partition order reached a merge by comparison");
  // A tournament of losers (Knuth, TAOCP 5.4.1): each inner node keeps the source that
  // lost the match there, so replacing the winner's posting replays only the matches on
  // its path to the root, one comparison per level (a binary heap's pop and push make
  // about twice as many).
  const size_t sources = readers.size() + ranges.size();
  size_t leaves = 1;
  while (leaves < sources) leaves *= 2;
  std::vector<MergeHead> heads(leaves);  // the sources past `sources` stay spent
  std::vector<store::Posting> current(sources);
  size_t live = 0;
  auto advance = [&](size_t source) {
    bool more;
    if (source < readers.size()) {
      more = readers[source].next(current[source]);
    } else {
      RecordRange& range = ranges[source - readers.size()];
      more = range.begin != range.end;
      if (more) current[source] = to_posting(*range.begin++, range.id_offset);
    }
    if (more) {
      heads[source] = MergeHead::of(current[source]);
    } else {
      heads[source] = MergeHead{};
      --live;
    }
  };
  for (size_t source = 0; source < sources; ++source) {
    ++live;
    advance(source);
  }
  // Plays the first tournament bottom up; winner[n] is only needed while building.
  std::vector<uint32_t> loser(leaves), winner(2 * leaves);
  for (size_t leaf = 0; leaf < leaves; ++leaf) winner[leaves + leaf] = uint32_t(leaf);
  for (size_t node = leaves - 1; node >= 1; --node) {
    uint32_t a = winner[2 * node], b = winner[2 * node + 1];
    if (heads[b].before(heads[a], b, a)) std::swap(a, b);
    winner[node] = a;
    loser[node] = b;
  }
  uint32_t top = winner[1];
  while (live > 0) {
    emitter.add(current[top]);
    advance(top);
    for (size_t node = (leaves + top) / 2; node >= 1; node /= 2) {
      if (heads[loser[node]].before(heads[top], loser[node], top)) std::swap(loser[node], top);
    }
  }
  emitter.flush();
}

void PostingSorter::merge(const std::function<void(std::span<const store::Posting>)>& sink) {
  merge_partitions(1, {[](unsigned) {}, [&sink](unsigned, std::span<const store::Posting> batch) { sink(batch); },
                       [](unsigned) {}});
}

void PostingSorter::merge_partitions(unsigned threads, const PartitionSink& sink) {
  // Whatever happens below, the sorter ends empty and its files are gone.
  ScopeExit reset{[this] {
    runs_.clear();
    memory_runs_.clear();
    held_ = 0;
    buffer_.release();
    size_ = 0;
    total_ = 0;
  }};
  finish_background_spill();
  sort_buffer();
  cascade();
  for (double& seconds : spill_cpu_by_thread_)
    if (seconds > 0) add_thread_cpu(ThreadRole::Spill, std::exchange(seconds, 0));
  // Runs in partition order are sorted by the merge's sort (runs in memory alone, games
  // ascending from run to run, no buffer: the import's case when nothing was spilled);
  // any other merge compares heads, so they are sorted first (after a spill the workers
  // hand sorted runs: few are left to sort here).
  if (!(runs_.empty() && size_ == 0 && games_ascend(memory_runs_))) sort_partition_ordered(memory_runs_);
  const size_t buffer_bytes = reader_buffer_bytes(runs_.size() * std::max(1u, threads));
  share_partitions(
      threads, "pgn-merge",
      [&](unsigned, auto& next) {
        for (unsigned p; (p = next()) < store::kKeyPartitions;) {
          sink.begin(p);
          merge_partition(p, runs_, buffer_bytes, memory_runs_, true, /*may_sort=*/true,
                          [&](std::span<const store::Posting> batch) { sink.add(p, batch); });
          sink.end(p);
        }
      },
      [](unsigned) { add_thread_cpu(ThreadRole::Merge, this_thread_cpu_seconds()); });
}

}  // namespace pgnbase::indexer
