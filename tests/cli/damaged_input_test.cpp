// A PGN file with a damaged region (a bad sector, a bad copy: binary junk) near its
// start is still PGN: the junk becomes rejects and every good game around it is
// imported. Junk from the first byte on is refused as before. Real games from the
// bundled sample (tools/sample).
#include <random>

#include "store/database.h"
#include "tests/cli/cli_support.h"
#include "tests/support/bundled_sample.h"

namespace pgnbase::cli_test {
namespace {

std::string random_bytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::string bytes(n, '\0');
  for (char& c : bytes) c = char(rng() & 0xFF);
  return bytes;
}

int64_t count(const std::string& db, const std::string& sql) {
  store::Database d(db, store::Database::Mode::ReadOnly);
  store::Statement s = d.prepare(sql);
  return s.step() ? s.column_int64(0) : -1;
}

// The sample's first game, 64 KiB of junk ending a line, then its next 49 games.
std::string damaged_near_the_start() {
  return test::games_text(0, 1) + random_bytes(size_t{64} << 10, 21) + "\n" + test::games_text(1, 50);
}

class DamagedInput : public CliTest {
 protected:
  // Exit 0 and all 50 good games stored, the junk counted as rejects, and every stored
  // game equal to its undamaged original: importing the clean text adds nothing.
  void expect_good_games_imported(const Ran& r, const std::string& db) {
    EXPECT_EQ(r.code, 0) << r;
    EXPECT_EQ(r.err, "") << r;
    EXPECT_EQ(count(db, "SELECT COUNT(*) FROM games"), 50);
    EXPECT_GE(count(db, "SELECT COUNT(*) FROM rejects"), 1);
    EXPECT_EQ(count(db, "SELECT SUM(games_found - imported - rejected) FROM sources"), 0);
    Ran clean = index({"-o", db, file("clean.pgn", test::games_text(0, 50))});
    EXPECT_EQ(clean.code, 0) << clean;
    EXPECT_NE(clean.out.find("50 games found, 0 imported, 0 rejected, 50 duplicates skipped"), std::string::npos)
        << clean;
  }
};

TEST_F(DamagedInput, JunkAfterTheFirstGameBecomesRejects) {
  const std::string db = path("games.db");
  expect_good_games_imported(index({"-o", db, file("damaged.pgn", damaged_near_the_start())}), db);
}

TEST_F(DamagedInput, JunkAfterTheFirstGameOnStdinBecomesRejects) {
  // Streamed input takes the same test on its first 64 KiB.
  const std::string db = path("games.db");
  Redirects from_file;
  from_file.stdin_path = file("damaged.pgn", damaged_near_the_start());
  expect_good_games_imported(index({"-o", db, "-"}, from_file), db);
}

TEST_F(DamagedInput, JunkFromTheFirstByteIsStillRefused) {
  const std::string junk_first =
      file("junk-first.pgn", random_bytes(size_t{64} << 10, 21) + "\n" + test::games_text(0, 50));
  Ran r = index({"-o", path("games.db"), junk_first});
  EXPECT_EQ(r.code, 1) << r;
  EXPECT_EQ(r.err, "pgn-index: " + junk_first + ": not a PGN file (looks like binary data)\n") << r;
  EXPECT_FALSE(fs::exists(path("games.db")));
}

}  // namespace
}  // namespace pgnbase::cli_test
