// The position_segments table: one row per segment of the position index, its schema,
// and deleting a segment. Part of the stored format (docs/position_index.md); the
// builder that writes segments is indexer/position_index.h.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "store/database.h"

namespace pgnbase::store {

// One segment's row of position_segments.
struct SegmentStats {
  int64_t segment_id = 0;
  int key_bits = 64;            // 64: exact keys; fewer: fingerprint bits (see PositionIndexOptions)
  uint64_t postings = 0;
  uint64_t distinct_keys = 0;   // groups: distinct group keys (posting_block_codec.h)
  uint64_t games = 0;           // distinct game ids (counted in add order)
  uint32_t first_game_id = 0;   // smallest and largest game id; both 0 when empty
  uint32_t last_game_id = 0;
  uint64_t blocks = 0;
  uint64_t block_bytes = 0;     // sum of the blocks' data sizes (SQLite's own overhead not included)

  double bytes_per_posting() const { return postings ? static_cast<double>(block_bytes) / postings : 0.0; }
};

// Creates position_segments and position_blocks when missing.
void create_position_index_schema(store::Database& db);

// Writes a segment's row of position_segments (format 2) from its stats, in the caller's
// transaction.
void insert_segment_row(store::Database& db, const SegmentStats& stats);

// Deletes a segment's blocks and row (for an abandoned import). Runs in the caller's
// transaction when one is open, else in its own. Returns false when there was none.
bool delete_position_segment(store::Database& db, int64_t segment_id);

// Every segment's stats, by segment id (for `pgn-query stats`).
std::vector<SegmentStats> read_position_segments(store::Database& db);
std::optional<SegmentStats> read_position_segment(store::Database& db, int64_t segment_id);

}  // namespace pgnbase::store
