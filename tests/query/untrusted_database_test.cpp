// Query code paths that size something by a value read from the database, which may
// come from anyone: the sample database with one game id moved far out.
#include <gtest/gtest.h>

#include <filesystem>

#include "search/explorer.h"
#include "query_test_support.h"
#include "sample_games.h"
#include "tests/support/temp_dir.h"

namespace pgnbase::query {
namespace {

// The explorer's one-pass rating lookup filled an array indexed by game id up to the
// largest id: an id of 2^40 asked for 2 TiB. It now looks games up by id instead, with
// the same answer.
TEST(UntrustedDatabase, HugeGameIdDoesNotSizeTheExplorersRatingArray) {
  test::TempDir dir;
  const std::string path = dir.file("far.db");
  std::filesystem::copy_file(query_test::sample_database(), path);
  {
    store::Database db(path, store::Database::Mode::ReadWrite);
    db.exec("UPDATE games SET id = 1099511627776 WHERE id = (SELECT max(id) FROM games)");
  }
  store::Database db(path, store::Database::Mode::ReadOnly);
  search::ExplorerResult results[2];
  for (size_t limit : {0, 1}) {  // 0: the one-pass strategy; 20000: by id
    search::ExplorerOptions options;
    options.filter.position = Board();
    options.point_lookup_limit = limit ? 20000 : 0;
    ASSERT_NO_THROW(results[limit] = search::explore(db, options));
  }
  ASSERT_EQ(results[0].moves.size(), results[1].moves.size());
  EXPECT_GT(results[0].games, 0u);
  EXPECT_EQ(results[0].games, results[1].games);
  for (size_t i = 0; i < results[0].moves.size(); ++i) {
    EXPECT_EQ(results[0].moves[i].san, results[1].moves[i].san);
    EXPECT_EQ(results[0].moves[i].rated_games, results[1].moves[i].rated_games);
  }
}

}  // namespace
}  // namespace pgnbase::query
