// pgn-index against hostile and broken input (issue 5): every case ends with a clear
// one-line error and exit status 1, or with the bad games counted as rejects and exit
// status 0; never a crash, a sanitizer report or unbounded memory.
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zstd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/board.h"
#include "store/position_index_reader.h"
#include "store/database.h"
#include "search/game_search.h"
#include "tests/support/archives.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"

namespace pgnbase {
namespace {

namespace fs = std::filesystem;
using namespace std::string_literals;

const std::string kIndexBinary = PGNBASE_BINARY_DIR "/tools/pgn-index";

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

struct Outcome {
  bool exited = false;
  int code = -1;    // exit status when exited
  int signal = 0;   // terminating signal otherwise
  long max_rss_kb = 0;
  std::string output;  // stdout and stderr together

  bool crashed() const { return !exited; }
  std::vector<std::string> lines() const {
    std::vector<std::string> out;
    std::istringstream in(output);
    for (std::string line; std::getline(in, line);)
      if (!line.empty()) out.push_back(line);
    return out;
  }
};

std::ostream& operator<<(std::ostream& os, const Outcome& o) {
  return os << (o.exited ? "exit " + std::to_string(o.code) : "signal " + std::to_string(o.signal))
            << ", max RSS " << o.max_rss_kb / 1024 << " MiB, output:\n" << o.output;
}

// Runs pgn-index with args (no shell), stdout and stderr into one file; returns how it ended.
Outcome run_index(const fs::path& dir, const std::vector<std::string>& args) {
  const fs::path log = dir / "output.txt";
  const pid_t pid = fork();
  if (pid == 0) {
    int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, STDOUT_FILENO);
    dup2(fd, STDERR_FILENO);
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(kIndexBinary.c_str()));
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(kIndexBinary.c_str(), argv.data());
    _exit(127);
  }
  Outcome o;
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  o.exited = WIFEXITED(status);
  o.code = o.exited ? WEXITSTATUS(status) : -1;
  o.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  o.max_rss_kb = usage.ru_maxrss;
  o.output = test::read_file(log);
  return o;
}

// A fresh folder per test, removed afterwards.
class HostileInput : public test::TempDirTest {
 protected:
  void SetUp() override {
    test::TempDirTest::SetUp();
    ASSERT_TRUE(fs::exists(kIndexBinary)) << kIndexBinary << " is not built";
    db_ = (dir_ / "games.db").string();
  }
  void TearDown() override {
    std::error_code ignored;
    fs::permissions(dir_, fs::perms::owner_all, fs::perm_options::add, ignored);
    test::TempDirTest::TearDown();
  }

  // Writes name in the test's folder; returns its path.
  std::string write_file(const std::string& name, const std::string& bytes) {
    const fs::path path = dir_ / name;
    test::write_file(path, bytes);
    return path.string();
  }
  Outcome index(const std::vector<std::string>& inputs, std::vector<std::string> extra = {}) {
    // The inputs repeat one game many times: keep every copy, the counts are the point.
    std::vector<std::string> args = {"-o", db_, "--threads", "2", "--keep-duplicates"};
    args.insert(args.end(), extra.begin(), extra.end());
    args.insert(args.end(), inputs.begin(), inputs.end());
    return run_index(dir_, args);
  }
  int64_t count(const std::string& sql) {
    store::Database db(db_, store::Database::Mode::ReadOnly);
    store::Statement s = db.prepare(sql);
    return s.step() ? s.column_int64(0) : -1;
  }

  std::string db_;
};

// Exit 1 with exactly one line, "pgn-index: ..." naming what went wrong.
void expect_one_line_error(const Outcome& o, const std::string& mentions) {
  ASSERT_FALSE(o.crashed()) << o;
  EXPECT_EQ(o.code, 1) << o;
  const std::vector<std::string> lines = o.lines();
  ASSERT_EQ(lines.size(), 1u) << o;
  EXPECT_EQ(lines[0].rfind("pgn-index: ", 0), 0u) << o;
  EXPECT_NE(lines[0].find(mentions), std::string::npos) << "expected '" << mentions << "' in: " << lines[0];
}

