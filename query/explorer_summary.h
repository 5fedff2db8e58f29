// Explorer summaries: the unfiltered explorer answer of every common position, computed
// once after an import, so that exploring the start position of a million games reads one
// row instead of a million postings (lichess precomputes its explorer the same way).
//
// Table explorer_summaries (schema 3, docs/schema.md): one row per position reached by at
// least min_games games, found by walking the opening tree from the start position
// through moves played that often. A row is valid while the database's content version
// and posting count are what they were when it was written (`stamp`); after any import,
// removal or replacement (even one interrupted before the rebuild) it is ignored until
// rebuilt, and the explorer answers from the postings as for any other position.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "store/database.h"
#include "query/explorer.h"

namespace pgnbase::query {

inline constexpr uint64_t kSummaryMinGames = 5000;
inline constexpr size_t kSummaryTopGames = 10;

struct SummaryBuildStats {
  uint64_t positions = 0;  // rows written
  uint64_t bytes = 0;      // their data
};

// The ECO table's positions (store/eco_table.h) are stored beside them, in table
// eco_positions, so that naming a position costs a look-up, not the replay of the whole
// table (milliseconds, most of exploring a rare position).
//
// Replaces every summary, inside the caller's transaction. Positions are explored with
// the game facets; a database without them gets no summaries.
SummaryBuildStats build_explorer_summaries(store::Database& db, uint64_t min_games = kSummaryMinGames);

// The opening of the deepest position of keys (the way to a position, the position last)
// that the ECO table names: from eco_positions when the database has it, else from the
// builtin table.
OpeningName name_opening(store::Database& db, std::span<const uint64_t> keys);

// The stored unfiltered answer for position (moves, counts, ratings, top game ids in
// top_games[i].id only), or nullopt when there is none or it is stale.
std::optional<ExplorerResult> read_explorer_summary(store::Database& db, const Board& position);

}  // namespace pgnbase::query
