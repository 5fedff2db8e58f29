#include "core/bitboard.h"

#include <initializer_list>

namespace pgnbase::attack_tables {

SquareLines square_lines[SQUARE_NB];
uint8_t first_rank[64][8];
Bitboard pawn_attacks[COLOR_NB][SQUARE_NB];
Bitboard knight_attacks[SQUARE_NB];
Bitboard king_attacks[SQUARE_NB];
Bitboard between[SQUARE_NB][SQUARE_NB];
Bitboard line[SQUARE_NB][SQUARE_NB];

namespace {

bool on_board(int file, int rank) { return file >= 0 && file < 8 && rank >= 0 && rank < 8; }

// The squares one step away from s for each step that stays on the board.
Bitboard step_attacks(Square s, const int (*steps)[2], int count) {
  Bitboard attacks = 0;
  for (int i = 0; i < count; ++i) {
    const int f = file_of(s) + steps[i][0], r = rank_of(s) + steps[i][1];
    if (on_board(f, r)) attacks |= square_bb(make_square(File(f), Rank(r)));
  }
  return attacks;
}

// Every square from s (left out) to the board's edge in direction (df, dr) and its opposite.
Bitboard whole_line(Square s, int df, int dr) {
  Bitboard squares = 0;
  for (int sign : {1, -1})
    for (int f = file_of(s) + sign * df, r = rank_of(s) + sign * dr; on_board(f, r); f += sign * df, r += sign * dr)
      squares |= square_bb(make_square(File(f), Rank(r)));
  return squares;
}

// A slider on `file` of a rank whose other squares hold `occupied` (bit n: file n):
// the squares it reaches, each way up to and including the first occupied one.
uint8_t rank_reach(int file, unsigned occupied) {
  unsigned reach = 0;
  for (int f = file + 1; f < 8; ++f) {
    reach |= 1u << f;
    if (occupied & (1u << f)) break;
  }
  for (int f = file - 1; f >= 0; --f) {
    reach |= 1u << f;
    if (occupied & (1u << f)) break;
  }
  return uint8_t(reach);
}

struct TableInitializer {
  TableInitializer() {
    constexpr int knight[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    constexpr int king[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
    constexpr int white_pawn[2][2] = {{-1, 1}, {1, 1}};
    constexpr int black_pawn[2][2] = {{-1, -1}, {1, -1}};
    for (int inner = 0; inner < 64; ++inner)
      for (int file = 0; file < 8; ++file) first_rank[inner][file] = rank_reach(file, unsigned(inner) << 1);
    for (int sq = 0; sq < 64; ++sq) {
      const Square s = Square(sq);
      square_lines[s] = {square_bb(s), whole_line(s, 0, 1), whole_line(s, 1, 1), whole_line(s, -1, 1)};
      knight_attacks[s] = step_attacks(s, knight, 8);
      king_attacks[s] = step_attacks(s, king, 8);
      pawn_attacks[WHITE][s] = step_attacks(s, white_pawn, 2);
      pawn_attacks[BLACK][s] = step_attacks(s, black_pawn, 2);
    }
    for (int a = 0; a < 64; ++a) {
      for (int b = 0; b < 64; ++b) {
        const Square sa = Square(a), sb = Square(b);
        for (auto attacks : {&bishop_attacks, &rook_attacks}) {
          if (attacks(sa, 0) & square_bb(sb)) {
            line[a][b] = (attacks(sa, 0) & attacks(sb, 0)) | square_bb(sa) | square_bb(sb);
            between[a][b] = attacks(sa, square_bb(sb)) & attacks(sb, square_bb(sa));
          }
        }
      }
    }
  }
};

const TableInitializer initializer;

}  // namespace
}  // namespace pgnbase::attack_tables
