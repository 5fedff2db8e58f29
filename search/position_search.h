// Finding the games that reach a position: candidates from the position index, then
// confirmation by replaying each candidate game from its start position.
//
// The index answers by Polyglot key (and may store only a key's top bits), so its
// postings are candidates. A candidate game is confirmed at a ply only when the replayed
// board there has the same key and the same position as Polyglot keys define it
// (placement, side to move, castling rights, a capturable en-passant file), so neither
// a fingerprint match nor a 64-bit key collision ever returns a wrong game.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "core/board.h"
#include "core/move_code.h"
#include "store/position_posting.h"
#include "store/database.h"
#include "store/moves_codec.h"

namespace pgnbase::search {

// Whether two boards are the same position for the index: the two move counters and the
// Chess960 flag are ignored, an en-passant square counts only when a pawn could take.
bool same_position(const Board& a, const Board& b);

// A game that may reach the position, with the plies where its postings say so.
struct PositionCandidate {
  uint32_t game_id = 0;
  uint32_t first = 0;  // postings [first, first + count) of PositionCandidates::postings
  uint32_t count = 0;
};

struct PositionCandidates {
  std::vector<store::Posting> postings;  // by game id, then ply
  std::vector<PositionCandidate> games;    // by game id
};

// Reads the postings of position's key from the index (one read transaction).
void find_candidates(store::Database& db, const Board& position, PositionCandidates& out);

// Reads the current row of store::sql::kGameMovesById (moves, variant, start_fen, ...): the
// game's move codes and start position. False when the row is corrupt.
bool read_replay_row(const store::Statement& row, std::vector<MoveCode>& codes, Board& start);
// The same, visiting each position as the moves are read (store::decode_moves), which
// may stop early: codes then holds the moves up to there.
bool read_replay_row(const store::Statement& row, std::vector<MoveCode>& codes, Board& start,
                     const store::PositionVisit& visit);

// Replays a game's codes from start and appends to confirmed_plies each ply among
// candidate_plies (ascending) where the position occurs. Stops at the last candidate
// ply. Returns false when the codes do not replay (corrupt row); board is scratch.
bool confirm_plies(const Board& start, std::span<const MoveCode> codes, const Board& position,
                   std::span<const store::Posting> candidate_postings, std::vector<uint32_t>& confirmed_plies);

// Whether a game can still reach a position: once a pawn the position has on its home
// square has left it (pawns never go back), or a colour has fewer men than the position
// (captured men never return), no later position of the game is it.
class Reachability {
 public:
  explicit Reachability(const Board& position);
  // True when no position from `board` on can be the position.
  bool lost(const Board& board) const;

 private:
  std::array<Bitboard, 2> home_pawns_;
  std::array<int, 2> men_;
};

// read_replay_row then confirm_plies, in one replay when the postings carry no plies
// (lean segments: every position of the game is compared while the moves are read, up to
// the first from which the position is unreachable). read_all: whether codes holds every
// move of the game (false when the reading stopped early).
bool read_and_confirm(const store::Statement& row, const Board& position,
                      std::span<const store::Posting> candidate_postings, std::vector<MoveCode>& codes, Board& start,
                      std::vector<uint32_t>& confirmed_plies, bool& read_all);

}  // namespace pgnbase::search
