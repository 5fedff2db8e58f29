#include "core/bitboard.h"

#include <cstdlib>
#include <initializer_list>

#include "core/magic_numbers.h"

namespace pgnbase::attack_tables {

Magic rook_magics[SQUARE_NB];
Magic bishop_magics[SQUARE_NB];
Bitboard pawn_attacks[COLOR_NB][SQUARE_NB];
Bitboard knight_attacks[SQUARE_NB];
Bitboard king_attacks[SQUARE_NB];
Bitboard between[SQUARE_NB][SQUARE_NB];
Bitboard line[SQUARE_NB][SQUARE_NB];

namespace {

Bitboard rook_table[0x19000];
Bitboard bishop_table[0x1480];

// A slider's attacks from one square for any occupancy, from its four empty-board rays:
// each ray is cut after its first blocker (the nearest is the lowest set bit on a ray
// that goes up the board, the highest on one that goes down). The start-up fills the
// tables with it, 102,400 rook and 5,248 bishop occupancies (walking the rays square by
// square took about a millisecond of every program's start).
struct SliderRays {
  Bitboard ray[4] = {};
  bool upward[4] = {};

  SliderRays(Square s, const int (*deltas)[2]) {
    for (int d = 0; d < 4; ++d) {
      upward[d] = deltas[d][1] > 0 || (deltas[d][1] == 0 && deltas[d][0] > 0);
      int f = file_of(s) + deltas[d][0], r = rank_of(s) + deltas[d][1];
      while (f >= 0 && f < 8 && r >= 0 && r < 8) {
        ray[d] |= square_bb(make_square(File(f), Rank(r)));
        f += deltas[d][0];
        r += deltas[d][1];
      }
    }
  }

  Bitboard attacks(Bitboard occupied) const {
    Bitboard attacks = 0;
    for (int d = 0; d < 4; ++d) {
      const Bitboard blockers = ray[d] & occupied;
      if (!blockers) {
        attacks |= ray[d];
      } else if (upward[d]) {  // the ray's squares up to the lowest blocker
        const Bitboard nearest = blockers & -blockers;
        attacks |= ray[d] & ((nearest << 1) - 1);
      } else {  // down to the highest blocker
        const Bitboard nearest = square_bb(Square(63 - __builtin_clzll(blockers)));
        attacks |= ray[d] & ~(nearest - 1);
      }
    }
    return attacks;
  }
};

constexpr int kRookDeltas[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr int kBishopDeltas[4][2] = {{1, 1}, {-1, 1}, {1, -1}, {-1, -1}};

// xorshift64*: a fixed seed makes the magic search repeatable.
struct Prng {
  uint64_t state;
  uint64_t next() {
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 2685821657736338717ULL;
  }
  uint64_t sparse() { return next() & next() & next(); }
};

// Fills the shared table with the known multipliers (magic_numbers.h), or finds
// multipliers by trial (the "fancy magic" scheme of
// https://www.chessprogramming.org/Magic_Bitboards) where one does not fit.
void init_magics(Magic* magics, Bitboard* table, const int (*deltas)[2], const uint64_t* known) {
  Bitboard occupancy[4096], reference[4096];
  int epoch[4096] = {}, current = 0;
  // Seeds per rank that reach working magics within a few tries (the values Stockfish
  // publishes for this generator); a single global seed made start-up take ~100 ms.
  constexpr uint64_t kSeeds[8] = {728, 10316, 55013, 32803, 12281, 15100, 16645, 255};
  Bitboard* next_table = table;
  for (int sq = 0; sq < 64; ++sq) {
    Square s = Square(sq);
    Prng prng{kSeeds[rank_of(s)]};
    Bitboard edges = ((rank_bb(RANK_1) | rank_bb(RANK_8)) & ~rank_bb(rank_of(s))) |
                     ((file_bb(FILE_A) | file_bb(FILE_H)) & ~file_bb(file_of(s)));
    Magic& m = magics[sq];
    const SliderRays rays(s, deltas);
    m.mask = rays.attacks(0) & ~edges;
    m.shift = 64 - popcount(m.mask);
    m.attacks = next_table;
    int size = 0;
    Bitboard b = 0;
    do {  // Carry-Rippler enumeration of every subset of the mask.
      occupancy[size] = b;
      reference[size] = rays.attacks(b);
      ++size;
      b = (b - m.mask) & m.mask;
    } while (b);
    Bitboard* slots = next_table;
    for (int i = 0, attempt = 0; i < size; ++attempt) {
      if (attempt == 0) {
        m.magic = known[sq];
      } else {
        do m.magic = prng.sparse();
        while (popcount((m.magic * m.mask) >> 56) < 6);
      }
      ++current;
      for (i = 0; i < size; ++i) {
        unsigned idx = m.index(occupancy[i]);
        if (epoch[idx] < current) {
          epoch[idx] = current;
          slots[idx] = reference[i];
        } else if (slots[idx] != reference[i]) {
          break;
        }
      }
    }
    next_table += size;
  }
}

Bitboard step_attacks(Square s, const int (*steps)[2], int count) {
  Bitboard attacks = 0;
  for (int i = 0; i < count; ++i) {
    int f = file_of(s) + steps[i][0], r = rank_of(s) + steps[i][1];
    if (f >= 0 && f < 8 && r >= 0 && r < 8) attacks |= square_bb(make_square(File(f), Rank(r)));
  }
  return attacks;
}

struct TableInitializer {
  TableInitializer() {
    constexpr int knight[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    constexpr int king[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
    constexpr int white_pawn[2][2] = {{-1, 1}, {1, 1}};
    constexpr int black_pawn[2][2] = {{-1, -1}, {1, -1}};
    init_magics(rook_magics, rook_table, kRookDeltas, kRookMagicNumbers);
    init_magics(bishop_magics, bishop_table, kBishopDeltas, kBishopMagicNumbers);
    for (int sq = 0; sq < 64; ++sq) {
      Square s = Square(sq);
      knight_attacks[s] = step_attacks(s, knight, 8);
      king_attacks[s] = step_attacks(s, king, 8);
      pawn_attacks[WHITE][s] = step_attacks(s, white_pawn, 2);
      pawn_attacks[BLACK][s] = step_attacks(s, black_pawn, 2);
    }
    for (int a = 0; a < 64; ++a) {
      for (int b = 0; b < 64; ++b) {
        Square sa = Square(a), sb = Square(b);
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
