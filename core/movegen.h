// Legal move generation and perft.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include "core/board.h"

namespace pgnbase {

// A fixed-capacity list: no position has more than 218 legal moves.
class MoveList {
 public:
  void push(Move m) { moves_[size_++] = m; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const Move* begin() const { return moves_; }
  const Move* end() const { return moves_ + size_; }
  Move operator[](size_t i) const { return moves_[i]; }
  bool contains(Move m) const;

 private:
  Move moves_[256];
  size_t size_ = 0;
};

// Fills list with every legal move of the side to move. Castling is encoded as
// king-takes-own-rook (Move kind CASTLING), in standard chess and Chess960 alike.
void generate_legal_moves(const Board& board, MoveList& list);

// Whether a move that the piece on its from-square could make by its movement rules
// (a "pseudo-legal" move: right piece, reachable square, not onto an own piece) is legal.
// Castling and en-passant moves are checked completely.
bool is_legal(const Board& board, Move pseudo_legal);

// Counts leaf nodes at the given depth (bulk counting at depth 1).
uint64_t perft(Board& board, int depth);

inline bool is_checkmate(const Board& board) {
  MoveList list;
  generate_legal_moves(board, list);
  return list.empty() && board.in_check();
}

}  // namespace pgnbase
