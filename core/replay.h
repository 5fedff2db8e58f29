// Replays a game's main line: each token resolved against the legal moves, yielding
// per ply the MoveCode and the Polyglot key, or the first failing move and why.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/board.h"
#include "core/move_code.h"
#include "core/notation.h"
#include "core/san.h"

namespace pgnbase {

struct ReplayOutput {
  std::vector<MoveCode> codes;  // one per ply
  std::vector<Key> keys;        // keys[0] = start position, keys[i] after ply i
  std::vector<Move> moves;      // engine moves, parallel to codes
  std::string compact;          // the moves as compact bytes (core/compact_move.h), the stored form
  std::vector<uint8_t> taken;   // per ply, the PieceType the move took (NO_PIECE_TYPE: none)
  void clear() {
    codes.clear();
    keys.clear();
    moves.clear();
    compact.clear();
    taken.clear();
  }
};

struct ReplayFailure {
  int ply = 0;               // 1-based ply of the failing move
  SanError error = SanError::None;
  std::string_view token;    // the token as written
};

// Plays tokens from `start` (left unchanged). letters == nullptr means "detect":
// the candidate languages of the game's tokens are tried in a fixed order (English
// first) and the first that replays every move wins; on failure the reported
// failure is English's when English is a candidate, else the first candidate's.
// Returns the language used (nullptr on failure; failure then holds the reason).
const PieceLetters* replay_moves(const Board& start, std::span<const std::string_view> tokens,
                                 const PieceLetters* letters, ReplayOutput& out, ReplayFailure& failure);

}  // namespace pgnbase
