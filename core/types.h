// Basic chess types shared by every part of pgnbase: squares, pieces, moves.
#pragma once

#include <cstdint>

namespace pgnbase {

using Bitboard = uint64_t;
using Key = uint64_t;

enum Color : uint8_t { WHITE, BLACK, COLOR_NB = 2 };

enum PieceType : uint8_t {
  NO_PIECE_TYPE, PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, PIECE_TYPE_NB = 7
};

// Piece = color * 8 + type, so W_PAWN = 1 ... W_KING = 6, B_PAWN = 9 ... B_KING = 14.
enum Piece : uint8_t {
  NO_PIECE,
  W_PAWN = 1, W_KNIGHT, W_BISHOP, W_ROOK, W_QUEEN, W_KING,
  B_PAWN = 9, B_KNIGHT, B_BISHOP, B_ROOK, B_QUEEN, B_KING,
  PIECE_NB = 16
};

// Squares a1 = 0 ... h8 = 63, as in DESIGN.md's move code.
enum Square : uint8_t {
  SQ_A1, SQ_B1, SQ_C1, SQ_D1, SQ_E1, SQ_F1, SQ_G1, SQ_H1,
  SQ_A2, SQ_B2, SQ_C2, SQ_D2, SQ_E2, SQ_F2, SQ_G2, SQ_H2,
  SQ_A3, SQ_B3, SQ_C3, SQ_D3, SQ_E3, SQ_F3, SQ_G3, SQ_H3,
  SQ_A4, SQ_B4, SQ_C4, SQ_D4, SQ_E4, SQ_F4, SQ_G4, SQ_H4,
  SQ_A5, SQ_B5, SQ_C5, SQ_D5, SQ_E5, SQ_F5, SQ_G5, SQ_H5,
  SQ_A6, SQ_B6, SQ_C6, SQ_D6, SQ_E6, SQ_F6, SQ_G6, SQ_H6,
  SQ_A7, SQ_B7, SQ_C7, SQ_D7, SQ_E7, SQ_F7, SQ_G7, SQ_H7,
  SQ_A8, SQ_B8, SQ_C8, SQ_D8, SQ_E8, SQ_F8, SQ_G8, SQ_H8,
  SQ_NONE = 64, SQUARE_NB = 64
};

enum File : uint8_t { FILE_A, FILE_B, FILE_C, FILE_D, FILE_E, FILE_F, FILE_G, FILE_H };
enum Rank : uint8_t { RANK_1, RANK_2, RANK_3, RANK_4, RANK_5, RANK_6, RANK_7, RANK_8 };

// Castling rights as four bits; which rook each right refers to lives in the Board,
// so the same bits serve standard chess and Chess960.
enum CastlingRight : uint8_t {
  NO_CASTLING = 0,
  WHITE_OO = 1, WHITE_OOO = 2, BLACK_OO = 4, BLACK_OOO = 8,
  ALL_CASTLING = 15
};

// A move inside the engine, 16 bits:
// | bits 0-5 | from square                                         |
// | bits 6-11| to square (castling: the square of the castling rook) |
// | bits12-13| promotion piece - KNIGHT (0 N, 1 B, 2 R, 3 Q)          |
// | bits14-15| kind: 0 normal, 1 promotion, 2 en passant, 3 castling  |
// Castling as "king takes own rook" is unambiguous in Chess960 too.
// MOVE_NONE (0) is also the null move's value; the two never meet in one list.
enum class MoveKind : uint8_t { NORMAL, PROMOTION, EN_PASSANT, CASTLING };

class Move {
 public:
  constexpr Move() = default;
  constexpr explicit Move(uint16_t raw) : raw_(raw) {}
  static constexpr Move make(Square from, Square to, MoveKind kind = MoveKind::NORMAL,
                             PieceType promotion = KNIGHT) {
    return Move(uint16_t(from | (to << 6) | ((promotion - KNIGHT) << 12) |
                         (uint16_t(kind) << 14)));
  }
  static constexpr Move null() { return Move(0); }

  constexpr Square from() const { return Square(raw_ & 63); }
  constexpr Square to() const { return Square((raw_ >> 6) & 63); }
  constexpr MoveKind kind() const { return MoveKind(raw_ >> 14); }
  constexpr PieceType promotion() const { return PieceType(((raw_ >> 12) & 3) + KNIGHT); }
  constexpr bool is_null() const { return raw_ == 0; }
  constexpr uint16_t raw() const { return raw_; }
  constexpr bool operator==(const Move&) const = default;

 private:
  uint16_t raw_ = 0;
};

constexpr Color operator~(Color c) { return Color(c ^ 1); }
constexpr Piece make_piece(Color c, PieceType pt) { return Piece((c << 3) | pt); }
constexpr PieceType type_of(Piece p) { return PieceType(p & 7); }
// A piece letter, KQRBNP in either case, as its type; NO_PIECE_TYPE for any other
// character (only P and p become 'p' when the lower-case bit is set, and so on).
constexpr PieceType piece_type_of_letter(char c) {
  switch (c | 0x20) {
    case 'p': return PAWN;
    case 'n': return KNIGHT;
    case 'b': return BISHOP;
    case 'r': return ROOK;
    case 'q': return QUEEN;
    case 'k': return KING;
    default: return NO_PIECE_TYPE;
  }
}
constexpr Color color_of(Piece p) { return Color(p >> 3); }
constexpr File file_of(Square s) { return File(s & 7); }
constexpr Rank rank_of(Square s) { return Rank(s >> 3); }
constexpr Square make_square(File f, Rank r) { return Square((r << 3) | f); }
constexpr bool is_ok(Square s) { return s < SQ_NONE; }
// Rank as seen by the given side (RANK_1 is that side's back rank).
constexpr Rank relative_rank(Color c, Rank r) { return Rank(r ^ (c * 7)); }
constexpr Square relative_square(Color c, Square s) { return Square(s ^ (c * 56)); }
constexpr int pawn_push(Color c) { return c == WHITE ? 8 : -8; }
constexpr CastlingRight castling_right(Color c, bool king_side) {
  return CastlingRight((king_side ? WHITE_OO : WHITE_OOO) << (2 * c));
}

}  // namespace pgnbase
