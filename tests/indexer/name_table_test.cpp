// The writer's name table (indexer/name_table.h): every name added is found with its id
// through the table's growth, names whose hashes collide (here forced: one hash for
// many names, as a targeted edge case) are told apart by their text, and an absent name
// is not found.
#include "indexer/name_table.h"

#include <gtest/gtest.h>

#include "indexer/game_record.h"

namespace pgnbase::indexer {
namespace {

TEST(NameTable, FindsEveryNameAddedThroughGrowthAndCollisions) {
  NameTable table;
  EXPECT_EQ(table.find("Carlsen, Magnus", name_hash("Carlsen, Magnus")), 0);
  constexpr int kNames = 5000;  // several growths from 1,024 slots
  for (int i = 1; i <= kNames; ++i) {
    const std::string name = "Player " + std::to_string(i);
    table.add(name, name_hash(name), i);
  }
  // Twenty names under one hash, and one of them also under its own.
  for (int i = 1; i <= 20; ++i) table.add("Same hash " + std::to_string(i), 42, kNames + i);
  EXPECT_EQ(table.size(), size_t(kNames + 20));
  for (int i = 1; i <= kNames; ++i) {
    const std::string name = "Player " + std::to_string(i);
    ASSERT_EQ(table.find(name, name_hash(name)), i) << name;
  }
  for (int i = 1; i <= 20; ++i) EXPECT_EQ(table.find("Same hash " + std::to_string(i), 42), kNames + i);
  EXPECT_EQ(table.find("Same hash 21", 42), 0);
  EXPECT_EQ(table.find("Player 1", 42), 0);  // the right text under another hash is not it
  EXPECT_EQ(table.find("Player 5001", name_hash("Player 5001")), 0);
  table.clear();
  EXPECT_EQ(table.size(), 0u);
  EXPECT_EQ(table.find("Player 1", name_hash("Player 1")), 0);
  table.add("Player 1", name_hash("Player 1"), 7);
  EXPECT_EQ(table.find("Player 1", name_hash("Player 1")), 7);
}

}  // namespace
}  // namespace pgnbase::indexer
