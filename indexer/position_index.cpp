#include "indexer/position_index.h"

#include <algorithm>
#include <bit>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

#include "core/thread_group.h"
#include "indexer/block_spool.h"
#include "store/position_index_sql.h"

namespace pgnbase::indexer {

namespace sql = store::position_index_sql;

namespace {

// At most this many postings (about 800 games of 80 plies), a segment is merged and
// encoded on the writing thread (write_segment).
constexpr uint64_t kSmallSegmentPostings = uint64_t{1} << 16;

// A block ready to insert.
struct EncodedBlock {
  uint64_t first_key = 0, last_key = 0;  // stored (masked) keys
  uint32_t postings = 0;
  std::vector<uint8_t> bytes;  // empty once spooled
  bool spooled = false;        // bytes are in the merge's BlockSpool at spool_offset
  uint64_t spool_offset = 0;
  size_t size = 0;             // of bytes, spooled or not
};

// What one key partition became.
struct EncodedPartition {
  std::vector<EncodedBlock> blocks;
  uint64_t postings = 0, groups = 0;
  store::PostingBlockSizes sections;
  bool done = false;  // set under the builder's mutex once the blocks are complete
};

// Cuts one partition's sorted postings into encoded blocks. A block holds whole groups
// (postings sharing a group key) and whole runs of groups sharing a fingerprint, unless
// such a run exceeds the block size: it then fills blocks of its own, each starting with
// its fingerprint (cut between groups where it can, else inside the group), so that
// every block holding a fingerprint starts with it or is the one block whose range
// covers it. The blocks of such a run store the extra key bits of every group (see
// posting_block_codec.h), so that a lookup of the run's key takes no other key's
// posting out of game order.
class BlockCutter {
 public:
  BlockCutter(const PositionIndexOptions& options, EncodedPartition& out)
      : fingerprint_bits_(options.fingerprint_bits),
        group_bits_(options.key_bits),
        limit_(std::max<uint32_t>(1, options.block_postings)),
        encoder_(options.fingerprint_bits, options.compression_level, options.lean,
                 options.key_bits - options.fingerprint_bits),
        out_(out) {}

  void add(const store::Posting& posting) {
    const uint64_t group_key = store::mask_key(posting.key, group_bits_);
    if (out_.postings == 0 || group_key != current_group_) {
      group_start_ = pending_.size();
      current_group_ = group_key;
      ++out_.groups;
      const uint64_t fingerprint = store::mask_key(posting.key, fingerprint_bits_);
      if (out_.postings == 0 || fingerprint != current_fingerprint_) {
        run_start_ = pending_.size();
        current_fingerprint_ = fingerprint;
      }
    }
    ++out_.postings;
    pending_.push_back(posting);
    if (pending_.size() > limit_) {
      // Close the block before the current fingerprint's run; when that run began the
      // block, before the current group; a group alone over the limit is split.
      const size_t cut = run_start_ > 0 ? run_start_ : group_start_ > 0 ? group_start_ : limit_;
      const bool inside_run = run_start_ == 0;
      emit({pending_.data(), cut}, continues_run_ || inside_run);
      continues_run_ = inside_run;
      pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(cut));
      group_start_ = group_start_ >= cut ? group_start_ - cut : 0;
      run_start_ = 0;
    }
  }

  void finish() {
    if (!pending_.empty()) emit(pending_, continues_run_);
    pending_.clear();
  }

 private:
  void emit(std::span<const store::Posting> block, bool run_of_blocks) {
    store::PostingBlockSizes sizes;
    std::span<const uint8_t> bytes = encoder_.encode(block, &sizes, run_of_blocks);
    out_.blocks.push_back({store::mask_key(block.front().key, fingerprint_bits_),
                           store::mask_key(block.back().key, fingerprint_bits_), static_cast<uint32_t>(block.size()),
                           {bytes.begin(), bytes.end()}, false, 0, bytes.size()});
    out_.sections.header += sizes.header;
    for (size_t i = 0; i < sizes.stored.size(); ++i) {
      out_.sections.stored[i] += sizes.stored[i];
      out_.sections.raw[i] += sizes.raw[i];
    }
  }

