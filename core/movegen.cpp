#include "core/movegen.h"

namespace pgnbase {

bool MoveList::contains(Move m) const {
  for (Move x : *this)
    if (x == m) return true;
  return false;
}

namespace {

void add_promotions(MoveList& list, Square from, Square to) {
  list.push(Move::make(from, to, MoveKind::PROMOTION, QUEEN));
  list.push(Move::make(from, to, MoveKind::PROMOTION, ROOK));
  list.push(Move::make(from, to, MoveKind::PROMOTION, BISHOP));
  list.push(Move::make(from, to, MoveKind::PROMOTION, KNIGHT));
}

// En passant can expose the king along the rank of the two pawns; test by occupancy.
bool en_passant_is_legal(const Board& board, Square from, Square to) {
  const Color us = board.side_to_move(), them = ~us;
  const Square ksq = board.king_square(us);
  const Square captured = Square(to - pawn_push(us));
  Bitboard occupied = (board.pieces() ^ square_bb(from) ^ square_bb(captured)) | square_bb(to);
  return !(rook_attacks(ksq, occupied) & (board.pieces(them, ROOK) | board.pieces(them, QUEEN))) &&
         !(bishop_attacks(ksq, occupied) & (board.pieces(them, BISHOP) | board.pieces(them, QUEEN)));
}

template <Color Us>
void generate_pawn_moves(const Board& board, MoveList& list, Bitboard target, Bitboard pinned) {
  constexpr Color Them = ~Us;
  constexpr int Up = Us == WHITE ? 8 : -8;
  constexpr int UpLeft = Us == WHITE ? 7 : -9;
  constexpr int UpRight = Us == WHITE ? 9 : -7;
  const Bitboard rank7 = rank_bb(relative_rank(Us, RANK_7));
  const Bitboard rank3 = rank_bb(relative_rank(Us, RANK_3));
  const Square ksq = board.king_square(Us);
  const Bitboard empty = ~board.pieces();
  const Bitboard enemies = board.pieces(Them);
  const Bitboard pawns = board.pieces(Us, PAWN);

  auto allowed = [&](Square from, Square to) {
    return !(pinned & square_bb(from)) || (line_bb(ksq, from) & square_bb(to));
  };
  for (Bitboard group : {pawns & ~rank7, pawns & rank7}) {
    const bool promoting = group & rank7;
    Bitboard single = shift<Up>(group) & empty;
    Bitboard pushes = single & target;
    Bitboard doubles = promoting ? 0 : shift<Up>(single & rank3) & empty & target;
    Bitboard left = shift<UpLeft>(group) & enemies & target;
    Bitboard right = shift<UpRight>(group) & enemies & target;
    auto emit = [&](Bitboard tos, int delta) {
      while (tos) {
        Square to = pop_lsb(tos), from = Square(to - delta);
        if (!allowed(from, to)) continue;
        if (promoting) add_promotions(list, from, to);
        else list.push(Move::make(from, to));
      }
    };
    emit(pushes, Up);
    emit(doubles, 2 * Up);
    emit(left, UpLeft);
    emit(right, UpRight);
  }
  const Square ep = board.en_passant();
  if (ep != SQ_NONE && rank_of(ep) == relative_rank(Us, RANK_6)) {
    // The capture is possible when it resolves the check: target holds the pawn or the ep square.
    const Square captured = Square(ep - Up);
    if (!(target & (square_bb(ep) | square_bb(captured)))) return;
    Bitboard attackers = pawn_attacks(Them, ep) & pawns;
    while (attackers) {
      Square from = pop_lsb(attackers);
      if (en_passant_is_legal(board, from, ep)) list.push(Move::make(from, ep, MoveKind::EN_PASSANT));
    }
  }
}

void generate_castling(const Board& board, MoveList& list) {
  const Color us = board.side_to_move();
  const Square ksq = board.king_square(us);
  for (bool king_side : {true, false}) {
    const CastlingRight cr = castling_right(us, king_side);
    if (!(board.castling_rights() & cr)) continue;
    const Square rook = board.castling_rook(cr);
    if (board.castling_path(cr) & board.pieces()) continue;
    const Square king_to = Board::castling_king_to(us, king_side);
    // Every square the king crosses, its destination included, must be safe.
    Bitboard crossed = between_bb(ksq, king_to) | square_bb(king_to);
    const Bitboard occupied_after = (board.pieces() ^ square_bb(ksq) ^ square_bb(rook)) |
                                    square_bb(king_to) |
                                    square_bb(Board::castling_rook_to(us, king_side));
    bool safe = true;
    while (crossed && safe) safe = !board.attacked_by(~us, pop_lsb(crossed), board.pieces() ^ square_bb(rook));
    // Chess960: the castling rook may have shielded the destination (rook b1, enemy on a1).
    if (safe) safe = !board.attacked_by(~us, king_to, occupied_after);
    if (safe) list.push(Move::make(ksq, rook, MoveKind::CASTLING));
  }
}

template <Color Us>
void generate_all(const Board& board, MoveList& list) {
  const Square ksq = board.king_square(Us);
  const Bitboard ours = board.pieces(Us);
  const Bitboard checkers = board.checkers();
  const Bitboard occupied = board.pieces();

  // King moves: the king must not stay on a line of a slider, so remove it from occupancy.
  Bitboard king_targets = king_attacks(ksq) & ~ours;
  while (king_targets) {
    Square to = pop_lsb(king_targets);
    if (!board.attacked_by(~Us, to, occupied ^ square_bb(ksq))) list.push(Move::make(ksq, to));
  }
  if (more_than_one(checkers)) return;

  Bitboard target = ~ours;
  if (checkers) target &= between_bb(ksq, lsb(checkers)) | checkers;
  const Bitboard pinned = board.blockers_for_king(Us) & ours;

  generate_pawn_moves<Us>(board, list, target, pinned);
  for (PieceType pt : {KNIGHT, BISHOP, ROOK, QUEEN}) {
    Bitboard pieces = board.pieces(Us, pt);
    if (pt == KNIGHT) pieces &= ~pinned;  // a pinned knight never moves
    while (pieces) {
      Square from = pop_lsb(pieces);
      Bitboard tos = piece_attacks(pt, from, occupied) & target;
      if (pinned & square_bb(from)) tos &= line_bb(ksq, from);
      while (tos) list.push(Move::make(from, pop_lsb(tos)));
    }
  }
  if (!checkers) generate_castling(board, list);
}

}  // namespace

void generate_legal_moves(const Board& board, MoveList& list) {
  if (board.side_to_move() == WHITE) generate_all<WHITE>(board, list);
  else generate_all<BLACK>(board, list);
}

bool is_legal(const Board& board, Move m) {
  const Color us = board.side_to_move();
  const Square from = m.from(), to = m.to(), ksq = board.king_square(us);
  if (m.kind() == MoveKind::CASTLING) {
    MoveList list;
    generate_castling(board, list);
    return !board.in_check() && list.contains(m);
  }
  if (m.kind() == MoveKind::EN_PASSANT) {
    const Bitboard checkers = board.checkers();
    if (more_than_one(checkers)) return false;
    if (checkers && !(checkers & square_bb(Square(to - pawn_push(us)))) &&
        !(between_bb(ksq, lsb(checkers)) & square_bb(to)))
      return false;
    return en_passant_is_legal(board, from, to);
  }
  if (from == ksq) return !board.attacked_by(~us, to, board.pieces() ^ square_bb(ksq));
  const Bitboard checkers = board.checkers();
  if (checkers) {
    if (more_than_one(checkers)) return false;
    if (!((between_bb(ksq, lsb(checkers)) | checkers) & square_bb(to))) return false;
  }
  // A piece pinned to the king may only move along the pin line. Only one on a line from
  // the king that holds an enemy slider moving along such lines can be pinned: most
  // moves skip the search for pins (SAN reading asks this once a move).
  const Bitboard line = line_bb(ksq, from);
  if (!line) return true;
  const PieceType slider = rank_of(ksq) == rank_of(from) || file_of(ksq) == file_of(from) ? ROOK : BISHOP;
  if (!(line & (board.pieces(~us, slider) | board.pieces(~us, QUEEN)))) return true;
  if (board.blockers_for_king(us) & square_bb(from)) return line & square_bb(to);
  return true;
}

uint64_t perft(Board& board, int depth) {
  MoveList list;
  generate_legal_moves(board, list);
  if (depth <= 1) return depth == 1 ? list.size() : 1;
  uint64_t nodes = 0;
  UndoInfo undo;
  for (Move m : list) {
    board.do_move(m, undo);
    nodes += perft(board, depth - 1);
    board.undo_move(m, undo);
  }
  return nodes;
}

}  // namespace pgnbase
