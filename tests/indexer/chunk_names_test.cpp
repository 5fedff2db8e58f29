// The worker's numbering of a chunk's distinct names (indexer::ChunkNames): each name gets
// one slot, in the order the writer meets them (Event, Site, White, Black of each game in
// turn), shared by every field that names it (the names table is one for all fields);
// a URL Site is numbered by the prefix the writer interns; openings are numbered apart.
// The records are hand-made (a targeted edge case): the names are what matters. That
// the writer's ids come out the same whatever the chunks are is tested by the imports
// at several chunk sizes (import_test.cpp).
#include "indexer/game_encoder.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace pgnbase::indexer {
namespace {

GameRecord game_of(std::optional<std::string> event, std::optional<std::string> site, std::optional<std::string> white,
                   std::optional<std::string> black, std::string opening = "") {
  GameRecord game;
  game.header.event = std::move(event);
  game.header.site = std::move(site);
  game.header.white = std::move(white);
  game.header.black = std::move(black);
  game.opening = std::move(opening);
  game.name_keys = name_keys_of(game);
  return game;
}

TEST(ChunkNames, NumbersEachDistinctNameOnceInTheOrderTheWriterMeetsThem) {
  GameRecord games[] = {
      game_of("Rated Blitz game", "https://lichess.org/AbCd1234", "Carlsen, Magnus", "Nakamura, Hikaru", "Sicilian Defense"),
      game_of("Rated Blitz game", "https://lichess.org/EfGh5678", "Nakamura, Hikaru", "Carlsen, Magnus", "French Defense"),
      // A name in another field (an event named as a player) shares the slot: one table.
      game_of("Carlsen, Magnus", "Oslo", std::nullopt, "Firouzja, Alireza", "Sicilian Defense"),
      game_of(std::nullopt, std::nullopt, std::nullopt, std::nullopt),
  };
  ChunkNames names;
  for (GameRecord& g : games) names.number(g);

  const NameKeys& first = *games[0].name_keys;
  EXPECT_EQ(first.event_slot, 1u);
  EXPECT_EQ(first.site_slot, 2u);  // "https://lichess.org/", the prefix
  EXPECT_EQ(first.white_slot, 3u);
  EXPECT_EQ(first.black_slot, 4u);
  EXPECT_EQ(first.opening_slot, 1u);

  const NameKeys& second = *games[1].name_keys;
  EXPECT_EQ(second.event_slot, 1u);
  EXPECT_EQ(second.site_slot, 2u);  // another game of the same site prefix
  EXPECT_EQ(second.white_slot, 4u);
  EXPECT_EQ(second.black_slot, 3u);
  EXPECT_EQ(second.opening_slot, 2u);

  const NameKeys& third = *games[2].name_keys;
  EXPECT_EQ(third.event_slot, 3u);
  EXPECT_EQ(third.site_slot, 5u);
  EXPECT_EQ(third.white_slot, 0u);
  EXPECT_EQ(third.black_slot, 6u);
  EXPECT_EQ(third.opening_slot, 1u);

  const NameKeys& fourth = *games[3].name_keys;
  EXPECT_EQ(fourth.event_slot + fourth.site_slot + fourth.white_slot + fourth.black_slot + fourth.opening_slot, 0u);

  EXPECT_EQ(names.names(), 6u);
  EXPECT_EQ(names.openings(), 2u);
}

}  // namespace
}  // namespace pgnbase::indexer
