// The writer's flat key -> game id table (indexer/game_id_table.h), checked against
// std::unordered_multimap on random keys with repeats, across many growths.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <unordered_map>
#include <vector>

#include "indexer/game_id_table.h"

namespace pgnbase::indexer {
namespace {

TEST(GameIdTable, FindsEveryIdOfAKeyWithItsMarkAndNothingElse) {
  GameIdTable table;
  std::unordered_multimap<uint64_t, std::pair<uint32_t, bool>> expected;
  std::mt19937_64 random(7);
  std::vector<uint64_t> keys;
  for (uint32_t id = 1; id <= 50000; ++id) {
    // Every fifth game repeats an earlier key (a duplicate, or games sharing headers).
    const uint64_t key = (id % 5 == 0) ? keys[random() % keys.size()] : random() & ~uint64_t{1};
    keys.push_back(key);
    const bool mark = random() % 2;
    table.add(key, id, mark);
    expected.emplace(key, std::pair{id, mark});
  }
  EXPECT_EQ(table.size(), 50000u);
  for (uint64_t key : keys) {
    std::vector<std::pair<uint32_t, bool>> got, want;
    table.any_of(key, [&](uint32_t id, bool mark) {
      got.emplace_back(id, mark);
      return false;
    });
    auto [begin, end] = expected.equal_range(key);
    for (auto it = begin; it != end; ++it) want.push_back(it->second);
    std::sort(got.begin(), got.end());
    std::sort(want.begin(), want.end());
    ASSERT_EQ(got, want) << key;
    EXPECT_NE(table.find(key), 0u);
  }
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(table.find(random()), 0u);  // keys never added (a clash is 1 in 2^63)
}

TEST(GameIdTable, TheMarkBitIsNotPartOfTheKey) {
  GameIdTable table;
  table.add(0x1234, 7, true);
  EXPECT_EQ(table.find(0x1235), 7u);  // the same key with the low bit set
  bool marked = false;
  table.any_of(0x1234, [&](uint32_t, bool mark) { return marked = mark; });
  EXPECT_TRUE(marked);
}

TEST(GameIdTable, AWiderMarkKeepsItsBitsAndLeavesThemOutOfTheKey) {
  GameIdTable table(28);
  const uint32_t mark = 0x0ABCDEF5;  // 28 bits
  table.add(0x55550000'00000000ull, 3, mark);
  table.add(0x55550000'00000000ull | 0x0FFFFFFF, 4, 1);  // the same key: only mark bits differ
  table.add(0x55550000'10000000ull, 5, 0);                // another key: bit 28 is part of it
  std::vector<std::pair<uint32_t, uint32_t>> got;
  table.any_of(0x55550000'00000000ull, [&](uint32_t id, uint32_t m) {
    got.emplace_back(id, m);
    return false;
  });
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, (std::vector<std::pair<uint32_t, uint32_t>>{{3, mark}, {4, 1}}));
  EXPECT_EQ(table.find(0x55550000'10000000ull), 5u);
  // same_key says the same as the probes (the truncated-copy finder's waiting list asks it).
  EXPECT_TRUE(table.same_key(0x55550000'00000000ull, 0x55550000'00000000ull | 0x0FFFFFFF));
  EXPECT_FALSE(table.same_key(0x55550000'00000000ull, 0x55550000'10000000ull));
}

TEST(GameIdTable, AddIfAbsentKeepsTheFirstIdOfAKey) {
  GameIdTable table;
  for (uint32_t id = 1; id <= 5000; ++id) EXPECT_TRUE(table.add_if_absent(uint64_t(id) << 8, id));
  for (uint32_t id = 1; id <= 5000; ++id) EXPECT_FALSE(table.add_if_absent(uint64_t(id) << 8, id + 10000));
  EXPECT_EQ(table.size(), 5000u);
  for (uint32_t id = 1; id <= 5000; ++id) ASSERT_EQ(table.find(uint64_t(id) << 8), id);
}

TEST(GameIdTable, AnEmptyOrClearedTableFindsNothing) {
  GameIdTable table;
  EXPECT_EQ(table.find(42), 0u);
  table.add(42, 1);
  table.clear();
  EXPECT_EQ(table.find(42), 0u);
  EXPECT_EQ(table.size(), 0u);
}

}  // namespace
}  // namespace pgnbase::indexer
