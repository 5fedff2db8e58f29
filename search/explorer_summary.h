// Explorer summaries: the unfiltered explorer answer of every common position, computed
// once after an import, so that exploring the start position of a million games reads one
// row instead of a million postings (lichess precomputes its explorer the same way).
//
// A stored row is ignored once stale (store/explorer_summaries.h) until rebuilt, and the
// explorer answers from the postings as for any other position.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "store/database.h"
#include "search/explorer.h"

namespace pgnbase::search {

inline constexpr uint64_t kSummaryMinGames = 5000;
inline constexpr size_t kSummaryTopGames = 10;

struct SummaryBuildStats {
  uint64_t positions = 0;  // rows written
  uint64_t bytes = 0;      // their data
  uint64_t updated = 0;    // of the rows, those updated from a row of before (since)
};

// What the stored answers of a database were computed from, taken before an import, so
// that after it they can be updated with the new games' postings alone.
struct SummaryBase {
  int64_t stamp = 0;             // the stamp of rows valid then (store::summary_stamp)
  int64_t first_new_segment = 0;  // above every segment id then
  int64_t segments = 0, postings = 0;  // of the segments then
};
SummaryBase summary_base(store::Database& db);

// Walks the opening tree from the start position through moves played at least
// min_games times and stores the explorer's unfiltered answer of each position reached
// that often (store/explorer_summaries.h), with the ECO table's positions beside them.
// Replaces every summary, inside the caller's transaction. Positions are explored with
// the game facets; a database without them gets no summaries.
//
// With since (taken before imports): when the segments of then are all still there,
// unchanged (games were only added), a position that had a valid row then gets that row
// plus the answer from the new segments alone (counts add up; the top games are the best
// of both lists), the same answer as counting it whole; other positions are counted whole.
//
// threads: the positions of a level of the walk are explored on up to that many read
// connections of their own (a file whose position index db sees committed; else on db).
SummaryBuildStats build_explorer_summaries(store::Database& db, uint64_t min_games = kSummaryMinGames,
                                           const SummaryBase* since = nullptr, unsigned threads = 1);

// The stored unfiltered answer for position (moves, counts, ratings, top game ids in
// top_games[i].id only), or nullopt when there is none or it is stale.
std::optional<ExplorerResult> read_explorer_summary(store::Database& db, const Board& position);

}  // namespace pgnbase::search