  int fingerprint_bits_;
  int group_bits_;
  size_t limit_;
  store::PostingBlockEncoder encoder_;
  EncodedPartition& out_;
  std::vector<store::Posting> pending_;
  size_t group_start_ = 0;  // index in pending_ of the current group's first posting
  size_t run_start_ = 0;    // of the first posting of the current fingerprint's run
  bool continues_run_ = false;  // pending_ starts inside a run cut at the block before
  uint64_t current_group_ = 0, current_fingerprint_ = 0;
};

}  // namespace

PositionIndexBuilder::PositionIndexBuilder(size_t memory_budget_bytes, std::filesystem::path temp_dir)
    : PositionIndexBuilder(PositionIndexOptions{.memory_budget_bytes = memory_budget_bytes,
                                                .temp_dir = std::move(temp_dir)}) {}

PositionIndexBuilder::PositionIndexBuilder(PositionIndexOptions options)
    : options_(std::move(options)), sorter_(options_.memory_budget_bytes, options_.temp_dir, options_.spill_threads) {
  if (options_.key_bits < 0 || options_.key_bits > 64)
    throw store::PositionIndexError("position index key_bits must be between 1 and 64 (0: automatic)");
  if (options_.fingerprint_bits < 0 || options_.fingerprint_bits > 64)
    throw store::PositionIndexError("position index fingerprint_bits must be between 1 and 64 (0: automatic)");
  if (options_.block_postings > store::kMaxBlockPostings)
    throw store::PositionIndexError("position index blocks hold at most " + std::to_string(store::kMaxBlockPostings) + " postings");
  stats_.key_bits = options_.key_bits;
}

PositionIndexBuilder::~PositionIndexBuilder() = default;

void PositionIndexBuilder::add(const store::Posting& posting) {
  if (written_ || merge_) throw store::PositionIndexError("position index segment already merged; create a new builder");
  sorter_.add(posting);
  if (!have_game_ || posting.game_id != last_game_id_) {
    ++stats_.games;
    stats_.first_game_id = have_game_ ? std::min(stats_.first_game_id, posting.game_id) : posting.game_id;
    stats_.last_game_id = have_game_ ? std::max(stats_.last_game_id, posting.game_id) : posting.game_id;
    have_game_ = true;
    last_game_id_ = posting.game_id;
  }
  ++stats_.postings;
}

void PositionIndexBuilder::add_sorted_run(std::vector<PostingSorter::Record> run, uint64_t games, bool sorted) {
  if (written_ || merge_) throw store::PositionIndexError("position index segment already merged; create a new builder");
  if (run.empty()) return;
  uint32_t low = run.front().game_id, high = low;
  for (const PostingSorter::Record& r : run) {
    const uint32_t id = r.game_id;  // a copy: std::min would bind a reference to a packed member
    low = std::min(low, id);
    high = std::max(high, id);
  }
  add_sorted_run(std::move(run), games, 0, low, high, sorted);
}

void PositionIndexBuilder::add_sorted_run(std::vector<PostingSorter::Record> run, uint64_t games, uint32_t id_offset,
                                          uint32_t low, uint32_t high, bool sorted) {
  if (written_ || merge_) throw store::PositionIndexError("position index segment already merged; create a new builder");
  if (run.empty()) return;
  stats_.first_game_id = have_game_ ? std::min(stats_.first_game_id, low) : low;
  stats_.last_game_id = have_game_ ? std::max(stats_.last_game_id, high) : high;
  have_game_ = true;
  last_game_id_ = high;
  stats_.games += games;
  stats_.postings += run.size();
  sorter_.add_sorted_run(std::move(run), id_offset, low, high, sorted);
}

void PositionIndexBuilder::add_game(uint32_t game_id, store::GameResult result, std::span<const uint64_t> keys,
                                    std::span<const uint16_t> moves) {
  if (keys.size() != moves.size() + 1)
    throw store::PositionIndexError("add_game needs one key more than moves (the start position's)");
  if (keys.size() > 65536) throw store::PositionIndexError("game " + std::to_string(game_id) + " has more than 65535 plies");
  for (size_t ply = 0; ply < keys.size(); ++ply)
    add(store::Posting{keys[ply], game_id, static_cast<uint16_t>(ply), ply < moves.size() ? moves[ply] : uint16_t{0}, result});
}

