// pgn-index builds a new database under a private name and renames it into place
// (indexer/fresh_build.h): what a user sees of that.
#include "store/database.h"
#include "tests/cli/cli_support.h"
#include "tests/support/bundled_sample.h"
#include "tests/support/files.h"

namespace pgnbase::cli_test {
namespace {

std::string journal_mode(const std::string& db) {
  store::Database d(db, store::Database::Mode::ReadOnly);
  store::Statement s = d.prepare("PRAGMA journal_mode");
  return s.step() ? std::string(s.column_text(0)) : "";
}

int64_t games(const std::string& db) {
  store::Database d(db, store::Database::Mode::ReadOnly);
  store::Statement s = d.prepare("SELECT COUNT(*) FROM games");
  return s.step() ? s.column_int64(0) : -1;
}

class FreshBuildCli : public CliTest {};

TEST_F(FreshBuildCli, ANewDatabaseIsPublishedInWalModeWithNothingLeftBeside) {
  const std::string db = path("games.db");
  const Ran r = index({"-q", "-o", db, file("a.pgn", test::games_text(0, 300)), file("b.pgn", test::games_text(300, 500))});
  ASSERT_EQ(r.code, 0) << r;
  EXPECT_EQ(games(db), 500);
  EXPECT_EQ(journal_mode(db), "wal") << "readers and later imports need the WAL";
  EXPECT_FALSE(fs::exists(db + "-building"));
  // Appending afterwards goes through the WAL as before.
  ASSERT_EQ(index({"-q", "-o", db, file("c.pgn", test::games_text(500, 600))}).code, 0);
  EXPECT_EQ(games(db), 600);
}

TEST_F(FreshBuildCli, AnImportThatStoresNothingLeavesNoDatabase) {
  const std::string db = path("games.db");
  // Neither input is read: one is missing, the other not PGN (a PNG signature).
  const Ran r = index({"-q", "-o", db, file("image.pgn", std::string("\x89PNG\r\n\x1a\n", 8) + std::string(100, 'x')),
                       path("missing.pgn")});
  EXPECT_NE(r.code, 0) << r;
  EXPECT_FALSE(fs::exists(db));
  EXPECT_FALSE(fs::exists(db + "-building"));
}

TEST_F(FreshBuildCli, WhatAKilledFirstImportLeftIsReusedByTheNext) {
  const std::string db = path("games.db");
  test::write_file(db + "-building", std::string(5000, 'x'));  // a kill -9 leaves half a file
  const Ran r = index({"-q", "-o", db, file("a.pgn", test::games_text(0, 100))});
  ASSERT_EQ(r.code, 0) << r;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(games(db), 100);
  EXPECT_FALSE(fs::exists(db + "-building"));
}

}  // namespace
}  // namespace pgnbase::cli_test
