// Bitboard constants, bit tricks and attack tables.
#pragma once

#include <bit>

#include "core/types.h"

namespace pgnbase {

constexpr Bitboard kFileABB = 0x0101010101010101ULL;
constexpr Bitboard kRank1BB = 0xFFULL;

constexpr Bitboard square_bb(Square s) { return Bitboard(1) << s; }
constexpr Bitboard file_bb(File f) { return kFileABB << f; }
constexpr Bitboard rank_bb(Rank r) { return kRank1BB << (8 * r); }
constexpr int popcount(Bitboard b) { return std::popcount(b); }
constexpr Square lsb(Bitboard b) { return Square(std::countr_zero(b)); }
constexpr Square msb(Bitboard b) { return Square(63 - std::countl_zero(b)); }
// Returns the lowest square of b and clears it.
inline Square pop_lsb(Bitboard& b) {
  Square s = lsb(b);
  b &= b - 1;
  return s;
}
constexpr bool more_than_one(Bitboard b) { return b & (b - 1); }

template <int Direction>
constexpr Bitboard shift(Bitboard b) {
  constexpr Bitboard not_a = ~kFileABB, not_h = ~(kFileABB << 7);
  if constexpr (Direction == 8) return b << 8;
  else if constexpr (Direction == -8) return b >> 8;
  else if constexpr (Direction == 9) return (b & not_h) << 9;
  else if constexpr (Direction == 7) return (b & not_a) << 7;
  else if constexpr (Direction == -7) return (b & not_h) >> 7;
  else if constexpr (Direction == -9) return (b & not_a) >> 9;
  else if constexpr (Direction == 1) return (b & not_h) << 1;
  else if constexpr (Direction == -1) return (b & not_a) >> 1;
  else return 0;
}

namespace attack_tables {
// The lines through a square that a slider moves along, the square itself left out.
struct SquareLines {
  Bitboard bit, file, diagonal, anti_diagonal;
};
extern SquareLines square_lines[SQUARE_NB];
extern uint8_t first_rank[64][8];  // [occupancy of b1..g1][file]: a slider's attacks along rank 1
extern Bitboard pawn_attacks[COLOR_NB][SQUARE_NB];
extern Bitboard knight_attacks[SQUARE_NB];
extern Bitboard king_attacks[SQUARE_NB];
extern Bitboard between[SQUARE_NB][SQUARE_NB];  // squares strictly between two aligned squares
extern Bitboard line[SQUARE_NB][SQUARE_NB];     // the whole line through two aligned squares
}  // namespace attack_tables

// Slider attacks are computed from 2.5 KB of tables that stay in the L1 cache ("hyperbola
// quintessence"), not looked up in magic bitboards' 841 KiB: in an import, beside SQLite,
// zstd and the posting sorts, the replay stalled on those lookups' cache misses.
//
// Along a line with one square on each rank (a file or a diagonal): the nearest blocker
// above the slider is found by o - s, the one below by the same on the line reversed
// (a byte swap reverses the ranks).
inline Bitboard line_attacks(Bitboard occupied, Bitboard line, Bitboard bit) {
  Bitboard forward = occupied & line;
  Bitboard reverse = __builtin_bswap64(forward);
  forward -= bit;
  reverse -= __builtin_bswap64(bit);
  return (forward ^ __builtin_bswap64(reverse)) & line;
}
// Along a rank, from the six inner squares' occupancy (the end squares never block).
inline Bitboard rank_attacks(Square s, Bitboard occupied) {
  const unsigned shift = s & 56;
  return Bitboard(attack_tables::first_rank[(occupied >> (shift + 1)) & 63][s & 7]) << shift;
}
inline Bitboard rook_attacks(Square s, Bitboard occupied) {
  const auto& lines = attack_tables::square_lines[s];
  return line_attacks(occupied, lines.file, lines.bit) | rank_attacks(s, occupied);
}
inline Bitboard bishop_attacks(Square s, Bitboard occupied) {
  const auto& lines = attack_tables::square_lines[s];
  return line_attacks(occupied, lines.diagonal, lines.bit) | line_attacks(occupied, lines.anti_diagonal, lines.bit);
}
inline Bitboard queen_attacks(Square s, Bitboard occupied) {
  return rook_attacks(s, occupied) | bishop_attacks(s, occupied);
}
inline Bitboard knight_attacks(Square s) { return attack_tables::knight_attacks[s]; }
inline Bitboard king_attacks(Square s) { return attack_tables::king_attacks[s]; }
inline Bitboard pawn_attacks(Color c, Square s) { return attack_tables::pawn_attacks[c][s]; }
inline Bitboard between_bb(Square a, Square b) { return attack_tables::between[a][b]; }
inline Bitboard line_bb(Square a, Square b) { return attack_tables::line[a][b]; }

// Attacks of a non-pawn piece type from s.
inline Bitboard piece_attacks(PieceType pt, Square s, Bitboard occupied) {
  switch (pt) {
    case KNIGHT: return knight_attacks(s);
    case BISHOP: return bishop_attacks(s, occupied);
    case ROOK: return rook_attacks(s, occupied);
    case QUEEN: return queen_attacks(s, occupied);
    case KING: return king_attacks(s);
    default: return 0;
  }
}

}  // namespace pgnbase
