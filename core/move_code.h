// MoveCode: the 16-bit move stored in the database (DESIGN.md):
// | bits 0-5  | from square (a1 = 0 ... h8 = 63)          |
// | bits 6-11 | to square                                 |
// | bits 12-14| promotion: 0 none, 1 N, 2 B, 3 R, 4 Q      |
// | bit 15    | zero                                      |
// Castling is the king's move (e1g1) in standard chess. In Chess960 games the king
// may already stand on g1 or move there normally, so castling is stored as
// king-takes-own-rook (e.g. b1a1), the UCI_Chess960 convention. 0 is the null move.
#pragma once

#include <cstdint>

#include "core/board.h"
#include "core/movegen.h"

namespace pgnbase {

using MoveCode = uint16_t;

constexpr MoveCode kNullMoveCode = 0;

// Encodes a legal move of board (board is needed only for the castling convention).
inline MoveCode encode_move(const Board& board, Move m) {
  if (m.is_null()) return kNullMoveCode;
  Square to = m.to();
  if (m.kind() == MoveKind::CASTLING && !board.chess960())
    to = Board::castling_king_to(board.side_to_move(), m.to() > m.from());
  unsigned promotion = m.kind() == MoveKind::PROMOTION ? unsigned(m.promotion() - PAWN) : 0;
  return MoveCode(m.from() | (to << 6) | (promotion << 12));
}

// Finds the legal move of board with this code by generating every legal move; false
// when the code names none. The reference that decode_stored_move is tested against.
bool decode_move(const Board& board, MoveCode code, Move& out);

// Turns a code read from a database (untrusted: the file may come from anyone) into
// the move it names on board, without generating every legal move: the code gives the
// move's kind (a king's two-square step in standard chess or king-takes-own-rook in
// Chess960 is castling, a pawn's diagonal step to the en-passant square en passant),
// then the move is checked against the rules of its piece and for the king's safety.
// True only for a legal move with this code, or for the null move when not in check
// (the importer refuses `--` in check); false for anything else (corrupt data), such
// as a capture of a king or a promotion onto a piece of one's own.
bool decode_stored_move(const Board& board, MoveCode code, Move& out);

}  // namespace pgnbase
