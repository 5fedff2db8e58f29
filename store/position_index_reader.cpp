#include "store/position_index_reader.h"

#include <algorithm>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "store/block_decode_ahead.h"
#include "store/position_index_sql.h"

namespace pgnbase::store {

namespace sql = position_index_sql;

namespace {

// Holds a read transaction for one lookup unless the caller already has one open.
class ReadSnapshot {
 public:
  explicit ReadSnapshot(store::Database& db) : db_(db), owned_(!db.in_transaction()) {
    if (owned_) db_.exec(sql::kBeginRead);
  }
  ~ReadSnapshot() {
    if (!owned_) return;
    try {
      db_.exec(sql::kRollback);
    } catch (...) {
      // Nothing was written; the connection ends the transaction when it closes.
    }
  }
  ReadSnapshot(const ReadSnapshot&) = delete;
  ReadSnapshot& operator=(const ReadSnapshot&) = delete;

 private:
  store::Database& db_;
  bool owned_;
};

std::span<const uint8_t> as_bytes(std::span<const std::byte> blob) {
  return {reinterpret_cast<const uint8_t*>(blob.data()), blob.size()};
}

bool game_ply_less(const Posting& a, const Posting& b) {
  return a.game_id != b.game_id ? a.game_id < b.game_id : a.ply < b.ply;
}

// What an error in a segment's blocks says first.
std::string segment_context(int64_t segment_id) {
  return "position index segment " + std::to_string(segment_id) + ": ";
}

// Runs f, naming the segment in the PositionIndexError it throws.
template <class F>
void in_segment(int64_t segment_id, F&& f) {
  try {
    f();
  } catch (const PositionIndexError& error) {
    throw PositionIndexError(segment_context(segment_id) + error.what());
  }
}

}  // namespace

PositionIndexReader::PositionIndexReader(store::Database& db)
    : db_(db), select_segments_(db.prepare(sql::kSelectSegmentKeyBits)), select_blocks_(db.prepare(sql::kSelectBlocksForKey)) {}

void PositionIndexReader::for_each_candidate_block(
    uint64_t key, const std::function<void(std::span<const uint8_t>, int64_t)>& on_block) {
  ReadSnapshot snapshot(db_);
  std::vector<std::pair<int64_t, int>> segments;
  select_segments_.reset();
  while (select_segments_.step())
    segments.emplace_back(select_segments_.column_int64(0),
                          static_cast<int>(std::clamp<int64_t>(select_segments_.column_int64(1), -1, 65)));
  select_segments_.reset();

  for (const auto& [segment_id, key_bits] : segments) {
    if (segment_id < first_segment_id_) continue;
    if (key_bits < 1 || key_bits > 64)  // a shift by it would be undefined
      throw PositionIndexError(segment_context(segment_id) + "key_bits " + std::to_string(key_bits) +
                               " is not 1..64");
    select_blocks_.reset();
    select_blocks_.bind_int64(1, segment_id);
    select_blocks_.bind_int64(2, sql::to_sql_key(mask_key(key, key_bits)));
    try {
      while (select_blocks_.step()) {
        ++blocks_read_;
        on_block(as_bytes(select_blocks_.column_blob(0)), segment_id);
      }
    } catch (...) {
      select_blocks_.reset();  // a statement left on a row would hold its read transaction open
      throw;
    }
    select_blocks_.reset();
  }
}

unsigned PositionIndexReader::default_decode_threads() {
  static const unsigned helpers = std::min(std::max(std::thread::hardware_concurrency(), 1u), 4u) - 1;
  return helpers;
}

void PositionIndexReader::visit_decoding_ahead(uint64_t key,
                                               const std::function<void(std::span<const Posting>)>& on_postings) {
  BlockDecodeAhead ahead(key, decode_threads_, on_postings);
  for_each_candidate_block(key, [&](std::span<const uint8_t> block, int64_t segment_id) {
    ahead.add(block, segment_context(segment_id));
  });
  ahead.finish();
}

void PositionIndexReader::visit(uint64_t key, const std::function<void(std::span<const Posting>)>& visitor) {
  if (decode_threads_ > 0) return visit_decoding_ahead(key, visitor);
  for_each_candidate_block(key, [&](std::span<const uint8_t> block, int64_t segment_id) {
    in_segment(segment_id, [&] {
      decoder_.open(block);
      scratch_.clear();
      if (decoder_.find(key, scratch_) > 0) visitor(scratch_);
    });
  });
}

std::vector<Posting> PositionIndexReader::lookup(uint64_t key) {
  std::vector<Posting> postings;
  if (decode_threads_ > 0) {
    visit_decoding_ahead(key, [&](std::span<const Posting> block) {
      postings.insert(postings.end(), block.begin(), block.end());
    });
  } else {
    for_each_candidate_block(key, [&](std::span<const uint8_t> block, int64_t segment_id) {
      in_segment(segment_id, [&] {
        decoder_.open(block);
        decoder_.find(key, postings);
      });
    });
  }
  if (!std::is_sorted(postings.begin(), postings.end(), game_ply_less))
    std::sort(postings.begin(), postings.end(), game_ply_less);
  return postings;
}

uint64_t PositionIndexReader::count(uint64_t key) {
  uint64_t total = 0;
  for_each_candidate_block(key, [&](std::span<const uint8_t> block, int64_t segment_id) {
    in_segment(segment_id, [&] {
      decoder_.open(block);
      total += decoder_.count(key);
    });
  });
  return total;
}

}  // namespace pgnbase::store
