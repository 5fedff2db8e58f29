// Seeded random postings as a lean block holds them, for the block codec's tests: random
// 64-bit keys, some repeated in other games (groups of two or more, whose moves a lean
// block keeps), plies unknown. No GoogleTest.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "store/position_posting.h"

namespace pgnbase::test {

// `keys` random keys; every `every`-th one has min_copies..max_copies postings, the others
// one; game ids below `games`; sorted by posting_less. The same seed gives the same
// postings on every machine.
inline std::vector<store::Posting> random_lean_postings(uint32_t keys, uint32_t every, uint32_t min_copies,
                                                        uint32_t max_copies, uint32_t games, uint64_t seed) {
  std::mt19937_64 random(seed);
  std::vector<store::Posting> postings;
  for (uint32_t i = 0; i < keys; ++i) {
    const uint64_t key = random();
    const uint32_t copies = i % every == 0 ? min_copies + uint32_t(random() % (max_copies - min_copies + 1)) : 1;
    for (uint32_t c = 0; c < copies; ++c)
      postings.push_back({key, uint32_t(random() % games), store::kUnknownPly, uint16_t(random() & 0x7fff),
                          store::GameResult(random() % 4)});
  }
  std::sort(postings.begin(), postings.end(), store::posting_less);
  return postings;
}

}  // namespace pgnbase::test
