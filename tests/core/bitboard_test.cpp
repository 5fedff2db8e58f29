#include "core/bitboard.h"

#include <gtest/gtest.h>

namespace pgnbase {
namespace {

// Slider attacks answer like a ray walk on random occupancies, sparse to full, and on the
// empty and full boards (perft covers real positions).
TEST(Bitboard, SliderAttacksMatchARayWalk) {
  auto walk = [](Square s, Bitboard occupied, bool rook) {
    static constexpr int kRook[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    static constexpr int kBishop[4][2] = {{1, 1}, {-1, 1}, {1, -1}, {-1, -1}};
    Bitboard attacks = 0;
    for (const auto& d : rook ? kRook : kBishop) {
      for (int f = file_of(s) + d[0], r = rank_of(s) + d[1]; f >= 0 && f < 8 && r >= 0 && r < 8; f += d[0], r += d[1]) {
        attacks |= square_bb(make_square(File(f), Rank(r)));
        if (occupied & square_bb(make_square(File(f), Rank(r)))) break;
      }
    }
    return attacks;
  };
  uint64_t state = 0x9E3779B97F4A7C15ull;
  auto next = [&] { return state ^= state << 13, state ^= state >> 7, state ^= state << 17; };
  for (int i = 0; i < 40000; ++i) {
    const Square s = Square(i % 64);
    const int density = i / 64 % 4;  // every square gets each density in turn
    Bitboard occupied = next();  // half the squares
    if (density == 1) occupied &= next();  // a quarter
    if (density == 2) occupied &= next() & next();  // an eighth
    if (density == 3) occupied |= next();  // three quarters
    if (i < 128) occupied = i < 64 ? 0 : ~Bitboard(0);
    ASSERT_EQ(rook_attacks(s, occupied), walk(s, occupied, true)) << "square " << int(s) << " occupied " << occupied;
    ASSERT_EQ(bishop_attacks(s, occupied), walk(s, occupied, false)) << "square " << int(s) << " occupied " << occupied;
  }
}

}  // namespace
}  // namespace pgnbase
