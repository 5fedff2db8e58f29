// pgn-query book: the Polyglot book read back, and compared with the book Polyglot's own
// make-book (Debian package polyglot) writes from the same games exported as PGN.
// pgn-query event: standings of two real events, counted by hand from their PGN.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <tuple>

#include "tests/cli/cli_support.h"
#include "tests/support/bundled_sample.h"
#include "tests/support/files.h"
#include "tests/support/shared_data.h"
#include "tests/query/csv_reader.h"
#include "tests/query/json_check.h"

namespace pgnbase::cli_test {
namespace {

// (key, move) -> weight, from a book file; ordered checks whether the keys ascend.
std::map<std::pair<uint64_t, uint16_t>, uint16_t> read_book(const std::string& path, bool& ordered) {
  const std::string bytes = test::read_file(path);
  EXPECT_EQ(bytes.size() % 16, 0u);
  auto big_endian = [&](size_t at, int n) {
    uint64_t v = 0;
    for (int i = 0; i < n; ++i) v = v << 8 | static_cast<unsigned char>(bytes[at + size_t(i)]);
    return v;
  };
  std::map<std::pair<uint64_t, uint16_t>, uint16_t> entries;
  ordered = true;
  uint64_t previous = 0;
  for (size_t at = 0; at + 16 <= bytes.size(); at += 16) {
    const uint64_t key = big_endian(at, 8);
    ordered = ordered && key >= previous;
    previous = key;
    entries[{key, uint16_t(big_endian(at + 8, 2))}] = uint16_t(big_endian(at + 10, 2));
    EXPECT_EQ(big_endian(at + 12, 4), 0u);
  }
  return entries;
}

class BookCli : public CliTest {};

TEST_F(BookCli, TheBookIsPolyglotsOwnFromTheSameGames) {
  const std::string db = path("s.db");
  ASSERT_EQ(index({"-q", "-o", db, test::kSample.string()}).code, 0);
  Ran r = query({"book", db, "-o", path("book.bin"), "--max-ply", "12", "--min-games", "2"});
  ASSERT_EQ(r.code, 0) << r;
  EXPECT_NE(r.err.find("book entries from 2000 games written to"), std::string::npos) << r;
  bool ordered = false;
  const auto ours = read_book(path("book.bin"), ordered);
  EXPECT_TRUE(ordered);
  ASSERT_GT(ours.size(), 1000u);
  // The start position (spec key 463b96181691fc9c) with 1.e4 (e2e4: to e4, from e2).
  const uint16_t e2e4 = uint16_t(4 | 3 << 3 | 4 << 6 | 1 << 9);
  EXPECT_TRUE(ours.count({0x463b96181691fc9cULL, e2e4}));
  // A filter narrows the games.
  Ran narrow = query({"book", db, "-o", path("narrow.bin"), "--player", "Nikotheo", "--min-games", "1"});
  ASSERT_EQ(narrow.code, 0) << narrow;
  EXPECT_NE(narrow.err.find("from 276 games"), std::string::npos) << narrow;
  EXPECT_EQ(query({"book", db}).code, 2);  // no -o

  const std::string polyglot = "/usr/games/polyglot";
  if (!std::filesystem::exists(polyglot)) GTEST_SKIP() << polyglot << " missing (apt-get install polyglot): not compared";
  ASSERT_EQ(query({"export", db, "-o", path("games.pgn"), "--no-annotations"}).code, 0);
  Ran made = run(dir_, polyglot, {"make-book", "-pgn", path("games.pgn"), "-bin", path("ref.bin"), "-max-ply", "12",
                                   "-min-game", "2"});
  ASSERT_EQ(made.code, 0) << made;
  const auto reference = read_book(path("ref.bin"), ordered);
  EXPECT_EQ(ours, reference);  // the same positions, moves and weights
}

// explore --format pgn: one game that pgn-index reads back, its main line the most played
// move, every root move with the games explore --json counts.
TEST_F(BookCli, ExplorerTreeIsOnePgnGame) {
  const std::string db = path("s.db");
  ASSERT_EQ(index({"-q", "-o", db, test::kSample.string()}).code, 0);
  Ran tree = query({"explore", db, "--moves", "1.e4 c5", "--format", "pgn", "--depth", "2", "-o", path("tree.pgn")});
  ASSERT_EQ(tree.code, 0) << tree;
  Ran json = query({"explore", db, "--moves", "1.e4 c5", "--json", "--top", "0"});
  auto v = json_check::parse(json.out.substr(0, json.out.size() - 1));
  ASSERT_TRUE(v.has_value());
  const std::string pgn = test::read_file(path("tree.pgn"));
  const auto& moves = v->find("moves")->items;
  ASSERT_GE(moves.size(), 2u);
  const std::string main = "1. e4 c5 2. " + moves[0].find("san")->text + " {" +
                           std::to_string(int64_t(moves[0].find("games")->number)) + " games,";
  EXPECT_NE(pgn.find(main), std::string::npos) << pgn;
  const std::string second = "(2. " + moves[1].find("san")->text + " {" +
                             std::to_string(int64_t(moves[1].find("games")->number)) + " games,";
  EXPECT_NE(pgn.find(second), std::string::npos) << pgn;
  Ran imported = index({"-o", path("tree.db"), path("tree.pgn")});
  ASSERT_EQ(imported.code, 0) << imported;
  EXPECT_NE(imported.out.find("1 game found, 1 imported, 0 rejected"), std::string::npos) << imported;
  EXPECT_EQ(query({"explore", db, "--depth", "2"}).code, 2);  // --depth needs --format pgn
}

// Kasparov - Deep Blue, New York 1997: Deep Blue won 3½-2½ (two wins, three draws, one
// loss). TCEC Match 1 (2010, 48 games): Rybka 4 26½ (11 wins, 31 draws, 6 losses),
// Houdini 1.02 21½. Both counted from the files' Result tags by hand.
TEST_F(BookCli, EventStandingsOfTwoRealEvents) {
  PGNBASE_REQUIRE_SHARED();
  const std::string db = path("e.db");
  ASSERT_EQ(index({"-q", "-o", db, test::shared_data("nasty/python-chess/kasparov-deep-blue-1997.pgn").string(),
                   test::shared_data("nasty/tcec/TCEC_Match_1.pgn").string()})
                .code,
            0);
  auto standings = [&](const std::string& name) {
    Ran r = query({"event", db, name, "--format", "csv"});
    EXPECT_EQ(r.code, 0) << r;
    return csv_check::parse(r.out).value_or(std::vector<csv_check::Record>{});
  };
  using Row = std::vector<std::string>;
  const auto ibm = standings("IBM");
  ASSERT_EQ(ibm.size(), 3u);
  EXPECT_EQ(ibm[1], (Row{"1", "Deep Blue (Computer)", "", "3.5", "6", "2", "3", "1", ""}));
  EXPECT_EQ(ibm[2], (Row{"2", "Garry Kasparov", "", "2.5", "6", "1", "3", "2", ""}));
  const auto match = standings("tcec match");
  ASSERT_EQ(match.size(), 3u);
  EXPECT_EQ(match[1], (Row{"1", "Rybka 4", "", "26.5", "48", "11", "31", "6", ""}));
  EXPECT_EQ(match[2], (Row{"2", "Houdini 1.02", "", "21.5", "48", "6", "31", "11", ""}));
  Ran table = query({"event", db, "IBM"});
  EXPECT_NE(table.out.find("3\u00BD"), std::string::npos) << table.out;
  Ran several = query({"event", db, "*"});
  EXPECT_EQ(several.code, 2);
  EXPECT_NE(several.err.find("2 events match"), std::string::npos) << several;
  EXPECT_EQ(query({"event", db, "Nowhere Open"}).code, 1);
}

}  // namespace
}  // namespace pgnbase::cli_test
