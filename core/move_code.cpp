#include "core/move_code.h"

namespace pgnbase {

namespace {

// Whether the piece on m's from-square may make m by its movement rules, ignoring
// whether its own king is left in check (is_legal checks that). Castling is left to
// is_legal, which checks it completely.
bool is_pseudo_legal(const Board& board, Move m) {
  const Color us = board.side_to_move();
  const Square from = m.from(), to = m.to();
  const Piece target = board.piece_on(to);
  if (m.kind() == MoveKind::CASTLING) return true;
  if (m.kind() == MoveKind::EN_PASSANT)
    return to == board.en_passant() && target == NO_PIECE && (pawn_attacks(us, from) & square_bb(to)) &&
           board.piece_on(Square(to - pawn_push(us))) == make_piece(~us, PAWN);
  if (target != NO_PIECE && (color_of(target) == us || type_of(target) == KING)) return false;
  const PieceType type = type_of(board.piece_on(from));
  if (type != PAWN) return m.kind() == MoveKind::NORMAL && (piece_attacks(type, from, board.pieces()) & square_bb(to));
  // A pawn reaching the last rank must promote, and only there may it.
  if ((relative_rank(us, rank_of(to)) == RANK_8) != (m.kind() == MoveKind::PROMOTION)) return false;
  if (pawn_attacks(us, from) & square_bb(to)) return target != NO_PIECE;
  const int push = pawn_push(us);
  if (target != NO_PIECE) return false;
  if (int(to) == int(from) + push) return true;
  return int(to) == int(from) + 2 * push && relative_rank(us, rank_of(from)) == RANK_2 &&
         board.piece_on(Square(int(from) + push)) == NO_PIECE;
}

}  // namespace

bool decode_stored_move(const Board& board, MoveCode code, Move& out) {
  if (code == kNullMoveCode) {
    out = Move::null();
    return !board.in_check();
  }
  const Color us = board.side_to_move();
  const Square from = Square(code & 63), to = Square((code >> 6) & 63);
  const unsigned promotion = (code >> 12) & 7;
  const Piece piece = board.piece_on(from);
  if (piece == NO_PIECE || color_of(piece) != us || from == to || (code & 0x8000)) return false;
  const PieceType type = type_of(piece);
  Move m = Move::make(from, to);
  if (promotion) {
    if (type != PAWN || promotion > 4) return false;
    m = Move::make(from, to, MoveKind::PROMOTION, PieceType(PAWN + promotion));
  } else if (type == KING && board.chess960() && board.piece_on(to) == make_piece(us, ROOK)) {
    m = Move::make(from, to, MoveKind::CASTLING);  // Chess960: king takes own rook
  } else if (type == KING && !board.chess960() && rank_of(from) == rank_of(to) &&
             (int(to) - int(from) == 2 || int(from) - int(to) == 2)) {
    const Square rook = board.castling_rook(castling_right(us, to > from));
    if (rook == SQ_NONE) return false;
    m = Move::make(from, rook, MoveKind::CASTLING);
  } else if (type == PAWN && file_of(from) != file_of(to) && board.piece_on(to) == NO_PIECE) {
    m = Move::make(from, to, MoveKind::EN_PASSANT);
  }
  if (!is_pseudo_legal(board, m) || !is_legal(board, m) || encode_move(board, m) != code) return false;
  out = m;
  return true;
}

bool decode_move(const Board& board, MoveCode code, Move& out) {
  if (code == kNullMoveCode) {
    out = Move::null();
    return true;
  }
  MoveList list;
  generate_legal_moves(board, list);
  for (Move m : list) {
    if (encode_move(board, m) == code) {
      out = m;
      return true;
    }
  }
  return false;
}

}  // namespace pgnbase
