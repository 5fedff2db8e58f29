// The explorer's game facets (store/game_facets.h) across chunk boundaries: appended in
// steps that start and end on either side of a 65,536-game chunk, with removals in the
// middle, they read back as the games table's columns say. The rows are made by SQL (only
// the facet columns matter here: no moves are read), so the test needs no real games.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "store/counters.h"
#include "store/database.h"
#include "store/game_facets.h"
#include "store/schema.h"
#include "tests/support/temp_dir.h"

namespace pgnbase::store {
namespace {

// Adds games first_id to last_id: ratings, dates and time controls that vary with the id
// (some unknown), as the writer would, and raises last_game_id.
void add_games(Database& db, int64_t first_id, int64_t last_id) {
  Statement s = db.prepare(
      "WITH RECURSIVE ids(id) AS (SELECT ?1 UNION ALL SELECT id + 1 FROM ids WHERE id < ?2) "
      "INSERT INTO games(id, source_id, game_number, byte_offset, line, result, plies, moves, white_elo, black_elo, "
      "date_key, time_control) SELECT id, 1, id, 0, 1, 0, 0, x'02', "
      "CASE WHEN id % 7 = 0 THEN NULL ELSE 1000 + id % 1700 END, 1200 + id % 1500, "
      "CASE WHEN id % 11 = 0 THEN NULL ELSE 20000101 + id % 250000 END, "
      "CASE id % 5 WHEN 0 THEN NULL WHEN 1 THEN '180+2' WHEN 2 THEN '60+0' ELSE '600+' || (id % 3) END FROM ids");
  s.bind_int64(1, first_id);
  s.bind_int64(2, last_id);
  s.run();
  raise_counter(db, kLastGameId, last_id);
}

// The facet columns of the games above id `after`, as the writer keeps them when it
// writes the rows.
NewGameFacets games_above(Database& db, int64_t after) {
  NewGameFacets games;
  Statement s = db.prepare("SELECT id, white_elo, black_elo, date_key, time_control FROM games WHERE id > ?1 ORDER BY id");
  s.bind_int64(1, after);
  auto number = [&s](int column) { return s.column_is_null(column) ? std::nullopt : std::optional(s.column_int64(column)); };
  while (s.step())
    games.add(uint32_t(s.column_int64(0)), number(1), number(2), number(3),
              s.column_is_null(4) ? std::nullopt : std::optional(std::string(s.column_text(4))));
  return games;
}

// Compares every game's facets with its row (zeros for removed ids and id 0).
void expect_facets_match_rows(Database& db, int64_t last_id) {
  const std::optional<GameFacets> f = read_game_facets(db);
  ASSERT_TRUE(f.has_value());
  ASSERT_EQ(f->last_id, uint32_t(last_id));
  ASSERT_EQ(f->white_elo.size(), size_t(last_id) + 1);
  ASSERT_EQ(f->time_control.size(), size_t(last_id) + 1);
  std::vector<int> seen(size_t(last_id) + 1, 0);
  Statement s = db.prepare("SELECT id, ifnull(white_elo, 0), ifnull(black_elo, 0), ifnull(date_key, 0), time_control FROM games");
  while (s.step()) {
    const size_t id = size_t(s.column_int64(0));
    seen[id] = 1;
    ASSERT_EQ(f->white_elo[id], s.column_int64(1)) << id;
    ASSERT_EQ(f->black_elo[id], s.column_int64(2)) << id;
    ASSERT_EQ(f->date_key[id], s.column_int64(3)) << id;
    const uint16_t tc = f->time_control[id];
    if (s.column_is_null(4)) {
      ASSERT_EQ(tc, 0) << id;
    } else {
      ASSERT_GT(tc, 0) << id;
      ASSERT_EQ(f->time_controls.at(tc - 1), s.column_text(4)) << id;
    }
  }
  for (size_t id = 0; id <= size_t(last_id); ++id) {
    if (seen[id]) continue;
    ASSERT_TRUE(f->white_elo[id] == 0 && f->date_key[id] == 0 && f->time_control[id] == 0) << id;
  }
}

TEST(GameFacets, AppendedAcrossChunkBoundariesAndClearedTheyReadBackAsTheRows) {
  test::TempDir dir("facets");
  Database db((dir.path() / "f.db").string(), Database::Mode::Create);
  db.exec(kSchemaSql);
  db.exec(kGamesIndexesSql);
  Transaction transaction(db);
  int64_t last = 0;
  // Steps ending just before, on and just after the first chunk's end, then past the second.
  for (int64_t next_last : {1000, 65534, 65535, 65536, 65537, 140000}) {
    add_games(db, last + 1, next_last);
    append_game_facets(db, uint32_t(next_last), games_above(db, last));
    last = next_last;
    expect_facets_match_rows(db, last);
  }
  // A removal in two chunks (and ids past the end, ignored), as source removal does it.
  // 140001 lies past last_id in the last chunk, 200000 past the last chunk.
  const std::vector<int64_t> removed = {7, 65535, 65536, 70000, 139999, 140001, 200000};
  db.exec("DELETE FROM games WHERE id IN (7, 65535, 65536, 70000, 139999)");
  clear_game_facets(db, removed);
  expect_facets_match_rows(db, last);
  // A chunk that is missing or of the wrong size makes the facets absent, not wrong.
  db.exec("UPDATE game_facets SET data = substr(data, 1, 100) WHERE name = 'date_key.1'");
  EXPECT_FALSE(read_game_facets(db).has_value());
  EXPECT_TRUE(read_game_facets(db, {.ratings = true, .date = false, .time_control = false}).has_value());
  db.exec("DELETE FROM game_facets WHERE name = 'white_elo.2'");
  EXPECT_FALSE(read_game_facets(db, {.ratings = true, .date = false, .time_control = false}).has_value());
  transaction.commit();
}

TEST(GameFacets, NewGamesKeptByTheWriterSkipIdsAndForgetAnAbandonedSource) {
  NewGameFacets games;
  games.add(10, 2100, 70000, 20240131, std::string("180+2"));  // a rating past u16 is unknown
  games.add(12, std::nullopt, 1500, std::nullopt, std::string("60+0"));
  games.add(13, 1800, 1900, 19991231, std::string("180+2"));
  games.add(14, 1, 2, 3, std::string("a\nb"));  // a line break cannot be stored
  ASSERT_EQ(games.first_id(), 10u);
  ASSERT_EQ(games.size(), 5u);
  EXPECT_EQ(games.white_elo(), (std::vector<uint16_t>{2100, 0, 0, 1800, 1}));
  EXPECT_EQ(games.black_elo(), (std::vector<uint16_t>{0, 0, 1500, 1900, 2}));
  EXPECT_EQ(games.date_key(), (std::vector<int32_t>{20240131, 0, 0, 19991231, 3}));
  EXPECT_EQ(games.time_control(), (std::vector<uint16_t>{1, 0, 2, 1, 0}));
  EXPECT_EQ(games.time_controls(), (std::vector<std::string>{"180+2", "60+0"}));
  games.drop_from(13);  // the source that began at game 13 is abandoned
  EXPECT_EQ(games.size(), 3u);
  games.add(13, 2500, 2600, 20000101, std::nullopt);
  EXPECT_EQ(games.white_elo(), (std::vector<uint16_t>{2100, 0, 0, 2500}));

  // Appended to a fresh database's facets: ids 1-9 and 11 are zeros.
  test::TempDir dir("facets-new");
  Database db((dir.path() / "f.db").string(), Database::Mode::Create);
  db.exec(kSchemaSql);
  db.exec(kGamesIndexesSql);
  Transaction transaction(db);
  raise_counter(db, kLastGameId, 13);  // as the writer does: the facets must reach it
  append_game_facets(db, 13, games);
  const std::optional<GameFacets> f = read_game_facets(db);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->last_id, 13u);
  EXPECT_EQ(f->white_elo, (std::vector<uint16_t>{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2100, 0, 0, 2500}));
  EXPECT_EQ(f->time_control[12], 2);
  EXPECT_EQ(f->time_controls, (std::vector<std::string>{"180+2", "60+0"}));
  transaction.commit();
}

}  // namespace
}  // namespace pgnbase::store
