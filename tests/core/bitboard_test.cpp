#include "core/bitboard.h"

#include <gtest/gtest.h>

#include "core/magic_numbers.h"

namespace pgnbase {
namespace {

// Every written-down multiplier fits its square's table, so start-up never searches.
TEST(Bitboard, KnownMagicNumbersAreTheOnesInUse) {
  for (int sq = 0; sq < 64; ++sq) {
    EXPECT_EQ(attack_tables::rook_magics[sq].magic, attack_tables::kRookMagicNumbers[sq]) << "square " << sq;
    EXPECT_EQ(attack_tables::bishop_magics[sq].magic, attack_tables::kBishopMagicNumbers[sq]) << "square " << sq;
  }
}

// The tables answer like a ray walk on random occupancies (perft covers real positions).
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
  for (int i = 0; i < 20000; ++i) {
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    const Bitboard occupied = state & (state >> 3);  // about a quarter of the squares
    const Square s = Square(i % 64);
    ASSERT_EQ(rook_attacks(s, occupied), walk(s, occupied, true));
    ASSERT_EQ(bishop_attacks(s, occupied), walk(s, occupied, false));
  }
}

}  // namespace
}  // namespace pgnbase
