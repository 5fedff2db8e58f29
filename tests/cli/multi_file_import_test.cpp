// pgn-index over several files (issue "Hardening, round 2", part 3): a bad file is
// reported in one line and skipped, the others are imported, the run ends with a total
// line and a non-zero status; a run that imported nothing leaves no new database, and
// --rejects holds the rejected games of exactly the files imported.
#include <zstd.h>

#include <gtest/gtest.h>

#include "store/database.h"
#include "tests/cli/cli_support.h"
#include "tests/support/files.h"

namespace pgnbase::cli_test {
namespace {

const std::string kGoodGame =
    "[Event \"Good\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n"
    "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n";

const std::string kOtherGoodGame =
    "[Event \"Good\"]\n[White \"C\"]\n[Black \"D\"]\n[Result \"1-0\"]\n\n"
    "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n";

// A game rejected for an illegal move, named so the rejects file shows where it came from.
std::string bad_game(const std::string& name) { return "[Event \"" + name + "\"]\n\n1. e4 e5 2. Ke3 *\n\n"; }

std::string zstd_compress(const std::string& text) {
  std::string out(ZSTD_compressBound(text.size()), '\0');
  const size_t n = ZSTD_compress(out.data(), out.size(), text.data(), text.size(), 3);
  EXPECT_FALSE(ZSTD_isError(n));
  out.resize(n);
  return out;
}

class MultiFileImport : public CliTest {
 protected:
  int64_t count(const std::string& db, const std::string& sql) {
    store::Database d(db, store::Database::Mode::ReadOnly);
    store::Statement s = d.prepare(sql);
    return s.step() ? s.column_int64(0) : -1;
  }
};

TEST_F(MultiFileImport, BadFilesAreReportedAndTheOthersImported) {
  const std::string db = path("y.db");
  fs::create_directories(path("folder.pgn"));
  const std::string good = file("good.pgn", kGoodGame + kOtherGoodGame + bad_game("bad"));
  Ran r = index({"-o", db, path("missing.pgn"), good, path("folder.pgn")});
  EXPECT_EQ(r.code, 1) << r;
  const std::vector<std::string> errors = r.err_lines();
  ASSERT_EQ(errors.size(), 2u) << r;
  EXPECT_EQ(errors[0].rfind("pgn-index: cannot open '" + path("missing.pgn") + "'", 0), 0u) << errors[0];
  EXPECT_NE(errors[1].find("folder.pgn"), std::string::npos) << errors[1];
  EXPECT_EQ(count(db, "SELECT COUNT(*) FROM games"), 2);
  EXPECT_EQ(count(db, "SELECT COUNT(*) FROM sources"), 1);
  EXPECT_NE(r.out.find(good + ": 3 games found, 2 imported, 1 rejected"), std::string::npos) << r;
  EXPECT_NE(r.out.find("total: 3 files (2 failed), 3 games found, 2 imported, 1 rejected in "), std::string::npos) << r;
}

TEST_F(MultiFileImport, OneFileGetsNoTotalLine) {
  Ran r = index({"-o", path("y.db"), file("good.pgn", kGoodGame)});
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_EQ(r.out.find("total:"), std::string::npos) << r;
}

TEST_F(MultiFileImport, AFileThatFailsMidwayLeavesNoneOfItsGamesOrRejects) {
  std::string cut_text;
  for (int i = 0; i < 2000; ++i) cut_text += bad_game("cut") + kGoodGame;
  const std::string compressed = zstd_compress(cut_text);
  const std::string first = file("first.pgn", kGoodGame + bad_game("first"));
  const std::string cut = file("cut.pgn.zst", compressed.substr(0, compressed.size() / 2));
  const std::string last = file("last.pgn", bad_game("last") + kOtherGoodGame);
  const std::string db = path("y.db"), rejects = path("rejects.pgn");
  Ran r = index({"-q", "-j", "2", "-o", db, "--rejects", rejects, first, cut, last});
  EXPECT_EQ(r.code, 1) << r;
  ASSERT_EQ(r.err_lines().size(), 1u) << r;
  EXPECT_NE(r.err.find("cut.pgn.zst"), std::string::npos) << r;
  EXPECT_EQ(count(db, "SELECT COUNT(*) FROM games"), 2);
  EXPECT_EQ(count(db, "SELECT COUNT(*) FROM rejects"), 2);
  EXPECT_EQ(test::read_file(rejects), bad_game("first") + bad_game("last"));
  EXPECT_EQ(work_files(), (std::vector<std::string>{"cut.pgn.zst", "first.pgn", "last.pgn", "rejects.pgn", "y.db"}));
}

TEST_F(MultiFileImport, ARunThatImportsNothingLeavesNoNewDatabase) {
  Ran r = index({"-o", path("new.db"), path("missing.pgn"), path("gone.pgn")});
  EXPECT_EQ(r.code, 1) << r;
  EXPECT_EQ(r.err_lines().size(), 2u) << r;
  EXPECT_TRUE(fs::is_empty(path(""))) << "no database, WAL or rejects file stays behind";
  // A database that existed before is kept, and so is an earlier rejects file.
  const std::string db = path("old.db");
  ASSERT_EQ(index({"-q", "-o", db, file("good.pgn", kGoodGame)}).code, 0);
  const std::string rejects = file("rejects.pgn", "earlier rejects\n");
  Ran again = index({"-o", db, "--rejects", rejects, path("missing.pgn")});
  EXPECT_EQ(again.code, 1) << again;
  EXPECT_EQ(count(db, "SELECT COUNT(*) FROM games"), 1);
  EXPECT_EQ(test::read_file(rejects), "earlier rejects\n");
}

}  // namespace
}  // namespace pgnbase::cli_test
