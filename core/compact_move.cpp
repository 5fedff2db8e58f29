#include "core/compact_move.h"

#include "core/bitboard.h"

namespace pgnbase {

namespace {

Bitboard target_squares(const Board& board, Square from, PieceType type, Color us) {
  const Bitboard own = board.pieces(us);
  switch (type) {
    case PAWN: {
      Bitboard targets = pawn_attacks(us, from);
      const int step = us == WHITE ? 8 : -8;
      for (int to = int(from) + step, n = 0; n < 2 && to >= 0 && to < 64; to += step, ++n)
        targets |= square_bb(Square(to));
      return targets;
    }
    case KING: {
      Bitboard targets = (king_attacks(from) & ~own) | (board.pieces(us, ROOK) & rank_bb(rank_of(from)));
      if (file_of(from) >= 2) targets |= square_bb(Square(from - 2));
      if (file_of(from) <= 5) targets |= square_bb(Square(from + 2));
      return targets;
    }
    default: return piece_attacks(type, from, board.pieces()) & ~own;
  }
}

// The rank of square s among the squares of set (s must be in it).
unsigned rank_in(Bitboard set, Square s) { return unsigned(popcount(set & (square_bb(s) - 1))); }

// The n-th square of set in square order, or SQ_NONE.
Square nth_square(Bitboard set, unsigned n) {
  for (; n > 0 && set; --n) set &= set - 1;
  return set ? lsb(set) : SQ_NONE;
}

void append_escaped(MoveCode code, std::string& out) {
  out += char(kCompactMoveEscape);
  out += char(code & 0xFF);
  out += char(code >> 8);
}

}  // namespace

void append_compact_move(const Board& board, MoveCode code, std::string& out) {
  const Color us = board.side_to_move();
  const Square from = Square(code & 63), to = Square((code >> 6) & 63);
  const Piece piece = board.piece_on(from);
  if (code == kNullMoveCode || (code >> 12) != 0 || piece == NO_PIECE || color_of(piece) != us)
    return append_escaped(code, out);
  const unsigned piece_rank = rank_in(board.pieces(us), from);
  const Bitboard targets = target_squares(board, from, type_of(piece), us);
  if (piece_rank > 15 || !(targets & square_bb(to))) return append_escaped(code, out);
  const unsigned target_rank = rank_in(targets, to);
  if (target_rank >= 15) return append_escaped(code, out);
  out += char(piece_rank << 4 | target_rank);
}

bool read_compact_move(const Board& board, std::string_view bytes, size_t& at, MoveCode& code) {
  if (at >= bytes.size()) return false;
  const unsigned byte = uint8_t(bytes[at++]);
  if ((byte & 15) == 15) {
    if (byte != kCompactMoveEscape || bytes.size() - at < 2) return false;
    code = MoveCode(uint8_t(bytes[at]) | uint8_t(bytes[at + 1]) << 8);
    at += 2;
    return true;
  }
  const Color us = board.side_to_move();
  const Square from = nth_square(board.pieces(us), byte >> 4);
  if (from == SQ_NONE) return false;
  const Square to = nth_square(target_squares(board, from, type_of(board.piece_on(from)), us), byte & 15);
  if (to == SQ_NONE) return false;
  code = MoveCode(from | to << 6);
  return true;
}

}  // namespace pgnbase