// Exit 0, no sanitizer report.
void expect_clean_success(const Outcome& o) {
  ASSERT_FALSE(o.crashed()) << o;
  EXPECT_EQ(o.code, 0) << o;
  EXPECT_EQ(o.output.find("Sanitizer"), std::string::npos) << o;
  EXPECT_EQ(o.output.find("runtime error"), std::string::npos) << o;
}

// Memory stays bounded on a 10 MB token: the reader is zero-copy, so a few copies of the
// token at most. Sanitizer builds carry ASan's shadow memory and quarantine on top.
void expect_bounded_memory(const Outcome& o) {
  const long limit_mb = kSanitized ? 1536 : 512;
  ::testing::Test::RecordProperty("max_rss_mb", int(o.max_rss_kb / 1024));
  std::printf("pgn-index max RSS %ld MiB (limit %ld)\n", o.max_rss_kb / 1024, limit_mb);
  EXPECT_LT(o.max_rss_kb / 1024, limit_mb) << o;
}

std::string zstd_compress(const std::string& text) {
  std::string out(ZSTD_compressBound(text.size()), '\0');
  size_t n = ZSTD_compress(out.data(), out.size(), text.data(), text.size(), 3);
  EXPECT_FALSE(ZSTD_isError(n));
  out.resize(n);
  return out;
}

std::string random_bytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::string bytes(n, '\0');
  for (char& c : bytes) c = char(rng() & 0xFF);
  return bytes;
}

const std::string kGoodGame =
    "[Event \"Good\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n"
    "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n";

TEST_F(HostileInput, EmptyFileImportsNothing) {
  Outcome o = index({write_file("empty.pgn", "")});
  expect_clean_success(o);
  EXPECT_EQ(count("SELECT COUNT(*) FROM games"), 0);
  EXPECT_EQ(count("SELECT COUNT(*) FROM sources"), 1);
}

TEST_F(HostileInput, DirectoryIsAnError) {
  fs::create_directories(dir_ / "folder.pgn");
  expect_one_line_error(index({(dir_ / "folder.pgn").string()}), "folder.pgn");
}

TEST_F(HostileInput, MissingPathIsAnError) {
  expect_one_line_error(index({(dir_ / "nowhere.pgn").string()}), "nowhere.pgn");
}

TEST_F(HostileInput, BinaryGarbageIsRefusedAndNothingIsWritten) {
  const std::string garbage = write_file("garbage.pgn", random_bytes(1 << 20, 5));
  Outcome o = index({garbage});
  expect_one_line_error(o, garbage + ": not a PGN file (looks like binary data)");
  EXPECT_FALSE(fs::exists(db_)) << "a refused run leaves no database behind";
  // Beside a good file, the refused one is reported and skipped: the good one is imported.
  Outcome after_good = index({write_file("good.pgn", kGoodGame), garbage});
  EXPECT_EQ(after_good.code, 1) << after_good;
  EXPECT_NE(after_good.output.find("garbage.pgn: not a PGN file (looks like binary data)"), std::string::npos)
      << after_good;
  EXPECT_EQ(count("SELECT COUNT(*) FROM games"), 1);
  EXPECT_EQ(count("SELECT COUNT(*) FROM sources"), 1);
}

TEST_F(HostileInput, GarbageAfterTheFirst64KiBIsLeftToTheReader) {
  // The text test looks at the first 64 KiB: garbage later is the reader's business.
  std::string text;
  while (text.size() < (size_t{64} << 10)) text += kGoodGame;
  Outcome o = index({write_file("game-then-garbage.pgn", text + random_bytes(1 << 16, 6) + "\n\n" + kGoodGame)});
  expect_clean_success(o);
  EXPECT_EQ(count("SELECT COUNT(*) FROM games"), int64_t(text.size() / kGoodGame.size() + 1));
  EXPECT_EQ(count("SELECT games_found - imported - rejected FROM sources"), 0);
}

