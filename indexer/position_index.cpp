#include "indexer/position_index.h"

#include <algorithm>
#include <string>
#include <utility>

#include "indexer/position_index_sql.h"

namespace pgnbase::indexer {

namespace sql = position_index_sql;

namespace {

// Cuts the merged, sorted postings into blocks and inserts them. A block holds whole
// groups (postings sharing a stored key) unless one group exceeds the block size: that
// group then fills blocks of its own, each starting with its key, so that every block
// holding a key starts with it or is the one block whose range covers it.
class SegmentWriter {
 public:
  SegmentWriter(store::Database& db, int64_t segment_id, const PositionIndexOptions& options,
                PostingBlockSizes& section_totals)
      : insert_(db.prepare(sql::kInsertBlock)),
        segment_id_(segment_id),
        key_bits_(options.key_bits),
        limit_(std::max<uint32_t>(1, options.block_postings)),
        encoder_(options.key_bits, options.compression_level),
        section_totals_(section_totals) {
    pending_.reserve(limit_ + 1);
  }

  void add(const Posting& posting) {
    uint64_t stored_key = mask_key(posting.key, key_bits_);
    if (postings_ == 0 || stored_key != current_key_) {
      group_start_ = pending_.size();
      current_key_ = stored_key;
      ++groups_;
    }
    ++postings_;
    pending_.push_back(posting);
    if (pending_.size() > limit_) {
      // Close the block before the current group; a group alone over the limit is split.
      size_t cut = group_start_ > 0 ? group_start_ : limit_;
      emit({pending_.data(), cut});
      pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(cut));
      group_start_ = 0;
    }
  }

  void finish() {
    if (!pending_.empty()) emit(pending_);
    pending_.clear();
  }

  uint64_t postings() const { return postings_; }
  uint64_t groups() const { return groups_; }
  uint64_t blocks() const { return blocks_; }
  uint64_t bytes() const { return bytes_; }

 private:
  void emit(std::span<const Posting> block) {
    PostingBlockSizes sizes;
    std::span<const uint8_t> bytes = encoder_.encode(block, &sizes);
    insert_.bind_int64(1, segment_id_);
    insert_.bind_int64(2, sql::to_sql_key(mask_key(block.front().key, key_bits_)));
    insert_.bind_int64(3, sql::to_sql_key(mask_key(block.back().key, key_bits_)));
    insert_.bind_int64(4, static_cast<int64_t>(block.size()));
    insert_.bind_blob_static(5, bytes);
    insert_.run();
    ++blocks_;
    bytes_ += bytes.size();
    section_totals_.header += sizes.header;
    for (size_t i = 0; i < sizes.stored.size(); ++i) {
      section_totals_.stored[i] += sizes.stored[i];
      section_totals_.raw[i] += sizes.raw[i];
    }
  }

  store::Statement insert_;
  int64_t segment_id_;
  int key_bits_;
  size_t limit_;
  PostingBlockEncoder encoder_;
  PostingBlockSizes& section_totals_;
  std::vector<Posting> pending_;
  size_t group_start_ = 0;  // index in pending_ of the current group's first posting
  uint64_t current_key_ = 0;
  uint64_t postings_ = 0;
  uint64_t groups_ = 0;
  uint64_t blocks_ = 0;
  uint64_t bytes_ = 0;
};

SegmentStats read_segment_row(const store::Statement& row) {
  SegmentStats stats;
  stats.segment_id = row.column_int64(0);
  stats.key_bits = static_cast<int>(row.column_int64(1));
  stats.postings = static_cast<uint64_t>(row.column_int64(2));
  stats.distinct_keys = static_cast<uint64_t>(row.column_int64(3));
  stats.games = static_cast<uint64_t>(row.column_int64(4));
  stats.first_game_id = static_cast<uint32_t>(row.column_int64(5));
  stats.last_game_id = static_cast<uint32_t>(row.column_int64(6));
  stats.blocks = static_cast<uint64_t>(row.column_int64(7));
  stats.block_bytes = static_cast<uint64_t>(row.column_int64(8));
  return stats;
}

}  // namespace

PositionIndexBuilder::PositionIndexBuilder(size_t memory_budget_bytes, std::filesystem::path temp_dir)
    : PositionIndexBuilder(PositionIndexOptions{.memory_budget_bytes = memory_budget_bytes,
                                                .temp_dir = std::move(temp_dir)}) {}