// The merge of one segment's partitions, on threads of its own or on the caller's.
struct PositionIndexBuilder::Merge {
  std::vector<EncodedPartition> partitions = std::vector<EncodedPartition>(store::kKeyPartitions);
  std::vector<std::unique_ptr<BlockCutter>> cutters = std::vector<std::unique_ptr<BlockCutter>>(store::kKeyPartitions);
  std::mutex mutex;
  std::condition_variable changed;
  unsigned window = 0;    // a partition starts only when it is fewer than this ahead of the insertion
  unsigned inserted = 0;  // partitions inserted so far, all below this one
  // While the caller does other work (start_merge), partitions finished a window or more
  // ahead of the insertion go to the spool instead of waiting for room.
  bool spool_ahead = false;
  std::unique_ptr<BlockSpool> spool;
  bool over = false, stop = false;
  std::exception_ptr error;
  ThreadGroup merger;  // the last member: its destructor waits for the threads before the rest goes

  ~Merge() {
    std::lock_guard lock(mutex);
    stop = true;
    changed.notify_all();
  }
};

void PositionIndexBuilder::start_merge() {
  if (merge_ || written_) return;
  // A small segment (a short source, such as a zip member of one game) is merged and
  // encoded on write_segment's thread: starting threads and handing each of the
  // partitions over would cost it more than the work.
  if (stats_.postings <= kSmallSegmentPostings) return;
  start_merge(std::max(1u, options_.threads), /*spool_ahead=*/true);
}

void PositionIndexBuilder::start_merge(unsigned threads, bool spool_ahead) {
  const int width = static_cast<int>(std::bit_width(stats_.postings));
  if (options_.key_bits == 0) options_.key_bits = std::clamp(width + 12, 24, 64);
  if (options_.fingerprint_bits == 0)
    options_.fingerprint_bits = options_.lean ? std::max(width + 1, 24) : options_.key_bits;
  options_.fingerprint_bits = std::min(options_.fingerprint_bits, options_.key_bits);
  stats_.key_bits = options_.fingerprint_bits;
  merge_ = std::make_unique<Merge>();
  Merge& m = *merge_;
  m.spool_ahead = spool_ahead;
  if (spool_ahead) m.spool = std::make_unique<BlockSpool>(options_.temp_dir);
  // Encoded blocks waiting for insertion stay bounded: a quarter of the memory budget
  // (estimated at 5 bytes a posting; lean segments measure 3.5-3.8), and never fewer
  // than 2 x threads + 1 partitions, so that every thread has work while the caller
  // inserts. All partitions when they are merged on the caller's thread.
  constexpr uint64_t kEstimatedBytesPerPosting = 5;
  const uint64_t partition_bytes = std::max<uint64_t>(1, stats_.postings * kEstimatedBytesPerPosting / store::kKeyPartitions);
  const uint64_t ahead = options_.memory_budget_bytes / 4 / partition_bytes;
  m.window = threads == 0 ? store::kKeyPartitions
                          : unsigned(std::max<uint64_t>(std::min<uint64_t>(ahead, store::kKeyPartitions), 2 * threads + 1));
  PostingSorter::PartitionSink sink{
      [this, &m](unsigned p) {
        std::unique_lock lock(m.mutex);
        m.changed.wait(lock, [&] { return p < m.inserted + m.window || m.spool_ahead || m.stop; });
        if (m.stop) throw store::PositionIndexError("position index merge stopped");
        lock.unlock();
        m.cutters[p] = std::make_unique<BlockCutter>(options_, m.partitions[p]);
      },
      [&m](unsigned p, std::span<const store::Posting> batch) {
        for (const store::Posting& posting : batch) m.cutters[p]->add(posting);
      },
      [&m](unsigned p) {
        m.cutters[p]->finish();
        m.cutters[p].reset();
        std::unique_lock lock(m.mutex);
        if (m.spool_ahead && p >= m.inserted + m.window) {
          lock.unlock();
          for (EncodedBlock& block : m.partitions[p].blocks) {
            block.spool_offset = m.spool->write(block.bytes);
            block.spooled = true;
            block.bytes = {};
          }
          lock.lock();
        }
        m.partitions[p].done = true;
        m.changed.notify_all();
      }};
  auto merge = [this, &m, threads, sink = std::move(sink)] {
    try {
      sorter_.merge_partitions(std::max(1u, threads), sink);
    } catch (...) {
      m.error = std::current_exception();
    }
    std::lock_guard lock(m.mutex);
    m.over = true;
    m.changed.notify_all();
  };
  if (threads == 0) {
    merge();
    return;
  }
  try {
    m.merger.start(std::move(merge), "the position index merge thread", ThreadRole::Merge);
  } catch (...) {  // ThreadStartError: no merge is under way, and none is waited for
    merge_.reset();
    throw;
  }
}

