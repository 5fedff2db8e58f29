// Counters kept in the meta table that only grow, so that nothing stored under an old
// value can be mistaken for something stored later (docs/schema.md, "Counters"):
//
// | key             | what                                                            |
// |-----------------|-----------------------------------------------------------------|
// | last_game_id    | the largest game id ever given: a removed game's id is not reused |
// | last_source_id  | the largest source or position-segment id ever given            |
// | content_version | bumped by every import, removal and replacement, in its transaction |
//
// An older database has none of these rows: each then starts from what its tables hold.
#pragma once

#include <cstdint>
#include <string_view>

#include "store/database.h"

namespace pgnbase::store {

inline constexpr std::string_view kLastGameId = "last_game_id";
inline constexpr std::string_view kLastSourceId = "last_source_id";
inline constexpr std::string_view kContentVersion = "content_version";

// The counter's value; 0 when it was never written (or meta is missing).
int64_t read_counter(Database& db, std::string_view key);
// Stores max(value, the stored value); the caller holds a transaction.
void raise_counter(Database& db, std::string_view key, int64_t value);

// The next game id: above every id the games table, the position index and the counter know.
int64_t next_game_id(Database& db);
// A new id for a source or a position segment (they share one space: segment ids are
// source ids, and a moved game's segment gets one too), recorded at once.
int64_t allocate_source_id(Database& db);
// Bumps content_version; the caller holds the transaction of the change.
void bump_content_version(Database& db);

}  // namespace pgnbase::store
