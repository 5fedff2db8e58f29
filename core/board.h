// The position: bitboards plus a mailbox, make/unmake, Polyglot key kept incrementally.
#pragma once

#include <string>

#include "core/bitboard.h"
#include "core/types.h"

namespace pgnbase {

// What undo_move needs to restore; filled by do_move. Owned by the caller
// (usually a stack array in a search or a replay loop).
struct UndoInfo {
  Key key;
  Bitboard checkers;
  Piece captured;
  uint8_t castling;
  Square en_passant;
  uint16_t halfmove_clock;
};

// Limits of the move counters. The halfmove clock lives in 16 bits (UndoInfo keeps it
// too) and stops at 65,535 (the 75-move rule ends a game at 150); the fullmove number
// is read up to 2^31 - 1 and counted in 64 bits, so playing on never overflows.
inline constexpr int kMaxHalfmoveClock = 0xFFFF;
inline constexpr int64_t kMaxFullmoveNumber = 0x7FFFFFFF;

class Board {
 public:
  // The standard start position: a copy of one set up once (setting one up took 80 ns,
  // and the import starts three boards a game).
  Board();

  // Builders used by the FEN parser; they do not validate (parse_fen does).
  void clear();
  void put_piece(Piece p, Square s);
  void set_side_to_move(Color c) { side_ = c; }
  void set_en_passant(Square s) { en_passant_ = s; }
  // halfmove at most kMaxHalfmoveClock, fullmove at most kMaxFullmoveNumber (parse_fen checks).
  void set_counters(int halfmove, int64_t fullmove) { halfmove_ = uint16_t(halfmove); fullmove_ = fullmove; }
  // Grants the right to castle with the rook on rook_square (outside/inside the king).
  void add_castling_right(Color c, Square rook_square);
  void set_chess960(bool on) { chess960_ = on; }
  // Recomputes derived state (key, checkers) after the builders.
  void finish_setup();

  Piece piece_on(Square s) const { return board_[s]; }
  Bitboard pieces() const { return by_color_[WHITE] | by_color_[BLACK]; }
  Bitboard pieces(Color c) const { return by_color_[c]; }
  Bitboard pieces(PieceType pt) const { return by_type_[pt]; }
  Bitboard pieces(Color c, PieceType pt) const { return by_color_[c] & by_type_[pt]; }
  Square king_square(Color c) const { return lsb(pieces(c, KING)); }
  Color side_to_move() const { return side_; }
  int castling_rights() const { return castling_; }
  // The rook that a castling right refers to; SQ_NONE when the right is absent.
  Square castling_rook(CastlingRight cr) const { return castling_rook_[index_of(cr)]; }
  // The en-passant target square as FEN writes it (after every double step), or SQ_NONE.
  Square en_passant() const { return en_passant_; }
  int halfmove_clock() const { return halfmove_; }
  int64_t fullmove_number() const { return fullmove_; }
  bool chess960() const { return chess960_; }
  Key key() const { return key_; }
  Bitboard checkers() const { return checkers_; }
  bool in_check() const { return checkers_ != 0; }

  Bitboard attackers_to(Square s, Bitboard occupied) const;
  // The pieces of colour c that give check to the other king.
  Bitboard checkers_of(Color c) const;
  bool attacked_by(Color c, Square s, Bitboard occupied) const;
  // Pieces of either colour that alone block a slider's line to the king of colour c.
  Bitboard blockers_for_king(Color c) const;
  // Whether the side to move may capture en passant pseudo-legally (Polyglot's ep rule).
  bool en_passant_capturable_pseudo() const;

  void do_move(Move m, UndoInfo& undo);
  void undo_move(Move m, const UndoInfo& undo);
  void do_null_move(UndoInfo& undo);
  void undo_null_move(const UndoInfo& undo);

  // Recomputes the Polyglot key from scratch (tests compare it with key()).
  Key compute_key() const;

  // King destination and rook destination of a castling move (internal form: king takes rook).
  static Square castling_king_to(Color c, bool king_side) {
    return relative_square(c, king_side ? SQ_G1 : SQ_C1);
  }
  static Square castling_rook_to(Color c, bool king_side) {
    return relative_square(c, king_side ? SQ_F1 : SQ_D1);
  }
  // Squares that must be empty (besides king and rook) for the castling right.
  Bitboard castling_path(CastlingRight cr) const { return castling_path_[index_of(cr)]; }

 private:
  struct SetUpStandard {};
  explicit Board(SetUpStandard);
  static int index_of(CastlingRight cr) { return std::countr_zero(unsigned(cr)); }
  void remove_piece(Square s);
  void move_piece(Square from, Square to);
  void place(Piece p, Square s);
  Key en_passant_hash() const;

  Bitboard by_type_[PIECE_TYPE_NB] = {};
  Bitboard by_color_[COLOR_NB] = {};
  Piece board_[SQUARE_NB] = {};
  Key key_ = 0;
  Bitboard checkers_ = 0;
  Square castling_rook_[4] = {SQ_NONE, SQ_NONE, SQ_NONE, SQ_NONE};
  Bitboard castling_path_[4] = {};
  uint8_t castling_mask_[SQUARE_NB] = {};  // rights lost when a move touches the square
  Color side_ = WHITE;
  uint8_t castling_ = 0;
  Square en_passant_ = SQ_NONE;
  uint16_t halfmove_ = 0;  // saturates at kMaxHalfmoveClock
  int64_t fullmove_ = 1;   // 64 bits: no game is long enough to overflow it from kMaxFullmoveNumber
  bool chess960_ = false;
};

// Plays m, or the null move that a stored game may hold (a "--" in the PGN).
inline void play(Board& board, Move m, UndoInfo& undo) {
  if (m.is_null()) board.do_null_move(undo);
  else board.do_move(m, undo);
}

}  // namespace pgnbase
