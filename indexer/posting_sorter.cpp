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

// Sorts records by (key, game_id, ply): an in-place radix pass on 8 key bits at
// `shift`, recursing into each bucket on the next 8 bits, and a comparison sort once
// a bucket is small (keys are hashes, so two levels usually suffice) or the key bits
// are used up (many postings of one key).
void sort_records(Record* records, size_t n, int shift = 56) {
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

void PostingSorter::sort_buffer() { sort_records(buffer_.data(), size_); }

void PostingSorter::spill() {
  sort_buffer();
  PostingRunWriter writer(temp_dir_, size_);
  for (size_t i = 0; i < size_; ++i) writer.add(to_posting(buffer_[i]));
  runs_.push_back(writer.finish());
  ++runs_spilled_;
  size_ = 0;
}

std::vector<std::filesystem::path> PostingSorter::run_paths() const {
  std::vector<std::filesystem::path> paths;
  for (const PostingRunFile& run : runs_) paths.push_back(run.path());
  return paths;
}

size_t PostingSorter::reader_buffer_bytes(size_t runs) const {
  size_t share = memory_budget_bytes_ / 8 / std::max<size_t>(1, runs);
  return std::clamp(share, kMinReaderBuffer, kMaxReaderBuffer);
}

void PostingSorter::merge(const std::function<void(std::span<const Posting>)>& sink) {
  // Whatever happens below, the sorter ends empty and its files are gone.
  std::vector<PostingRunFile> runs = std::move(runs_);
  runs_.clear();
  ScopeExit reset{[this] {
    buffer_.release();
    size_ = 0;
    total_ = 0;
  }};

  sort_buffer();
  if (runs.empty()) {
    BatchEmitter emitter(sink);
    for (size_t i = 0; i < size_; ++i) emitter.add(to_posting(buffer_[i]));
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
    } else if (buffer_position < size_) {
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