TEST_F(HostileInput, FilesThatAreNotPgnAreNamed) {
  const std::pair<std::string, std::string> cases[] = {
      {"\x89PNG\r\n\x1A\n"s + random_bytes(2000, 9), "a PNG image"},
      {"\xFF\xD8\xFF\xE0"s + random_bytes(2000, 10), "a JPEG image"},
      {"%PDF-1.4\n%\xE2\xE3\xCF\xD3\n1 0 obj\n<< >>\nendobj\n"s, "a PDF document"},
      {"\x7F" "ELF\x02\x01\x01"s + std::string(1000, '\0'), "an ELF executable"},
  };
  for (const auto& [bytes, looks_like] : cases) {
    const std::string file = write_file("input.pgn", bytes);
    expect_one_line_error(index({file}), file + ": not a PGN file (looks like " + looks_like + ")");
    EXPECT_FALSE(fs::exists(db_)) << looks_like;
  }
  // An SQLite file is a database to merge (database_merge.h): with an SQLite header and
  // nothing readable behind it, one line too.
  const std::string sqlite = write_file("input.pgn", "SQLite format 3\0"s + random_bytes(4080, 8));
  expect_one_line_error(index({sqlite}), sqlite);
  EXPECT_FALSE(fs::exists(db_));
  // An existing database is left as it was: no source row for the refused file, and a
  // copy of the database merges nothing (its source is in it already).
  expect_clean_success(index({write_file("a.pgn", kGoodGame)}));
  expect_one_line_error(index({sqlite}), sqlite);
  const std::string other_db = (dir_ / "other.db").string();
  fs::copy_file(db_, other_db);
  const Outcome copy = index({other_db});
  expect_clean_success(copy);
  EXPECT_NE(copy.output.find("already in the database (source 1)"), std::string::npos) << copy;
  EXPECT_EQ(count("SELECT COUNT(*) FROM sources"), 1);
}

