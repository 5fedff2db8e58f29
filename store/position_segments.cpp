#include "store/position_segments.h"

#include "store/position_index_sql.h"
#include "store/posting_block_codec.h"

namespace pgnbase::store {

namespace sql = position_index_sql;

namespace {

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

void create_position_index_schema(store::Database& db) { db.exec(sql::kCreateSchema); }

void insert_segment_row(store::Database& db, const SegmentStats& stats) {
  store::Statement& insert = db.cached(sql::kInsertSegment);
  insert.bind_int64(1, stats.segment_id);
  insert.bind_int64(2, kPostingBlockFormat);
  insert.bind_int64(3, stats.key_bits);
  insert.bind_int64(4, static_cast<int64_t>(stats.postings));
  insert.bind_int64(5, static_cast<int64_t>(stats.distinct_keys));
  insert.bind_int64(6, static_cast<int64_t>(stats.games));
  insert.bind_int64(7, stats.first_game_id);
  insert.bind_int64(8, stats.last_game_id);
  insert.bind_int64(9, static_cast<int64_t>(stats.blocks));
  insert.bind_int64(10, static_cast<int64_t>(stats.block_bytes));
  insert.run();
}

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

}  // namespace pgnbase::store