uint64_t PositionIndexBuilder::bytes_spooled() const {
  return merge_ && merge_->spool ? merge_->spool->bytes_written() : bytes_spooled_;
}

void PositionIndexBuilder::check_segment_is_new(store::Database& db, int64_t segment_id) {
  if (segment_checked_) return;
  if (!db.in_transaction()) throw store::PositionIndexError("write_segment must run inside the caller's transaction");
  store::Statement& exists = db.cached(sql::kSegmentExists);
  exists.bind_int64(1, segment_id);
  const bool taken = exists.step();
  exists.reset();
  if (taken) throw store::PositionIndexError("position index segment " + std::to_string(segment_id) + " already exists");
  segment_checked_ = true;
}

void PositionIndexBuilder::insert_partitions(store::Database& db, int64_t segment_id, bool wait) {
  Merge& m = *merge_;
  store::Statement& insert = db.cached(sql::kInsertBlock);
  std::vector<uint8_t> spooled;
  for (unsigned p = m.inserted; p < store::kKeyPartitions; ++p) {
    {
      std::unique_lock lock(m.mutex);
      if (wait) m.changed.wait(lock, [&] { return m.partitions[p].done || m.over; });
      if (!m.partitions[p].done) return;  // not yet, or the merge failed
    }
    EncodedPartition& part = m.partitions[p];
    for (const EncodedBlock& block : part.blocks) {
      insert.bind_int64(1, segment_id);
      insert.bind_int64(2, sql::to_sql_key(block.first_key));
      insert.bind_int64(3, sql::to_sql_key(block.last_key));
      insert.bind_int64(4, static_cast<int64_t>(block.postings));
      if (block.spooled) m.spool->read(block.spool_offset, block.size, spooled);
      insert.bind_blob_static(5, block.spooled ? spooled : block.bytes);
      insert.run();
      ++stats_.blocks;
      stats_.block_bytes += block.size;
    }
    inserted_postings_ += part.postings;
    inserted_groups_ += part.groups;
    section_totals_.header += part.sections.header;
    for (size_t i = 0; i < part.sections.stored.size(); ++i) {
      section_totals_.stored[i] += part.sections.stored[i];
      section_totals_.raw[i] += part.sections.raw[i];
    }
    part.blocks = {};  // freed as soon as inserted
    std::lock_guard lock(m.mutex);
    m.inserted = p + 1;
    m.changed.notify_all();
  }
}

void PositionIndexBuilder::insert_ready_blocks(store::Database& db, int64_t segment_id) {
  if (!merge_ || written_) return;
  try {
    check_segment_is_new(db, segment_id);
    insert_partitions(db, segment_id, false);
  } catch (...) {
    merge_.reset();  // stops the merge threads and waits for them
    written_ = true;
    throw;
  }
}

store::SegmentStats PositionIndexBuilder::write_segment(store::Database& db, int64_t segment_id) {
  if (written_) throw store::PositionIndexError("position index segment already written; create a new builder");
  written_ = true;
  // Partitions are merged and encoded on options_.threads threads (started here unless
  // start_merge did); this thread inserts their blocks in key order as they complete.
  // A small segment is merged and encoded on this thread before any insertion.
  try {
    check_segment_is_new(db, segment_id);
    if (!merge_) start_merge(stats_.postings <= kSmallSegmentPostings ? 0 : std::max(1u, options_.threads), false);
    {
      // This thread inserts from now on: the merge waits for room again instead of spooling.
      std::lock_guard lock(merge_->mutex);
      merge_->spool_ahead = false;
      merge_->changed.notify_all();
    }
    insert_partitions(db, segment_id, true);
  } catch (...) {
    merge_.reset();  // stops the merge threads and waits for them
    throw;
  }
  merge_->merger.join();
  const std::exception_ptr merge_error = merge_->error;
  bytes_spooled_ = bytes_spooled();
  merge_.reset();
  if (merge_error) std::rethrow_exception(merge_error);
  if (inserted_postings_ != stats_.postings) throw store::PositionIndexError("position index merge lost postings");

  stats_.segment_id = segment_id;
  stats_.distinct_keys = inserted_groups_;
  store::insert_segment_row(db, stats_);
  return stats_;
}

}  // namespace pgnbase::indexer
