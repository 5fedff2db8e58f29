#include "indexer/merged_positions.h"

#include <algorithm>
#include <optional>
#include <random>

#include "store/merge_sql.h"
#include "store/position_index_sql.h"
#include "store/posting_block_codec.h"

namespace pgnbase::indexer {

namespace {

namespace sql = store::position_index_sql;

constexpr uint64_t kEmpty = ~uint64_t{0};
// The key set's filter: 2^22 bits, 512 KiB.
constexpr unsigned kFilterBits = 22;
// A segment whose games span more ids than this is indexed by replay (the per-game sums
// are an array over the span).
constexpr int64_t kMaxGameSpan = int64_t{1} << 28;

// splitmix64's finalizer (https://prng.di.unimi.it/splitmix64.c).
uint64_t finalize(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  x ^= x >> 31;
  return x;
}

// A posting's place as one 64-bit value, for a KeySet.
uint64_t key_and_game(uint64_t group_key, uint32_t game) { return finalize(group_key ^ finalize(game + 1)); }

std::span<const uint8_t> bytes_of(std::span<const std::byte> blob) {
  return {reinterpret_cast<const uint8_t*>(blob.data()), blob.size()};
}

}  // namespace

void SourcePositions::KeySet::grow() {
  std::vector<uint64_t> old = std::move(slots_);
  slots_.assign(std::max<size_t>(1024, 2 * old.size()), kEmpty);
  size_ = 0;
  for (uint64_t key : old)
    if (key != kEmpty) insert(key);
}

void SourcePositions::KeySet::insert(uint64_t key) {
  if (key == kEmpty) {
    has_empty_ = true;
    return;
  }
  if (filter_.empty()) filter_.assign(size_t{1} << (kFilterBits - 6), 0);
  if (2 * (size_ + 1) > slots_.size()) grow();
  const uint64_t hash = finalize(key);
  filter_[(hash >> 6) & ((size_t{1} << (kFilterBits - 6)) - 1)] |= uint64_t{1} << (hash & 63);
  const size_t mask = slots_.size() - 1;
  for (size_t i = (hash >> kFilterBits) & mask;; i = (i + 1) & mask) {
    if (slots_[i] == key) return;
    if (slots_[i] == kEmpty) {
      slots_[i] = key;
      ++size_;
      return;
    }
  }
}

bool SourcePositions::KeySet::contains(uint64_t key) const {
  if (key == kEmpty) return has_empty_;
  if (slots_.empty()) return false;
  const uint64_t hash = finalize(key);
  if (!(filter_[(hash >> 6) & ((size_t{1} << (kFilterBits - 6)) - 1)] >> (hash & 63) & 1)) return false;
  const size_t mask = slots_.size() - 1;
  for (size_t i = (hash >> kFilterBits) & mask;; i = (i + 1) & mask) {
    if (slots_[i] == key) return true;
    if (slots_[i] == kEmpty) return false;
  }
}

uint64_t SourcePositions::mix(uint64_t stored_key, uint32_t game, bool with_move, uint16_t move, uint8_t result) const {
  const uint64_t base = finalize(stored_key ^ seed_) ^ finalize(game + seed_);
  uint64_t h = finalize(base);
  if (with_move) h += finalize(base ^ finalize((uint64_t{move} << 8 | result) + (seed_ >> 1)));
  return h;
}

SourcePositions::SourcePositions() = default;
SourcePositions::~SourcePositions() = default;

std::unique_ptr<SourcePositions> SourcePositions::read(store::Database& other, int64_t source_id,
                                                       int64_t first_id, int64_t last_id, std::string& why,
                                                       bool& damaged) {
  damaged = false;
  if (last_id < first_id || last_id - first_id >= kMaxGameSpan) {
    why = "its games are not one range of ids";
    return nullptr;
  }
  auto positions = std::unique_ptr<SourcePositions>(new SourcePositions);
  SourcePositions& s = *positions;
  s.other_ = &other;
  if (other.has_table("moved_segments")) {
    store::Statement moved = other.prepare(store::sql::kMergeMovedSegments);
    moved.bind_int64(1, source_id);
    if (moved.step() && moved.column_int64(0) > 0) {
      why = "it holds games moved from a removed source";
      return nullptr;
    }
  }
  s.source_id_ = source_id;
  s.first_id_ = first_id;
  {
    store::Statement segment = other.prepare(store::sql::kMergeSegment);
    segment.bind_int64(1, source_id);
    if (!segment.step()) {
      why = "it has no position index segment";
      damaged = true;
      return nullptr;
    }
    if (segment.column_int64(0) != store::kPostingBlockFormat) {
      why = "its position index is of an older layout";
      return nullptr;
    }
    s.key_bits_ = int(segment.column_int64(1));
    if (s.key_bits_ < 1 || s.key_bits_ > 64) {
      why = "its position index states " + std::to_string(s.key_bits_) + " key bits";
      damaged = true;
      return nullptr;
    }
  }
  s.seed_ = (uint64_t{std::random_device{}()} << 32) ^ std::random_device{}();
  const size_t span = size_t(last_id - first_id + 1);
  s.game_hashes_.assign(span, 0);
  s.game_postings_.assign(span, 0);
  store::Statement blocks = other.prepare(store::sql::kMergeSegmentBlocks);
  blocks.bind_int64(1, source_id);
  store::PostingBlockDecoder decoder;
  std::vector<store::Posting> postings;
  std::vector<uint32_t> group_sizes;
  bool any = false;
  uint64_t previous_fingerprint = 0, previous_group_key = 0;
  try {
    while (blocks.step()) {
      decoder.open(bytes_of(blocks.column_blob(0)));
      if (decoder.format() != store::kPostingBlockFormat ||
          (decoder.flags() & ~store::kBlockStoresAllExtraBits) != 0 || decoder.key_bits() != s.key_bits_ ||
          (any && decoder.extra_bits() != s.extra_bits_)) {
        why = "its position index blocks are not of the lean layout the import writes";
        return nullptr;
      }
      s.extra_bits_ = decoder.extra_bits();
      const bool every_group_extra = decoder.flags() & store::kBlockStoresAllExtraBits;
      postings.clear();
      decoder.decode_all(postings, &group_sizes);
      size_t group = 0, group_end = 0;
      for (size_t i = 0; i < postings.size(); ++i) {
        const store::Posting& p = postings[i];
        const bool first_of_group = i == group_end;
        if (first_of_group) group_end += group_sizes[group++];
        const uint64_t fingerprint = store::mask_key(p.key, s.key_bits_);
        if (any && fingerprint < previous_fingerprint) {
          why = "its position index blocks are out of key order";
          damaged = true;
          return nullptr;
        }
        if (p.game_id < first_id || p.game_id > last_id) {
          why = "its position index names game " + std::to_string(p.game_id) + ", not one of its games";
          damaged = true;
          return nullptr;
        }
        // A group goes on in the next block only where a key fills blocks of its own,
        // whose groups all store their extra bits: there the keys tell.
        if (first_of_group && (!any || i > 0 || p.key != previous_group_key)) ++s.distinct_keys_;
        any = true;
        previous_fingerprint = fingerprint;
        previous_group_key = p.key;
        const bool with_move = p.next_move != store::kUnknownNextMove;
        if (with_move) {
          s.keys_with_moves_.insert(p.key);
        } else {
          // A key's pieces come in block order, those with moves first.
          if (s.keys_with_moves_.contains(p.key)) s.moveless_of_keys_with_moves_.insert(key_and_game(p.key, p.game_id));
          if (every_group_extra && s.extra_bits_ > 0) s.keys_with_extra_only_.insert(p.key);
        }
        const size_t at = size_t(p.game_id - first_id);
        s.game_hashes_[at] += s.mix(p.key, p.game_id, with_move, p.next_move, uint8_t(p.result));
        ++s.game_postings_[at];
      }
      s.postings_ += postings.size();
      s.blocks_.push_back({store::mask_key(postings.front().key, s.key_bits_),
                           store::mask_key(postings.back().key, s.key_bits_), uint32_t(postings.size())});
    }
  } catch (const store::PositionIndexError& e) {
    why = std::string("its position index does not decode (") + e.what() + ")";
    damaged = true;
    return nullptr;
  }
  return positions;
}

uint64_t SourcePositions::replay_hash(int64_t other_id, std::span<const Key> keys, std::span<const MoveCode> codes,
                                      uint8_t result) const {
  uint64_t sum = 0;
  const uint32_t game = uint32_t(other_id);
  for (size_t ply = 0; ply < keys.size(); ++ply) {
    // The group key where the blocks store it (groups with moves, and those of a key
    // filling blocks of its own), else the fingerprint.
    uint64_t stored = store::mask_key(keys[ply], key_bits_ + extra_bits_);
    bool with_move = keys_with_moves_.contains(stored);
    if (with_move) with_move = !moveless_of_keys_with_moves_.contains(key_and_game(stored, game));
    else if (!keys_with_extra_only_.contains(stored)) stored = store::mask_key(keys[ply], key_bits_);
    sum += mix(stored, game, with_move, ply < codes.size() ? codes[ply] : kNullMoveCode, result);
  }
  return sum;
}

uint64_t SourcePositions::stored_hash(int64_t other_id) const {
  const int64_t at = other_id - first_id_;
  return at < 0 || at >= int64_t(game_hashes_.size()) ? 0 : game_hashes_[size_t(at)];
}

store::SegmentStats SourcePositions::write(store::Database& db, int64_t segment_id,
                                           std::span<const std::pair<int64_t, int64_t>> ids,
                                           PositionIndexOptions options) const {
  std::vector<int64_t> new_ids(game_hashes_.size(), 0);
  for (const auto& [old_id, new_id] : ids)
    if (old_id >= first_id_ && old_id - first_id_ < int64_t(new_ids.size())) new_ids[size_t(old_id - first_id_)] = new_id;
  // The blocks are copied when every game with postings moved by one distance.
  bool shifted = true;
  std::optional<int64_t> delta;
  store::SegmentStats stats;
  stats.segment_id = segment_id;
  stats.key_bits = key_bits_;
  for (size_t i = 0; i < new_ids.size(); ++i) {
    if (game_postings_[i] == 0) continue;
    const int64_t old_id = first_id_ + int64_t(i), new_id = new_ids[i];
    if (new_id == 0) {
      shifted = false;
      continue;
    }
    if (!delta) delta = new_id - old_id;
    shifted &= new_id - old_id == *delta;
    ++stats.games;
    stats.first_game_id = stats.first_game_id ? stats.first_game_id : uint32_t(new_id);
    stats.last_game_id = uint32_t(new_id);
  }
  store::Statement blocks = other_->prepare(store::sql::kMergeSegmentBlocks);
  blocks.bind_int64(1, source_id_);
  store::Statement& insert = db.cached(sql::kInsertBlock);
  if (!shifted) {
    // Block by block: groups only shrink, so every block keeps its key range (a key that
    // filled blocks of its own still starts each of its blocks), and every group of two
    // still has its moves.
    store::PostingBlockEncoder encoder(key_bits_, options.compression_level, /*lean=*/true, extra_bits_);
    store::PostingBlockDecoder decoder;
    std::vector<store::Posting> postings, kept;
    std::vector<uint32_t> group_sizes, kept_sizes;
    bool any = false;
    uint64_t previous_group_key = 0;
    while (blocks.step()) {
      decoder.open(bytes_of(blocks.column_blob(0)));
      postings.clear();
      decoder.decode_all(postings, &group_sizes);
      kept.clear();
      kept_sizes.clear();
      size_t at = 0;
      for (uint32_t size : group_sizes) {
        uint32_t kept_of_group = 0;
        for (size_t end = at + size; at < end; ++at) {
          store::Posting p = postings[at];
          if (p.game_id < first_id_ || p.game_id - first_id_ >= int64_t(new_ids.size()))
            throw store::PositionIndexError("position index segment " + std::to_string(source_id_) +
                                            " of the merged database changed while it was read");
          const int64_t new_id = new_ids[size_t(p.game_id - first_id_)];
          if (new_id == 0) continue;
          p.game_id = uint32_t(new_id);
          kept.push_back(p);
          ++kept_of_group;
        }
        if (kept_of_group == 0) continue;
        const bool goes_on = kept_sizes.empty() && any && kept[kept.size() - kept_of_group].key == previous_group_key;
        if (!goes_on) ++stats.distinct_keys;
        kept_sizes.push_back(kept_of_group);
        any = true;
        previous_group_key = kept.back().key;
      }
      if (kept.empty()) continue;
      const std::span<const uint8_t> bytes =
          encoder.encode_groups(kept, kept_sizes, decoder.flags() & store::kBlockStoresAllExtraBits);
      insert.bind_int64(1, segment_id);
      insert.bind_int64(2, sql::to_sql_key(store::mask_key(kept.front().key, key_bits_)));
      insert.bind_int64(3, sql::to_sql_key(store::mask_key(kept.back().key, key_bits_)));
      insert.bind_int64(4, int64_t(kept.size()));
      insert.bind_blob_static(5, bytes);
      insert.run();
      ++stats.blocks;
      stats.block_bytes += bytes.size();
      stats.postings += kept.size();
    }
    store::insert_segment_row(db, stats);
    return stats;
  }
  std::vector<uint8_t> moved;
  size_t index = 0;
  while (blocks.step()) {
    if (index == blocks_.size() ||
        !store::rebase_posting_block(bytes_of(blocks.column_blob(0)), delta.value_or(0), moved))
      throw store::PositionIndexError("position index segment " + std::to_string(source_id_) +
                                      " of the merged database changed while it was read");
    const Block& block = blocks_[index++];
    insert.bind_int64(1, segment_id);
    insert.bind_int64(2, sql::to_sql_key(block.first_key));
    insert.bind_int64(3, sql::to_sql_key(block.last_key));
    insert.bind_int64(4, int64_t(block.postings));
    insert.bind_blob_static(5, moved);
    insert.run();
    ++stats.blocks;
    stats.block_bytes += moved.size();
  }
  if (index != blocks_.size())
    throw store::PositionIndexError("position index segment " + std::to_string(source_id_) +
                                    " of the merged database changed while it was read");
  stats.postings = postings_;
  stats.distinct_keys = distinct_keys_;
  store::insert_segment_row(db, stats);
  return stats;
}

}  // namespace pgnbase::indexer
