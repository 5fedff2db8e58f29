// pgn-index --remove, --replace and the duplicate options on the command line: what is
// printed, the exit status, and that a mistake removes nothing.
#include <gtest/gtest.h>

#include "store/database.h"
#include "tests/cli/cli_support.h"
#include "tests/support/files.h"

namespace pgnbase::cli_test {
namespace {

// Two hand-made games, one per file (edge-case fixtures: the option handling is the point).
const std::string kFirst = "[Event \"A\"]\n[White \"W\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n";
const std::string kSecond = "[Event \"B\"]\n[White \"X\"]\n[Black \"Y\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n";

class RemoveSource : public CliTest {
 protected:
  int64_t count(const std::string& sql) {
    store::Database d(path("g.db"), store::Database::Mode::ReadOnly);
    store::Statement s = d.prepare(sql);
    return s.step() ? s.column_int64(0) : -1;
  }
  void import_both() {
    ASSERT_EQ(index({"-q", "-o", path("g.db"), file("a.pgn", kFirst), file("b.pgn", kSecond)}).code, 0);
  }
};

TEST_F(RemoveSource, RemoveByPathOrIdSaysWhatWent) {
  import_both();
  Ran r = index({"-o", path("g.db"), "--remove", path("a.pgn")});
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_EQ(r.out, "removed source 1 (" + path("a.pgn") + "): 1 game, 0 rejects, 8 positions removed\n") << r;
  EXPECT_EQ(count("SELECT count(*) FROM games"), 1);
  // The pattern search's material runs go with their games.
  EXPECT_EQ(count("SELECT sum(games) FROM material_blocks"), 1);
  r = index({"-o", path("g.db"), "--remove", "2"});
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_EQ(count("SELECT count(*) FROM games"), 0);
  EXPECT_EQ(count("SELECT count(*) FROM position_segments"), 0);
  EXPECT_EQ(count("SELECT count(*) FROM material_blocks"), 0);
}

// A source imported by a relative path is found by the absolute one, and the other way round.
TEST_F(RemoveSource, APathFindsTheSourceAbsoluteOrRelative) {
  Redirects in_work;
  in_work.working_dir = fs::path(path("a.pgn")).parent_path().string();
  file("a.pgn", kFirst);
  ASSERT_EQ(index({"-q", "-o", path("g.db"), "a.pgn"}, in_work).code, 0);
  ASSERT_EQ(index({"-q", "-o", path("g.db"), file("b.pgn", kSecond)}).code, 0);
  Ran r = index({"-o", path("g.db"), "--remove", path("a.pgn")});
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_EQ(r.out, "removed source 1 (a.pgn): 1 game, 0 rejects, 8 positions removed\n") << r;
  r = index({"-o", path("g.db"), "--remove", "./b.pgn"}, in_work);
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_EQ(count("SELECT count(*) FROM games"), 0);
  EXPECT_EQ(index({"-o", path("g.db"), "--remove", path("c.pgn")}).code, 1);  // no such source
}

TEST_F(RemoveSource, AnUnknownSourceRemovesNothing) {
  import_both();
  // One good name and one bad: the whole command is refused.
  Ran r = index({"-o", path("g.db"), "--remove", "1", "--remove", "nothing.pgn"});
  EXPECT_EQ(r.code, 1) << r;
  ASSERT_EQ(r.err_lines().size(), 1u) << r;
  EXPECT_NE(r.err.find("no source 'nothing.pgn'"), std::string::npos) << r;
  EXPECT_EQ(count("SELECT count(*) FROM games"), 2);
  EXPECT_EQ(index({"-o", path("missing.db"), "--remove", "1"}).code, 1);
  EXPECT_FALSE(fs::exists(path("missing.db")));
}

TEST_F(RemoveSource, BadCombinationsAreUsageErrors) {
  import_both();
  EXPECT_EQ(index({"-o", path("g.db"), "--remove", "1", path("a.pgn")}).code, 2);
  EXPECT_EQ(index({"-o", path("g.db"), "--dedupe", path("a.pgn")}).code, 2);  // an option no longer
  EXPECT_EQ(count("SELECT count(*) FROM games"), 2);
}

TEST_F(RemoveSource, ReplaceImportsAgainAndDuplicatesAreSkippedByDefault) {
  import_both();
  Ran r = index({"-o", path("g.db"), "--replace", path("a.pgn")});
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_EQ(r.out.rfind("replaced source 1 (" + path("a.pgn") + "): 1 game", 0), 0u) << r;
  EXPECT_EQ(count("SELECT count(*) FROM games"), 2);
  r = index({"-o", path("g.db"), file("copy.pgn", kSecond + kFirst)});
  EXPECT_NE(r.out.find("2 games found, 0 imported, 0 rejected, 2 duplicates skipped"), std::string::npos) << r;
  r = index({"-o", path("g.db"), "--keep-duplicates", file("copy2.pgn", kFirst + "\n")});
  EXPECT_NE(r.out.find("1 game found, 1 imported"), std::string::npos) << r;
}

}  // namespace
}  // namespace pgnbase::cli_test

namespace pgnbase::cli_test {
namespace {

// Issue 22 item 9: --remove on a file that is no database (here an empty one) leaves it as
// it was; it used to become a 124 KB SQLite database.
TEST_F(RemoveSource, AFileThatIsNoDatabaseIsLeftAsItWas) {
  const std::string notes = file("notes.txt", "");
  Ran r = index({"-o", notes, "--remove", "1"});
  EXPECT_EQ(r.code, 1) << r;
  EXPECT_NE(r.err.find("is not a pgnbase database; nothing removed"), std::string::npos) << r;
  EXPECT_EQ(fs::file_size(notes), 0u);
  const std::string text = file("text.txt", "some notes\n");
  EXPECT_EQ(index({"-o", text, "--remove", "1"}).code, 1);
  EXPECT_EQ(test::read_file(text), "some notes\n");
}

// Issue 22 item 9: a summary that cannot be written (/dev/full) is a failure, in one line.
TEST_F(RemoveSource, OutputThatCannotBeWrittenFailsTheCommand) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  Redirects full;
  full.stdout_path = "/dev/full";
  Ran r = index({"-o", path("g.db"), file("a.pgn", kFirst)}, full);
  EXPECT_EQ(r.code, 1) << r;
  EXPECT_NE(r.err.find("cannot write to standard output"), std::string::npos) << r;
  r = query({"key", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"}, full);
  EXPECT_EQ(r.code, 1) << r;
  EXPECT_EQ(r.err_lines().size(), 1u) << r;
  r = query({"stats", path("g.db")}, full);
  EXPECT_EQ(r.code, 1) << r;
  EXPECT_EQ(r.err_lines().size(), 1u) << r;
  r = query({"export-dataset", path("g.db"), path("dataset")}, full);
  EXPECT_EQ(r.code, 1) << r;
}

}  // namespace
}  // namespace pgnbase::cli_test
