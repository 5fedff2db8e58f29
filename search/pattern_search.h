// Finding the games that match a Pattern (pattern.h) and the ply where each first does.
//
// Every game's material runs (material_blocks, store/material_blocks.h) are scanned
// on several threads. A pattern of material and imbalance only is answered from them
// exactly, reading no moves. A pattern with squares (--pieces, --pawns) replays only the
// games whose material allows it somewhere, only as far as the last ply where it does,
// and stops early when a pawn it needs has left its home square.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "store/database.h"
#include "search/pattern.h"

namespace pgnbase::search {

struct PatternHit {
  uint32_t game_id = 0;
  uint32_t ply = 0;  // the game's match ply
};

struct PatternSearchStats {
  uint64_t games = 0;     // games scanned
  uint64_t replayed = 0;  // games whose moves were replayed (patterns with squares)
  uint64_t corrupt = 0;   // games whose stored runs or moves did not decode
};

// Every matching game in id order. only (sorted ids, may be null) restricts the search
// to those games. threads: connections scanning id ranges in parallel (0: one per core,
// at most 8; one for an in-memory database). Runs inside the caller's read snapshot
// only when threads is 1; other threads open their own read-only connections, which is
// safe because games are only ever appended.
std::vector<PatternHit> find_pattern_games(store::Database& db, const Pattern& pattern,
                                           const std::vector<uint32_t>* only, unsigned threads,
                                           PatternSearchStats* stats = nullptr);

// The hit of game_id in hits (sorted by id), or nullptr.
const PatternHit* find_hit(std::span<const PatternHit> hits, uint32_t game_id);

}  // namespace pgnbase::search