PositionIndexBuilder::PositionIndexBuilder(PositionIndexOptions options)
    : options_(std::move(options)), sorter_(options_.memory_budget_bytes, options_.temp_dir) {
  if (options_.key_bits < 1 || options_.key_bits > 64)
    throw PositionIndexError("position index key_bits must be between 1 and 64");
  stats_.key_bits = options_.key_bits;
}

PositionIndexBuilder::~PositionIndexBuilder() = default;

void PositionIndexBuilder::add(const Posting& posting) {
  if (written_) throw PositionIndexError("position index segment already written; create a new builder");
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

void PositionIndexBuilder::add_game(uint32_t game_id, GameResult result, std::span<const uint64_t> keys,
                                    std::span<const uint16_t> moves) {
  if (keys.size() != moves.size() + 1)
    throw PositionIndexError("add_game needs one key more than moves (the start position's)");
  if (keys.size() > 65536) throw PositionIndexError("game " + std::to_string(game_id) + " has more than 65535 plies");
  for (size_t ply = 0; ply < keys.size(); ++ply)
    add(Posting{keys[ply], game_id, static_cast<uint16_t>(ply), ply < moves.size() ? moves[ply] : uint16_t{0}, result});
}

SegmentStats PositionIndexBuilder::write_segment(store::Database& db, int64_t segment_id) {
  if (written_) throw PositionIndexError("position index segment already written; create a new builder");
  written_ = true;
  if (!db.in_transaction()) throw PositionIndexError("write_segment must run inside the caller's transaction");
  {
    store::Statement exists = db.prepare(sql::kSegmentExists);
    exists.bind_int64(1, segment_id);
    if (exists.step())
      throw PositionIndexError("position index segment " + std::to_string(segment_id) + " already exists");
  }
  SegmentWriter writer(db, segment_id, options_, section_totals_);
  sorter_.merge([&writer](std::span<const Posting> batch) {
    for (const Posting& posting : batch) writer.add(posting);
  });
  writer.finish();
  if (writer.postings() != stats_.postings) throw PositionIndexError("position index merge lost postings");

  stats_.segment_id = segment_id;
  stats_.distinct_keys = writer.groups();
  stats_.blocks = writer.blocks();
  stats_.block_bytes = writer.bytes();
  store::Statement insert = db.prepare(sql::kInsertSegment);
  insert.bind_int64(1, segment_id);
  insert.bind_int64(2, kPostingBlockFormat);
  insert.bind_int64(3, stats_.key_bits);
  insert.bind_int64(4, static_cast<int64_t>(stats_.postings));
  insert.bind_int64(5, static_cast<int64_t>(stats_.distinct_keys));
  insert.bind_int64(6, static_cast<int64_t>(stats_.games));
  insert.bind_int64(7, stats_.first_game_id);
  insert.bind_int64(8, stats_.last_game_id);
  insert.bind_int64(9, static_cast<int64_t>(stats_.blocks));
  insert.bind_int64(10, static_cast<int64_t>(stats_.block_bytes));
  insert.run();
  return stats_;
}

void create_position_index_schema(store::Database& db) { db.exec(sql::kCreateSchema); }

bool delete_position_segment(store::Database& db, int64_t segment_id) {
  std::optional<store::Transaction> own;
  if (!db.in_transaction()) own.emplace(db);
  store::Statement delete_blocks = db.prepare(sql::kDeleteBlocks);
  delete_blocks.bind_int64(1, segment_id);
  delete_blocks.run();
  int64_t blocks = db.changes();
  store::Statement delete_segment = db.prepare(sql::kDeleteSegment);
  delete_segment.bind_int64(1, segment_id);
  delete_segment.run();
  bool existed = db.changes() > 0 || blocks > 0;
  if (own) own->commit();
  return existed;
}

std::vector<SegmentStats> read_position_segments(store::Database& db) {
  std::vector<SegmentStats> segments;
  store::Statement select = db.prepare(sql::kSelectSegments);
  while (select.step()) segments.push_back(read_segment_row(select));
  return segments;
}

std::optional<SegmentStats> read_position_segment(store::Database& db, int64_t segment_id) {
  for (const SegmentStats& stats : read_position_segments(db))
    if (stats.segment_id == segment_id) return stats;
  return std::nullopt;
}

}  // namespace pgnbase::indexer
