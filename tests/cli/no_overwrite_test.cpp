// No command destroys data (issue "Hardening, round 2", part 3): an output that is an
// input under any name is refused with one line before anything is written, and an
// output file appears only complete, by rename, so a failed or interrupted export
// leaves the file that was there.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "tests/cli/cli_support.h"
#include "tests/support/files.h"

namespace pgnbase::cli_test {
namespace {

const std::string kGoodGame =
    "[Event \"Good\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n"
    "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n";
const std::string kBadGame = "[Event \"Bad\"]\n\n1. e4 e5 2. Ke3 *\n\n";

class NoOverwrite : public CliTest {
 protected:
  // A database of the good and the bad game (one reject).
  std::string small_database() {
    const std::string db = path("games.db");
    Ran r = index({"-q", "-o", db, file("games.pgn", kGoodGame + kBadGame)});
    EXPECT_EQ(r.code, 0) << r;
    return db;
  }
  // Exactly one line on stderr mentioning what, nothing on stdout, exit status 2.
  void expect_refused(const Ran& r, const std::string& what) {
    EXPECT_EQ(r.code, 2) << r;
    const std::vector<std::string> lines = r.err_lines();
    ASSERT_EQ(lines.size(), 1u) << r;
    EXPECT_NE(lines[0].find(what), std::string::npos) << lines[0];
    EXPECT_EQ(r.out, "") << r;
  }
};

TEST_F(NoOverwrite, QueryRefusesEveryOutputThatIsItsDatabase) {
  const std::string db = small_database();
  const std::string before = test::read_file(db);
  fs::create_symlink(db, path("link.db"));
  fs::create_hard_link(db, path("hard.db"));
  for (const std::string& output : {db, path("link.db"), path("hard.db"), path("./games.db")}) {
    for (const std::vector<std::string>& command : std::vector<std::vector<std::string>>{
             {"export", db, "-o", output},
             {"search", db, "--format", "jsonl", "-o", output},
             {"explore", db, "-o", output},
             {"stats", db, "-o", output},
             {"rejects", db, "-o", output}}) {
      Ran r = query(command);
      expect_refused(r, "is the same file as the database");
      ASSERT_EQ(test::read_file(db), before) << command[0] << " -o " << output << " changed the database";
    }
  }
  EXPECT_EQ(query({"stats", db}).code, 0);
}

TEST_F(NoOverwrite, QueryRefusesStdoutAppendedToItsDatabase) {
  const std::string db = small_database();
  const std::string before = test::read_file(db);
  Redirects appended;
  appended.stdout_path = db;
  appended.append_stdout = true;  // pgn-query stats games.db >> games.db
  Ran r = query({"stats", db}, appended);
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_NE(r.err.find("<stdout>"), std::string::npos) << r;
  EXPECT_EQ(test::read_file(db), before);
}

TEST_F(NoOverwrite, IndexRefusesARejectsFileThatIsAnInput) {
  const std::string pgn = file("g.pgn", kGoodGame + kBadGame);
  fs::create_symlink(pgn, path("link.pgn"));
  for (const std::string& rejects : {pgn, path("link.pgn")}) {
    Ran r = index({"-o", path("r.db"), pgn, "--rejects", rejects});
    expect_refused(r, "--rejects '" + rejects + "' is the same file as the input '" + pgn + "'");
    EXPECT_EQ(test::read_file(pgn), kGoodGame + kBadGame);
    EXPECT_FALSE(fs::exists(path("r.db"))) << "refused before the database was created";
  }
  // Standard input read from the same file (pgn-index -o r.db - --rejects g.pgn < g.pgn).
  Redirects from_file;
  from_file.stdin_path = pgn;
  Ran r = index({"-o", path("r.db"), "-", "--rejects", pgn}, from_file);
  expect_refused(r, "same file as the input '<stdin>'");
  EXPECT_EQ(test::read_file(pgn), kGoodGame + kBadGame);
}

TEST_F(NoOverwrite, IndexRefusesADatabaseThatIsAnInput) {
  const std::string pgn = file("g.pgn", kGoodGame);
  const std::string empty = file("empty.pgn", "");  // SQLite would happily make this a database
  fs::create_symlink(pgn, path("link.db"));
  for (const auto& [db, input] : std::vector<std::pair<std::string, std::string>>{
           {pgn, pgn}, {empty, empty}, {path("link.db"), pgn}, {path("x.db"), path("x.db-wal")}}) {
    if (!fs::exists(input)) test::write_file(input, kGoodGame);
    Ran r = index({"-o", db, path("other.pgn"), input});
    expect_refused(r, "-o '");
    EXPECT_NE(r.err.find("is the same file as the input"), std::string::npos) << r;
  }
  EXPECT_EQ(test::read_file(pgn), kGoodGame);
  EXPECT_EQ(test::read_file(empty), "");
  // --rejects naming the database being written.
  const std::string db = path("r.db");
  ASSERT_EQ(index({"-q", "-o", db, pgn}).code, 0);
  const std::string before = test::read_file(db);
  Ran r = index({"-o", db, "--rejects", db, file("bad.pgn", kBadGame)});
  expect_refused(r, "same file as the database");
  EXPECT_EQ(test::read_file(db), before);
}

TEST_F(NoOverwrite, FailedExportLeavesTheOldFile) {
  const std::string db = path("games.db");
  ASSERT_EQ(index({"-q", "-o", db, file("many.pgn", random_games(300, 7))}).code, 0);
  const std::string out = file("export.pgn", "the previous export\n");
  Redirects small_disk;
  small_disk.file_size_limit = 16 << 10;  // the export is far bigger: the disk "fills up"
  Ran r = query({"export", db, "-o", out}, small_disk);
  EXPECT_EQ(r.signal, 0) << "killed (SIGXFSZ?) instead of failing cleanly";
  EXPECT_EQ(r.code, 1) << r;
  EXPECT_EQ(r.err_lines().size(), 1u) << r;
  EXPECT_EQ(test::read_file(out), "the previous export\n");
  EXPECT_EQ(work_files(), (std::vector<std::string>{"export.pgn", "games.db", "many.pgn"})) << "a temporary file stayed";
  // With room, the same command replaces it.
  Ran again = query({"export", db, "-o", out});
  ASSERT_EQ(again.code, 0) << again;
  EXPECT_EQ(test::read_file(out).find("[Event \"Random 7\"]"), 0u);
}

TEST_F(NoOverwrite, InterruptedExportLeavesTheOldFileAndNoTemporary) {
  const std::string db = path("games.db");
  ASSERT_EQ(index({"-q", "-o", db, file("many.pgn", random_games(3000, 8))}).code, 0);
  const std::string out = file("export.pgn", "the previous export\n");
  const pid_t pid = start(dir_, kQueryBinary, {"export", db, "-o", out, "-j", "1"});
  // Wait for the temporary file, then interrupt the export while it writes.
  bool seen = false;
  for (int i = 0; i < 20000 && !seen; ++i) {
    for (const std::string& name : work_files()) seen |= name.starts_with("export.pgn.tmp-");
    if (!seen) std::this_thread::sleep_for(std::chrono::microseconds(250));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  kill(pid, SIGTERM);
  Ran r = finish(dir_, pid);
  ASSERT_TRUE(seen) << "no temporary file appeared: the export writes the asked name directly\n" << r;
  EXPECT_EQ(r.signal, SIGTERM) << "the export finished before the signal; make the database bigger\n" << r;
  EXPECT_EQ(test::read_file(out), "the previous export\n");
  EXPECT_EQ(work_files(), (std::vector<std::string>{"export.pgn", "games.db", "many.pgn"}));
}

TEST_F(NoOverwrite, DashIsStillStandardOutput) {
  const std::string db = small_database();
  Ran to_stdout = query({"export", db, "-o", "-"});
  ASSERT_EQ(to_stdout.code, 0) << to_stdout;
  EXPECT_EQ(to_stdout.out.find("[Event \"Good\"]"), 0u) << to_stdout;
  const std::string out = path("export.pgn");
  ASSERT_EQ(query({"export", db, "-o", out}).code, 0);
  EXPECT_EQ(test::read_file(out), to_stdout.out);
}

}  // namespace
}  // namespace pgnbase::cli_test
