#include "indexer/posting_sorter.h"

#include <algorithm>
#include <array>
#include <queue>
#include <utility>

namespace pgnbase::indexer {

namespace {

constexpr size_t kBatchPostings = 4096;
constexpr size_t kMinReaderBuffer = 4 << 10;
constexpr size_t kMaxReaderBuffer = 1 << 20;
constexpr int kRadixBits = 11;
constexpr int kRadixPasses = (64 + kRadixBits - 1) / kRadixBits;  // 6
constexpr size_t kRadixBuckets = size_t{1} << kRadixBits;

using Record = PostingSorter::Record;

Posting to_posting(const Record& record) {
  return Posting{record.key, record.game_id, record.ply, record.next_move, static_cast<GameResult>(record.result & 3)};
}

bool record_less(const Record& a, const Record& b) {
  uint64_t a_key = a.key, b_key = b.key;
  if (a_key != b_key) return a_key < b_key;
  uint32_t a_game = a.game_id, b_game = b.game_id;
  if (a_game != b_game) return a_game < b_game;
  return uint16_t{a.ply} < uint16_t{b.ply};
}

// Stable LSD radix sort of records by key; the result ends up in `records`.
void radix_sort_by_key(std::vector<Record>& records, std::vector<Record>& scratch) {
  size_t n = records.size();
  std::vector<std::array<size_t, kRadixBuckets>> counts(kRadixPasses);
  for (auto& count : counts) count.fill(0);
  for (const Record& record : records) {
    uint64_t key = record.key;
    for (int pass = 0; pass < kRadixPasses; ++pass) ++counts[pass][(key >> (pass * kRadixBits)) & (kRadixBuckets - 1)];
  }
  scratch.resize(n);
  Record* from = records.data();
  Record* to = scratch.data();
  for (int pass = 0; pass < kRadixPasses; ++pass) {
    auto& count = counts[pass];
    // A digit shared by every record leaves the order unchanged.
    if (std::find(count.begin(), count.end(), n) != count.end()) continue;
    size_t offset = 0;
    for (size_t& c : count) offset += std::exchange(c, offset);
    int shift = pass * kRadixBits;
    for (size_t i = 0; i < n; ++i) {
      uint64_t key = from[i].key;
      to[count[(key >> shift) & (kRadixBuckets - 1)]++] = from[i];
    }
    std::swap(from, to);
  }
  if (from != records.data()) records.swap(scratch);
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
  explicit BatchEmitter(const std::function<void(std::span<const Posting>)>& sink) : sink_(sink) {
    batch_.reserve(kBatchPostings);
  }
  void add(const Posting& posting) {
    batch_.push_back(posting);
    if (batch_.size() == kBatchPostings) flush();
  }
  void flush() {
    if (!batch_.empty()) sink_(batch_);
    batch_.clear();
  }

 private:
  const std::function<void(std::span<const Posting>)>& sink_;
  std::vector<Posting> batch_;
};

}  // namespace

PostingSorter::PostingSorter(size_t memory_budget_bytes, std::filesystem::path temp_dir)
    : memory_budget_bytes_(memory_budget_bytes),
      temp_dir_(std::move(temp_dir)),
      run_capacity_(std::max<size_t>(1, memory_budget_bytes / kBytesPerBufferedPosting)) {}

void PostingSorter::add(const Posting& posting) {
  if (buffer_.size() >= run_capacity_) spill();
  if (buffer_.size() == buffer_.capacity())
    buffer_.reserve(std::min(run_capacity_, std::max<size_t>(4096, 2 * buffer_.capacity())));
  if (!buffer_.empty()) {
    const Record& last = buffer_.back();
    if (posting.game_id < last.game_id || (posting.game_id == last.game_id && posting.ply < last.ply))
      buffer_in_order_ = false;
  }
  buffer_.push_back(Record{posting.key, posting.game_id, posting.ply, posting.next_move,
                           static_cast<uint8_t>(posting.result)});
  ++total_;
}

void PostingSorter::sort_buffer() {
  if (buffer_in_order_)
    radix_sort_by_key(buffer_, scratch_);
  else
    std::sort(buffer_.begin(), buffer_.end(), record_less);
  buffer_in_order_ = true;
}

void PostingSorter::spill() {
  sort_buffer();
  PostingRunWriter writer(temp_dir_);
  for (const Record& record : buffer_) writer.add(to_posting(record));
  runs_.push_back(writer.finish());
  ++runs_spilled_;
  buffer_.clear();
}

std::vector<std::filesystem::path> PostingSorter::run_paths() const {
  std::vector<std::filesystem::path> paths;
  for (const PostingRunFile& run : runs_) paths.push_back(run.path());
  return paths;
}

size_t PostingSorter::reader_buffer_bytes(size_t runs) const {
  size_t share = memory_budget_bytes_ / 2 / std::max<size_t>(1, runs);
  return std::clamp(share, kMinReaderBuffer, kMaxReaderBuffer);
}

void PostingSorter::merge(const std::function<void(std::span<const Posting>)>& sink) {
  // Whatever happens below, the sorter ends empty and its files are gone.
  std::vector<PostingRunFile> runs = std::move(runs_);
  runs_.clear();
  ScopeExit reset{[this] {
    buffer_.clear();
    buffer_.shrink_to_fit();
    scratch_.clear();
    scratch_.shrink_to_fit();
    buffer_in_order_ = true;
    total_ = 0;
  }};

  sort_buffer();
  scratch_.clear();
  scratch_.shrink_to_fit();
  if (runs.empty()) {
    BatchEmitter emitter(sink);
    for (const Record& record : buffer_) emitter.add(to_posting(record));
    emitter.flush();
    return;
  }
  // Cascade: merge the oldest runs into one until the rest fit in one merge with the buffer.
  while (runs.size() + 1 > kMaxMergeFanIn) {
    std::vector<PostingRunFile> group;
    for (size_t i = 0; i < kMaxMergeFanIn; ++i) group.push_back(std::move(runs[i]));
    runs.erase(runs.begin(), runs.begin() + kMaxMergeFanIn);
    PostingRunWriter writer(temp_dir_);
    merge_runs(std::move(group), false, [&writer](std::span<const Posting> batch) {
      for (const Posting& posting : batch) writer.add(posting);
    });
    runs.push_back(writer.finish());
    ++runs_spilled_;
  }
  merge_runs(std::move(runs), true, sink);
}

void PostingSorter::merge_runs(std::vector<PostingRunFile> runs, bool with_buffer,
                               const std::function<void(std::span<const Posting>)>& sink) {
  std::vector<PostingRunReader> readers;
  readers.reserve(runs.size());
  size_t buffer_bytes = reader_buffer_bytes(runs.size());
  for (const PostingRunFile& run : runs) readers.emplace_back(run, buffer_bytes);

  struct Head {
    Posting posting;
    size_t source;  // index into readers, or readers.size() for the in-memory buffer
  };
  // A min-heap on (posting, source): ties keep the older run first, so output is deterministic.
  auto later = [](const Head& a, const Head& b) {
    if (posting_less(a.posting, b.posting)) return false;
    if (posting_less(b.posting, a.posting)) return true;
    return a.source > b.source;
  };
  std::priority_queue<Head, std::vector<Head>, decltype(later)> heap(later);
  size_t buffer_position = 0;
  auto advance = [&](size_t source) {
    Posting posting;
    if (source < readers.size()) {
      if (readers[source].next(posting)) heap.push({posting, source});
    } else if (buffer_position < buffer_.size()) {
      heap.push({to_posting(buffer_[buffer_position++]), source});
    }
  };
  for (size_t source = 0; source < readers.size(); ++source) advance(source);
  if (with_buffer) advance(readers.size());

  BatchEmitter emitter(sink);
  while (!heap.empty()) {
    Head head = heap.top();
    heap.pop();
    emitter.add(head.posting);
    advance(head.source);
  }
  emitter.flush();
}

}  // namespace pgnbase::indexer
