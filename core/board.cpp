#include "core/board.h"

#include <algorithm>

#include "core/zobrist.h"

namespace pgnbase {

Board::Board() {
  static const Board standard{SetUpStandard{}};
  *this = standard;
}

Board::Board(SetUpStandard) {
  constexpr PieceType back_rank[8] = {ROOK, KNIGHT, BISHOP, QUEEN, KING, BISHOP, KNIGHT, ROOK};
  clear();
  for (int f = 0; f < 8; ++f) {
    put_piece(make_piece(WHITE, back_rank[f]), make_square(File(f), RANK_1));
    put_piece(make_piece(WHITE, PAWN), make_square(File(f), RANK_2));
    put_piece(make_piece(BLACK, PAWN), make_square(File(f), RANK_7));
    put_piece(make_piece(BLACK, back_rank[f]), make_square(File(f), RANK_8));
  }
  add_castling_right(WHITE, SQ_H1);
  add_castling_right(WHITE, SQ_A1);
  add_castling_right(BLACK, SQ_H8);
  add_castling_right(BLACK, SQ_A8);
  finish_setup();
}

void Board::clear() {
  std::fill(std::begin(by_type_), std::end(by_type_), 0);
  std::fill(std::begin(by_color_), std::end(by_color_), 0);
  std::fill(std::begin(board_), std::end(board_), NO_PIECE);
  std::fill(std::begin(castling_rook_), std::end(castling_rook_), SQ_NONE);
  std::fill(std::begin(castling_path_), std::end(castling_path_), 0);
  std::fill(std::begin(castling_mask_), std::end(castling_mask_), 0);
  key_ = 0;
  checkers_ = 0;
  side_ = WHITE;
  castling_ = 0;
  en_passant_ = SQ_NONE;
  halfmove_ = 0;
  fullmove_ = 1;
  chess960_ = false;
}

void Board::place(Piece p, Square s) {
  board_[s] = p;
  by_type_[type_of(p)] |= square_bb(s);
  by_color_[color_of(p)] |= square_bb(s);
}

void Board::put_piece(Piece p, Square s) { place(p, s); }

void Board::remove_piece(Square s) {
  Piece p = board_[s];
  by_type_[type_of(p)] ^= square_bb(s);
  by_color_[color_of(p)] ^= square_bb(s);
  board_[s] = NO_PIECE;
}

void Board::move_piece(Square from, Square to) {
  Piece p = board_[from];
  Bitboard both = square_bb(from) | square_bb(to);
  by_type_[type_of(p)] ^= both;
  by_color_[color_of(p)] ^= both;
  board_[from] = NO_PIECE;
  board_[to] = p;
}

void Board::add_castling_right(Color c, Square rook_square) {
  Square king = king_square(c);
  bool king_side = rook_square > king;
  CastlingRight cr = castling_right(c, king_side);
  int i = index_of(cr);
  castling_ |= cr;
  castling_rook_[i] = rook_square;
  castling_mask_[king] |= cr;
  castling_mask_[rook_square] |= cr;
  Square king_to = castling_king_to(c, king_side), rook_to = castling_rook_to(c, king_side);
  castling_path_[i] = (between_bb(rook_square, rook_to) | between_bb(king, king_to) |
                       square_bb(rook_to) | square_bb(king_to)) &
                      ~(square_bb(king) | square_bb(rook_square));
}

void Board::finish_setup() {
  key_ = compute_key();
  checkers_ = attackers_to(king_square(side_), pieces()) & pieces(~side_);
}

Bitboard Board::attackers_to(Square s, Bitboard occupied) const {
  return (pawn_attacks(BLACK, s) & pieces(WHITE, PAWN)) |
         (pawn_attacks(WHITE, s) & pieces(BLACK, PAWN)) |
         (knight_attacks(s) & by_type_[KNIGHT]) |
         (rook_attacks(s, occupied) & (by_type_[ROOK] | by_type_[QUEEN])) |
         (bishop_attacks(s, occupied) & (by_type_[BISHOP] | by_type_[QUEEN])) |
         (king_attacks(s) & by_type_[KING]);
}

// After every move: a king is never a checker, and a slider is looked for only when one
// of c's stands on a line through the king (the lines' attacks are most of the cost).
Bitboard Board::checkers_of(Color c) const {
  const Square ksq = king_square(~c);
  const auto& lines = attack_tables::square_lines[ksq];
  const Bitboard queens = pieces(c, QUEEN);
  const Bitboard rooks = pieces(c, ROOK) | queens, bishops = pieces(c, BISHOP) | queens;
  Bitboard found = (pawn_attacks(~c, ksq) & pieces(c, PAWN)) | (knight_attacks(ksq) & pieces(c, KNIGHT));
  if (rooks & (lines.file | rank_bb(rank_of(ksq)))) found |= rook_attacks(ksq, pieces()) & rooks;
  if (bishops & (lines.diagonal | lines.anti_diagonal)) found |= bishop_attacks(ksq, pieces()) & bishops;
  return found;
}

bool Board::attacked_by(Color c, Square s, Bitboard occupied) const {
  return (pawn_attacks(~c, s) & pieces(c, PAWN)) || (knight_attacks(s) & pieces(c, KNIGHT)) ||
         (king_attacks(s) & pieces(c, KING)) ||
         (rook_attacks(s, occupied) & (pieces(c, ROOK) | pieces(c, QUEEN))) ||
         (bishop_attacks(s, occupied) & (pieces(c, BISHOP) | pieces(c, QUEEN)));
}

Bitboard Board::blockers_for_king(Color c) const {
  Square ksq = king_square(c);
  Bitboard snipers = ((rook_attacks(ksq, 0) & (pieces(ROOK) | pieces(QUEEN))) |
                      (bishop_attacks(ksq, 0) & (pieces(BISHOP) | pieces(QUEEN)))) &
                     pieces(~c);
  Bitboard occupancy = pieces() ^ snipers;
  Bitboard blockers = 0;
  while (snipers) {
    Bitboard b = between_bb(ksq, pop_lsb(snipers)) & occupancy;
    if (b && !more_than_one(b)) blockers |= b;
  }
  return blockers;
}

bool Board::en_passant_capturable_pseudo() const {
  if (en_passant_ == SQ_NONE) return false;
  return pawn_attacks(~side_, en_passant_) & pieces(side_, PAWN);
}

Key Board::en_passant_hash() const {
  return en_passant_capturable_pseudo() ? zobrist::en_passant_key(file_of(en_passant_)) : 0;
}

Key Board::compute_key() const {
  Key k = 0;
  for (Bitboard b = pieces(); b;) {
    Square s = pop_lsb(b);
    k ^= zobrist::piece_key(board_[s], s);
  }
  k ^= zobrist::castling_key(castling_);
  k ^= en_passant_hash();
  if (side_ == WHITE) k ^= zobrist::white_to_move_key();
  return k;
}

void Board::do_move(Move m, UndoInfo& undo) {
  undo = {key_, checkers_, NO_PIECE, castling_, en_passant_, halfmove_};
  const Color us = side_, them = ~us;
  const Square from = m.from(), to = m.to();
  const Piece moving = board_[from];
  Key k = key_ ^ en_passant_hash() ^ zobrist::castling_key(castling_);
  en_passant_ = SQ_NONE;
  if (halfmove_ < kMaxHalfmoveClock) ++halfmove_;

  if (m.kind() == MoveKind::CASTLING) {
    const bool king_side = to > from;
    const Square king_to = castling_king_to(us, king_side), rook_to = castling_rook_to(us, king_side);
    const Piece rook = board_[to];
    remove_piece(from);
    remove_piece(to);
    place(moving, king_to);
    place(rook, rook_to);
    k ^= zobrist::piece_key(moving, from) ^ zobrist::piece_key(moving, king_to) ^
         zobrist::piece_key(rook, to) ^ zobrist::piece_key(rook, rook_to);
  } else {
    Square captured_square = to;
    if (m.kind() == MoveKind::EN_PASSANT) captured_square = Square(to - pawn_push(us));
    const Piece captured = board_[captured_square];
    if (captured != NO_PIECE) {
      remove_piece(captured_square);
      k ^= zobrist::piece_key(captured, captured_square);
      undo.captured = captured;
      halfmove_ = 0;
    }
    move_piece(from, to);
    k ^= zobrist::piece_key(moving, from) ^ zobrist::piece_key(moving, to);
    if (type_of(moving) == PAWN) {
      halfmove_ = 0;
      if ((int(to) ^ int(from)) == 16) en_passant_ = Square((from + to) / 2);
      if (m.kind() == MoveKind::PROMOTION) {
        const Piece promoted = make_piece(us, m.promotion());
        remove_piece(to);
        place(promoted, to);
        k ^= zobrist::piece_key(moving, to) ^ zobrist::piece_key(promoted, to);
      }
    }
  }
  castling_ &= ~(castling_mask_[from] | castling_mask_[to]);
  if (us == BLACK) ++fullmove_;
  side_ = them;
  k ^= zobrist::castling_key(castling_) ^ zobrist::white_to_move_key() ^ en_passant_hash();
  key_ = k;
  checkers_ = checkers_of(us);
}

void Board::undo_move(Move m, const UndoInfo& undo) {
  side_ = ~side_;
  const Color us = side_;
  const Square from = m.from(), to = m.to();
  if (m.kind() == MoveKind::CASTLING) {
    const bool king_side = to > from;
    const Square king_to = castling_king_to(us, king_side), rook_to = castling_rook_to(us, king_side);
    remove_piece(king_to);
    remove_piece(rook_to);
    place(make_piece(us, KING), from);
    place(make_piece(us, ROOK), to);
  } else {
    if (m.kind() == MoveKind::PROMOTION) {
      remove_piece(to);
      place(make_piece(us, PAWN), to);
    }
    move_piece(to, from);
    if (undo.captured != NO_PIECE) {
      Square captured_square = m.kind() == MoveKind::EN_PASSANT ? Square(to - pawn_push(us)) : to;
      place(undo.captured, captured_square);
    }
  }
  if (us == BLACK) --fullmove_;
  key_ = undo.key;
  checkers_ = undo.checkers;
  castling_ = undo.castling;
  en_passant_ = undo.en_passant;
  halfmove_ = undo.halfmove_clock;
}

void Board::do_null_move(UndoInfo& undo) {
  undo = {key_, checkers_, NO_PIECE, castling_, en_passant_, halfmove_};
  Key k = key_ ^ en_passant_hash();
  en_passant_ = SQ_NONE;
  if (halfmove_ < kMaxHalfmoveClock) ++halfmove_;
  if (side_ == BLACK) ++fullmove_;
  side_ = ~side_;
  key_ = k ^ zobrist::white_to_move_key();
  checkers_ = checkers_of(~side_);
}

void Board::undo_null_move(const UndoInfo& undo) {
  side_ = ~side_;
  if (side_ == BLACK) --fullmove_;
  key_ = undo.key;
  checkers_ = undo.checkers;
  castling_ = undo.castling;
  en_passant_ = undo.en_passant;
  halfmove_ = undo.halfmove_clock;
}

}  // namespace pgnbase
