// Judging a Pattern (pattern.h) ply by ply: the material part from the material alone,
// the squares from a board, and the streak and placement rules over a game's plies.
#pragma once

#include <cstdint>

#include "core/board.h"
#include "store/material_runs.h"
#include "search/pattern.h"

namespace pgnbase::search {

// Whether material satisfies the pattern's --material and --imbalance, and has at least
// the men its --pieces and exactly the pawn counts its --pawns need. Together with
// squares_match, it is the whole board pattern.
bool material_matches(const Pattern& pattern, const store::Material& material);

// Whether the board has the --pieces men and empty squares and the --pawns pawns.
bool squares_match(const Pattern& pattern, const Board& board);

// Whether no later position of this game can satisfy squares_match: a pawn the pattern
// needs on its home square has left it (pawns never go back).
bool squares_impossible(const Pattern& pattern, const Board& board);

// Plies [first, last] outside which squares_match cannot hold in a game, from when its
// home pawns left (pawns never go back): a pawn required on its home square bounds the
// last ply, a pawn required elsewhere (or a home square --pawns leaves empty) the first.
struct PlyWindow {
  uint64_t first = 0, last = UINT32_MAX;
  bool empty() const { return first > last; }
};
PlyWindow squares_window(const Pattern& pattern, const store::MaterialRuns& game);

// Finds a game's match ply from the plies where the board pattern holds, fed in order.
// Applies --ply-range, --for, --side-to-move and --last (pattern.h).
class StreakFinder {
 public:
  StreakFinder(const Pattern& pattern, Color side_at_ply0, uint32_t final_ply);

  // Plies [first, first + count) (following the previous call) where the board
  // pattern holds or not. Returns true once the match ply is known.
  bool feed(uint32_t first, uint32_t count, bool holds);
  // The match ply after feed returned true (for --last, after the final ply was fed).
  uint32_t match_ply() const { return match_; }
  bool found() const { return found_; }

 private:
  bool try_stretch();

  const Pattern& pattern_;
  Color side_at_ply0_;
  uint32_t final_ply_;
  bool in_stretch_ = false, found_ = false;
  uint32_t stretch_first_ = 0, stretch_last_ = 0;  // inclusive, while in_stretch_
  uint32_t match_ = 0;
};

}  // namespace pgnbase::search
