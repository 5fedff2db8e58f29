// Every SQL statement of the position index, in one place (docs/position_index.md
// describes the tables). Keys are stored biased: the unsigned key XOR 2^63 read as a
// signed int64, so SQLite's signed order is the keys' unsigned order.
#pragma once

#include <cstdint>
#include <string_view>

namespace pgnbase::store::position_index_sql {

inline int64_t to_sql_key(uint64_t key) { return static_cast<int64_t>(key ^ 0x8000000000000000ull); }
inline uint64_t from_sql_key(int64_t value) { return static_cast<uint64_t>(value) ^ 0x8000000000000000ull; }

inline constexpr std::string_view kCreateSchema = R"sql(
CREATE TABLE IF NOT EXISTS position_segments (
  segment_id    INTEGER PRIMARY KEY,
  format        INTEGER NOT NULL,
  key_bits      INTEGER NOT NULL,
  postings      INTEGER NOT NULL,
  distinct_keys INTEGER NOT NULL,
  games         INTEGER NOT NULL,
  first_game_id INTEGER NOT NULL,
  last_game_id  INTEGER NOT NULL,
  blocks        INTEGER NOT NULL,
  block_bytes   INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS position_blocks (
  block_id   INTEGER PRIMARY KEY,
  segment_id INTEGER NOT NULL,
  first_key  INTEGER NOT NULL,
  last_key   INTEGER NOT NULL,
  postings   INTEGER NOT NULL,
  data       BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS position_blocks_by_key ON position_blocks (segment_id, first_key, last_key);
)sql";

inline constexpr std::string_view kSegmentExists = "SELECT 1 FROM position_segments WHERE segment_id = ?1";

inline constexpr std::string_view kInsertSegment = R"sql(
INSERT INTO position_segments (segment_id, format, key_bits, postings, distinct_keys, games,
                               first_game_id, last_game_id, blocks, block_bytes)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
)sql";

inline constexpr std::string_view kInsertBlock = R"sql(
INSERT INTO position_blocks (segment_id, first_key, last_key, postings, data) VALUES (?1, ?2, ?3, ?4, ?5)
)sql";

inline constexpr std::string_view kDeleteBlocks = "DELETE FROM position_blocks WHERE segment_id = ?1";
inline constexpr std::string_view kDeleteSegment = "DELETE FROM position_segments WHERE segment_id = ?1";

inline constexpr std::string_view kSelectSegments = R"sql(
SELECT segment_id, key_bits, postings, distinct_keys, games, first_game_id, last_game_id, blocks, block_bytes
FROM position_segments ORDER BY segment_id
)sql";

inline constexpr std::string_view kSelectSegmentKeyBits =
    "SELECT segment_id, key_bits FROM position_segments ORDER BY segment_id";

// The blocks of one segment that may hold key ?2 (biased, masked to the segment's
// key_bits): those starting at the greatest first key <= ?2, usually one; several
// when one fingerprint's postings fill more than a block. last_key skips a block (without
// reading its data) when the key falls after its end. Blocks sharing a first key
// were written in order with non-decreasing last keys, so the index's own order
// (last_key, block_id) is block order: no sort step, which would copy every blob.
inline constexpr std::string_view kSelectBlocksForKey = R"sql(
SELECT data FROM position_blocks
WHERE segment_id = ?1 AND last_key >= ?2 AND first_key = (
  SELECT max(first_key) FROM position_blocks WHERE segment_id = ?1 AND first_key <= ?2)
ORDER BY last_key, block_id
)sql";

// A deferred transaction: a read snapshot for the statements of one lookup.
inline constexpr std::string_view kBeginRead = "BEGIN";
inline constexpr std::string_view kCommit = "COMMIT";
inline constexpr std::string_view kRollback = "ROLLBACK";

}  // namespace pgnbase::store::position_index_sql