TEST_F(HostileInput, BinaryOnStdinIsRefused) {
  const std::string noise = write_file("noise.bin", random_bytes(1 << 16, 11));
  const pid_t pid = fork();
  if (pid == 0) {
    int fd = open(noise.c_str(), O_RDONLY);
    dup2(fd, STDIN_FILENO);
    int out = open((dir_ / "output.txt").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(out, STDOUT_FILENO);
    dup2(out, STDERR_FILENO);
    execl(kIndexBinary.c_str(), kIndexBinary.c_str(), "-o", db_.c_str(), "-", static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 1);
  const std::string output = test::read_file(dir_ / "output.txt");
  EXPECT_EQ(output, "pgn-index: <stdin>: not a PGN file (looks like binary data)\n");
  EXPECT_FALSE(fs::exists(db_)) << "a run that imported nothing leaves no new database";
}

TEST_F(HostileInput, OnlyTags) {
  Outcome o = index({write_file("tags.pgn", "[Event \"Only tags\"]\n[White \"A\"]\n[Black \"B\"]\n")});
  expect_clean_success(o);
  EXPECT_EQ(count("SELECT COUNT(*) FROM sources WHERE games_found = 1 AND imported + rejected = 1"), 1);
  EXPECT_EQ(count("SELECT COALESCE(MAX(plies), 0) FROM games"), 0);
}

TEST_F(HostileInput, TenMegabyteTagValue) {
  const std::string value(10 << 20, 'x');
  Outcome o = index({write_file("big-tag.pgn", "[Event \"" + value + "\"]\n[White \"A\"]\n\n1. e4 e5 *\n\n" + kGoodGame)});
  expect_clean_success(o);
  expect_bounded_memory(o);
  EXPECT_EQ(count("SELECT COUNT(*) FROM games"), 2);
  EXPECT_EQ(count("SELECT MAX(LENGTH(name)) FROM names"), int64_t(value.size()));
}

TEST_F(HostileInput, TenMegabyteComment) {
  const std::string comment(10 << 20, 'c');
  Outcome o = index({write_file("big-comment.pgn", "[Event \"C\"]\n\n1. e4 {" + comment + "} e5 *\n\n" + kGoodGame)});
  expect_clean_success(o);
  expect_bounded_memory(o);
  EXPECT_EQ(count("SELECT COUNT(*) FROM games"), 2);
  EXPECT_EQ(count("SELECT COUNT(*) FROM game_annotations"), 1);
}

TEST_F(HostileInput, HundredThousandNestedVariations) {
  std::string text = "[Event \"Deep\"]\n\n1. e4 ";
  for (int i = 0; i < 100000; ++i) text += "(1. d4 ";
  text += std::string(100000, ')') + " e5 *\n\n";
  Outcome o = index({write_file("deep.pgn", text + kGoodGame)});
  expect_clean_success(o);
  EXPECT_EQ(count("SELECT COUNT(*) FROM games"), 2);
  EXPECT_EQ(count("SELECT plies FROM games WHERE id = 1"), 2);
  // Unbalanced the other way: 100,000 opened and never closed is a counted reject.
  std::string open_only = "[Event \"Open\"]\n\n1. e4 ";
  for (int i = 0; i < 100000; ++i) open_only += "(1. d4 ";
  Outcome unbalanced = index({write_file("open.pgn", open_only + "*\n\n" + kGoodGame)});
  expect_clean_success(unbalanced);
  EXPECT_EQ(count("SELECT rejected FROM sources ORDER BY id DESC LIMIT 1"), 1);
}

// Move counters at their limits (core/board.h): the largest fullmove number followed by
// Black moves counts on (it overflowed an int: UBSan stopped the import), also in a
// reject's message; a halfmove clock beyond 16 bits is a bad FEN, not a wrapped clock.
TEST_F(HostileInput, FenCountersAtTheirLimits) {
  const std::string fen = "[FEN \"4k3/8/8/8/8/8/8/4K3 b - - 0 2147483647\"]\n[SetUp \"1\"]\n";
  const std::string text = "[Event \"Last move\"]\n" + fen + "\n2147483647... Kd8 2147483648. Kd2 Ke8 *\n\n" +
                           "[Event \"Illegal\"]\n" + fen + "\n2147483647... Kd8 2147483648. Kd2 Ke1 *\n\n" +
                           "[Event \"Clock\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 70000 9\"]\n\n9. Kd2 *\n\n";
  Outcome o = index({write_file("counters.pgn", text)});
  expect_clean_success(o);
  EXPECT_EQ(count("SELECT plies FROM games"), 3);
  store::Database db(db_, store::Database::Mode::ReadOnly);
  store::Statement reasons = db.prepare("SELECT reason FROM rejects ORDER BY id");
  ASSERT_TRUE(reasons.step());
  EXPECT_NE(std::string(reasons.column_text(0)).find("(2147483648... Ke1)"), std::string::npos) << reasons.column_text(0);
  ASSERT_TRUE(reasons.step());
  EXPECT_NE(std::string(reasons.column_text(0)).find("halfmove clock field '70000': larger than 65535"), std::string::npos)
      << reasons.column_text(0);
}

TEST_F(HostileInput, SeventyThousandPliesInOneGame) {
  // Knights shuffling out and back: legal, and the start position recurs every 4 plies,
  // past ply 65,535 (a 16-bit ply would wrap or saturate there).
  constexpr int kRounds = 17500;
  std::string text = "[Event \"Long\"]\n\n";
  for (int i = 0; i < kRounds; ++i) {
    text += std::to_string(2 * i + 1) + ". Nf3 Nf6 " + std::to_string(2 * i + 2) + ". Ng1 Ng8 ";
    if (i % 8 == 7) text += "\n";
  }
  text += "1/2-1/2\n";
  Outcome o = index({write_file("long.pgn", text)});
  expect_clean_success(o);
  EXPECT_EQ(count("SELECT plies FROM games"), 4 * kRounds);
  EXPECT_EQ(count("SELECT LENGTH(moves) >= 1 FROM games"), 1);
  store::Database db(db_, store::Database::Mode::ReadOnly);
  store::PositionIndexReader reader(db);
  EXPECT_EQ(reader.lookup(Board().key()).size(), size_t{kRounds} + 1);
  // The search finds every occurrence at its true ply (0, 4, ... 70,000).
  search::SearchOptions options;
  options.filter.position = Board();
  search::GameSearch search(db, options);
  ASSERT_TRUE(search.next());
  const std::span<const uint32_t> plies = search.plies();
  ASSERT_EQ(plies.size(), size_t{kRounds} + 1);
  for (size_t i = 0; i < plies.size(); ++i) ASSERT_EQ(plies[i], 4 * i) << i;
  EXPECT_FALSE(search.next());
}

TEST_F(HostileInput, NulBytesInsideAGame) {
  using namespace std::string_literals;
  const std::string text = "[Event \"Nul\"]\n\n1. e4 \0 e5 *\n\n"s + "[Event \"Tag\0Nul\"]\n\n1. d4 d5 *\n\n"s +
                           "[Event \"Move\"]\n\n1. e4\0\0 e5 *\n\n"s + kGoodGame;
  Outcome o = index({write_file("nul.pgn", text)});
  expect_clean_success(o);
  EXPECT_EQ(count("SELECT games_found FROM sources"), 4);
  EXPECT_EQ(count("SELECT imported + rejected FROM sources"), 4);
  EXPECT_GE(count("SELECT COUNT(*) FROM games WHERE plies = 7"), 1);  // the good game
}

TEST_F(HostileInput, TruncatedZstdIsAnErrorAndLeavesNothing) {
  std::string text;
  for (int i = 0; i < 2000; ++i) text += kGoodGame;
  const std::string compressed = zstd_compress(text);
  expect_clean_success(index({write_file("before.pgn", "[Event \"Before\"]\n\n1. d4 d5 *\n")}));
  Outcome o = index({write_file("cut.pgn.zst", compressed.substr(0, compressed.size() / 2))});
  expect_one_line_error(o, "cut.pgn.zst");
  EXPECT_EQ(count("SELECT COUNT(*) FROM games"), 1);  // the earlier file only
  EXPECT_EQ(count("SELECT COUNT(*) FROM sources"), 1);
}

TEST_F(HostileInput, CompressedNonPgnIsRefused) {
  const std::string zst = write_file("noise.pgn.zst", zstd_compress(random_bytes(1 << 20, 7)));
  expect_one_line_error(index({zst}), zst + ": not a PGN file (looks like binary data)");
  const std::string gz = write_file("noise.pgn.gz", test::compress_stream(random_bytes(1 << 20, 7), test::StreamFormat::Gzip));
  expect_one_line_error(index({gz}), gz + ": not a PGN file (looks like binary data)");
  EXPECT_FALSE(fs::exists(db_));
}

TEST_F(HostileInput, ZstdWindowOverTheLimitIsAnError) {
  // A frame header asking for a 2 GiB window (zstd --long=31), one raw block of a game.
  std::string frame = "\x28\xB5\x2F\xFD\x00\xA8"s;
  const uint32_t block = uint32_t(kGoodGame.size()) << 3 | 1;
  frame += {char(block & 0xFF), char(block >> 8 & 0xFF), char(block >> 16 & 0xFF)};
  const std::string file = write_file("long31.pgn.zst", frame + kGoodGame);
  Outcome o = index({file});
  expect_one_line_error(o, "a zstd frame asks for a window over 128 MiB");
  EXPECT_LT(o.max_rss_kb / 1024, kSanitized ? 1024 : 256) << "the window was not allocated";
}

TEST_F(HostileInput, TruncatedGzipIsAnErrorAndLeavesNothing) {
  std::string text;
  for (int i = 0; i < 20000; ++i) text += kGoodGame;
  const std::string compressed = test::compress_stream(text, test::StreamFormat::Gzip);
  expect_clean_success(index({write_file("before.pgn", "[Event \"Before\"]\n\n1. d4 d5 *\n")}));
  Outcome o = index({write_file("cut.pgn.gz", compressed.substr(0, compressed.size() / 2))});
  expect_one_line_error(o, "cut.pgn.gz': truncated gzip data");
  EXPECT_EQ(count("SELECT COUNT(*) FROM games"), 1);  // the earlier file only
  EXPECT_EQ(count("SELECT COUNT(*) FROM sources"), 1);
}

TEST_F(HostileInput, ZipMembersAreImportedOneSourceEach) {
  const std::string zip = write_file("twic1500.zip", test::make_zip({{"twic1500.pgn", kGoodGame + kGoodGame},
                                                                     {"readme.txt", "TWIC 1500"},
                                                                     {"extra/more.PGN", "[Event \"B\"]\n\n1. d4 d5 *\n"}}));
  Outcome o = index({zip});
  expect_clean_success(o);
  const std::vector<std::string> lines = o.lines();
  ASSERT_EQ(lines.size(), 4u) << o;  // a summary and a positions line per member
  EXPECT_EQ(lines[0].rfind(zip + ":twic1500.pgn: 2 games found, 2 imported, 0 rejected", 0), 0u) << o;
  EXPECT_EQ(lines[2].rfind(zip + ":extra/more.PGN: 1 game found, 1 imported, 0 rejected", 0), 0u) << o;
  EXPECT_EQ(count("SELECT COUNT(*) FROM sources WHERE path = '" + zip + ":twic1500.pgn'"), 1);
  EXPECT_EQ(count("SELECT COUNT(*) FROM sources WHERE path = '" + zip + ":extra/more.PGN'"), 1);
  // One member on its own, by its source path: already there.
  Outcome again = index({zip + ":extra/more.PGN"});
  expect_clean_success(again);
  EXPECT_NE(again.output.find("already in the database (source 2)"), std::string::npos) << again;
}

TEST_F(HostileInput, ZipWithoutPgnIsAnError) {
  const std::string zip = write_file("photos.zip", test::make_zip({{"board.png", "\x89PNG\r\n"}}));
  expect_one_line_error(index({zip}), "photos.zip': the zip archive holds no .pgn file");
  EXPECT_FALSE(fs::exists(db_));
}

TEST_F(HostileInput, ReadOnlyDatabase) {
  if (geteuid() == 0) GTEST_SKIP() << "running as root: chmod does not stop root from writing";
  expect_clean_success(index({write_file("a.pgn", kGoodGame)}));
  const std::string second = write_file("b.pgn", "[Event \"B\"]\n\n1. d4 d5 *\n");
  fs::permissions(db_, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  fs::permissions(dir_, fs::perms::owner_read | fs::perms::owner_exec);
  Outcome o = index({second});
  expect_one_line_error(o, "games.db");
  fs::permissions(dir_, fs::perms::owner_all);
  EXPECT_EQ(count("SELECT COUNT(*) FROM games"), 1);
}

// Another writer's lock is waited for, however long it is held (issue 13, part 4).
TEST_F(HostileInput, DatabaseLockedByAnotherWriterIsWaitedFor) {
  expect_clean_success(index({write_file("a.pgn", kGoodGame)}));
  store::Database holder(db_, store::Database::Mode::ReadWrite);
  holder.exec("BEGIN IMMEDIATE");
  // Held past SQLite's old 5 s busy timeout; the import runs meanwhile on this thread.
  std::thread release([&] {
    std::this_thread::sleep_for(std::chrono::seconds(6));
    holder.exec("ROLLBACK");
  });
  Outcome o = index({write_file("b.pgn", "[Event \"B\"]\n\n1. d4 d5 *\n")});
  release.join();
  expect_clean_success(o);
  EXPECT_EQ(count("SELECT COUNT(*) FROM games"), 2);
}

TEST_F(HostileInput, DatabaseThatIsNotSqlite) {
  const std::string text = "This is a text file, not an SQLite database.\n" + std::string(8192, 'z');
  write_file("games.db", text);
  Outcome o = index({write_file("a.pgn", kGoodGame)});
  expect_one_line_error(o, "games.db");
  const std::string after = test::read_file(db_);
  EXPECT_EQ(after, text) << "the file was changed";
}

TEST_F(HostileInput, DatabaseFromANewerSchema) {
  expect_clean_success(index({write_file("a.pgn", kGoodGame)}));
  {
    store::Database db(db_, store::Database::Mode::ReadWrite);
    db.exec("UPDATE meta SET value = '999' WHERE key = 'schema_version'");
  }
  Outcome o = index({write_file("b.pgn", "[Event \"B\"]\n\n1. d4 d5 *\n")});
  expect_one_line_error(o, "999");
  EXPECT_NE(o.output.find("newer"), std::string::npos) << o;
  EXPECT_EQ(count("SELECT COUNT(*) FROM games"), 1);
}

// A database of schema version 1 (before format 2) gets one line saying how to rebuild
// it, from both programs, and is left unchanged.
TEST_F(HostileInput, DatabaseFromAnOlderSchema) {
  expect_clean_success(index({write_file("a.pgn", kGoodGame)}));
  {
    store::Database db(db_, store::Database::Mode::ReadWrite);
    db.exec("UPDATE meta SET value = '1' WHERE key = 'schema_version'");
  }
  Outcome o = index({write_file("b.pgn", "[Event \"B\"]\n\n1. d4 d5 *\n")});
  expect_one_line_error(o, "older pgnbase");
  EXPECT_NE(o.output.find("rebuild"), std::string::npos) << o;
  EXPECT_EQ(count("SELECT COUNT(*) FROM games"), 1);
  EXPECT_EQ(count("SELECT value FROM meta WHERE key = 'schema_version'"), 1);
}

}  // namespace
}  // namespace pgnbase
