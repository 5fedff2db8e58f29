// --moves: a move sequence from the standard start position, typed as people write it
// ("1.e4 e5 2.Nf3 Nc6", "e4 e5 Nf3 Nc6", "1. e4 e5 2. Sf3", figurines, UCI), and the
// games that start with exactly that sequence (--from-start-only).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/board.h"
#include "core/move_code.h"
#include "core/parsed.h"
#include "store/database.h"

namespace pgnbase::search {

struct MoveSequence {
  std::vector<Board> positions;  // positions[0] the start position, positions[i] after ply i
  std::vector<Move> moves;       // moves[i] played from positions[i]
  const Board& final_position() const { return positions.back(); }
};

// Reads the SAN of `text` (any notation core/san.h reads, the language detected as for a
// game; move numbers such as "1." or "3..." optional) from the standard start position.
// The error names the first bad move.
Parsed<MoveSequence> parse_move_sequence(std::string_view text);

// The ids (ascending) of the games that start from the standard position with exactly
// these moves, in this order. Found from the index: a game qualifies when it reaches
// each position of the sequence once, playing the sequence's move from there; games whose
// postings cannot tell (a position repeated, or a posting without its move in a lean
// segment) are replayed. Reads the postings of positions[n-1] down to positions[0] (the
// deepest, rarest first; each shallower level only checks the games still in), so any
// sequence costs one pass over the postings of the start position.
std::vector<uint32_t> games_starting_with(store::Database& db, const MoveSequence& sequence);

}  // namespace pgnbase::search
