// A database from someone else, run through every pgn-query command as a real process:
// the two blobs, a hostile schema, then copies of a real database damaged at
// random (bytes flipped in blobs and in the file, blobs swapped between rows). Every
// command must end by itself with exit 0 or 1 (never a signal), print only one-line
// `pgn-query ...` errors, name each corrupt game once, and stay within a memory bound;
// export-dataset also leaves no temporary file. A dataset's _meta from someone else
// (hostile values, random damage) is refused in one line, the dataset left as it was.
// The database holds the games of tests/fuzz/data/database_base.pgn (real games).
#include <sys/resource.h>
#include <sys/wait.h>

#include <chrono>
#include <map>
#include <random>
#include <set>
#include <thread>

#include "store/database.h"
#include "tests/cli/cli_support.h"
#include "tests/support/files.h"

namespace pgnbase::cli_test {
namespace {

using store::Database;

const std::string kAfterE4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
// Peak RSS any command may reach on these 100 KB databases: an ASan Debug pgn-query
// needs about 30-60 MiB; the blobs took over 1 GiB.
constexpr long kMaxRssKib = 300 * 1024;
constexpr auto kMaxSeconds = std::chrono::seconds(60);

struct Measured {
  Ran ran;
  long max_rss_kib = 0;
};

class CorruptDatabase : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    if (HasFatalFailure()) return;
    base_ = path("base.db");
    const Ran import = index({"-q", "-o", base_, PGNBASE_SOURCE_DIR "/tests/fuzz/data/database_base.pgn"});
    ASSERT_EQ(import.code, 0) << import;
    Database db(base_, Database::Mode::ReadWrite);
    db.exec("PRAGMA journal_mode=DELETE");  // one file: its bytes are the whole database
  }

  // Runs pgn-query with a watchdog (kMaxSeconds, then SIGKILL) and its peak RSS.
  Measured query_measured(const std::vector<std::string>& args) {
    const pid_t pid = start(dir_, kQueryBinary, args);
    const auto deadline = std::chrono::steady_clock::now() + kMaxSeconds;
    int status = 0;
    rusage usage{};
    while (wait4(pid, &status, WNOHANG, &usage) == 0) {
      if (std::chrono::steady_clock::now() > deadline) {
        kill(pid, SIGKILL);
        ADD_FAILURE() << "pgn-query ran over " << kMaxSeconds.count() << " s: " << testing::PrintToString(args);
        wait4(pid, &status, 0, &usage);
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    Measured m;
    m.ran.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    m.ran.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    m.ran.out = test::read_file(dir_ / "stdout.txt");
    m.ran.err = test::read_file(dir_ / "stderr.txt");
    m.max_rss_kib = usage.ru_maxrss;
    return m;
  }

  // Every query command on db; returns the corrupt games each named.
  void run_every_command(const std::string& db, const std::string& what) {
    const std::vector<std::vector<std::string>> commands = {
        {"search", db},
        {"search", db, "--format", "jsonl"},
        {"search", db, "--format", "pgn", "-j", "4"},
        {"search", db, "--fen", kAfterE4},
        {"search", db, "--fen", kAfterE4, "--format", "jsonl"},
        {"search", db, "--fen", kAfterE4, "--count"},
        {"search", db, "--eco", "B", "--order", "elo", "--format", "pgn"},
        {"export", db, "-o", path("out.pgn"), "-j", "2"},
        {"explore", db},
        {"explore", db, "--fen", kAfterE4, "--json"},
        {"stats", db},
        {"stats", db, "--json"},
        {"rejects", db, "-o", path("rejects.pgn")},
        {"export-dataset", db, path("dataset-" + std::to_string(++datasets_)), "--bucket-bits", "1"},
    };
    for (const auto& args : commands) {
      const Measured m = query_measured(args);
      const std::string context = what + ": pgn-query " + testing::PrintToString(args);
      ASSERT_EQ(m.ran.signal, 0) << context << "\n" << m.ran;
      EXPECT_TRUE(m.ran.code == 0 || m.ran.code == 1) << context << "\n" << m.ran;
      EXPECT_LT(m.max_rss_kib, kMaxRssKib) << context;
      std::set<std::string> corrupt;
      for (const std::string& line : m.ran.err_lines()) {
        EXPECT_EQ(line.rfind("pgn-query", 0), 0u) << context << "\n" << m.ran;
        EXPECT_EQ(line.find("AddressSanitizer"), std::string::npos) << context << "\n" << m.ran;
        if (const size_t at = line.find("corrupt game "); at != std::string::npos) {
          EXPECT_TRUE(corrupt.insert(line.substr(at, line.find(':', at) - at)).second)
              << "named twice: " << line << "\n" << context;
        }
      }
      if (args[0] == "export-dataset" && fs::exists(args[2])) {
        for (const auto& e : fs::recursive_directory_iterator(args[2]))
          EXPECT_FALSE(e.path().filename().string().starts_with(".")) << context << ": left " << e.path();
      }
      EXPECT_FALSE(HasFatalFailure());
    }
  }

  std::string damaged_copy(const std::string& name) {
    const std::string copy = path(name);
    fs::copy_file(base_, copy, fs::copy_options::overwrite_existing);
    return copy;
  }

  static void set_moves(const std::string& db_path, int64_t id, const std::string& blob, int64_t plies) {
    Database db(db_path, Database::Mode::ReadWrite);
    store::Statement s = db.prepare("UPDATE games SET moves = ?1, plies = ?2 WHERE id = ?3");
    s.bind_blob(1, std::span(reinterpret_cast<const uint8_t*>(blob.data()), blob.size()));
    s.bind_int64(2, plies);
    s.bind_int64(3, id);
    s.run();
  }

  std::string base_;
  int datasets_ = 0;
};

std::string raw_moves(std::initializer_list<std::pair<Square, Square>> moves) {
  std::string blob(1, '\0');
  for (auto [from, to] : moves) {
    const unsigned code = unsigned(from) | unsigned(to) << 6;
    blob += char(code & 0xFF);
    blob += char(code >> 8);
  }
  return blob;
}

// The moves blob: e4 f6 Qh5 a6 Qxe8 b6. search --fen, --format jsonl and export
// died with SIGSEGV (a6 leaves the king in check; Qxe8 then captures it).
TEST_F(CorruptDatabase, KingCaptureIsNamedOnceAndTheOtherGamesWritten) {
  const std::string db = damaged_copy("king.db");
  set_moves(db, 2, raw_moves({{SQ_E2, SQ_E4}, {SQ_F7, SQ_F6}, {SQ_D1, SQ_H5}, {SQ_A7, SQ_A6}, {SQ_H5, SQ_E8}, {SQ_B7, SQ_B6}}), 6);
  const std::string expected = "corrupt game 2: move code 0x0A30 at ply 4 is not a legal move";
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"search", db, "--format", "jsonl"}, {"export", db, "-o", path("out.pgn")}, {"search", db, "--format", "pgn", "-j", "3"}}) {
    const Measured m = query_measured(args);
    ASSERT_EQ(m.ran.signal, 0) << m.ran;
    EXPECT_EQ(m.ran.code, 1) << m.ran;
    ASSERT_EQ(m.ran.err_lines().size(), args[0] == "export" ? 2u : 1u) << m.ran;  // export adds its count
    EXPECT_EQ(m.ran.err_lines()[0], "pgn-query " + args[0] + ": " + expected) << m.ran;
  }
  const Measured jsonl = query_measured({"search", db, "--format", "jsonl"});
  EXPECT_EQ(std::count(jsonl.ran.out.begin(), jsonl.ran.out.end(), '\n'), 8) << "the 8 other games";
  // The position index still says game 2 reaches 1.e4: its replay is what fails.
  const Measured fen = query_measured({"search", db, "--fen", "rnbqkbnr/ppppp1pp/5p2/7Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2"});
  EXPECT_EQ(fen.ran.signal, 0) << fen.ran;
  run_every_command(db, "king capture");
}

// The 14-byte moves blob stating a 1 GiB frame: export took 1.06 GB per game.
TEST_F(CorruptDatabase, ZstdFrameStatingAGibibyteCostsNoMemory) {
  const std::string db = damaged_copy("zstd.db");
  for (int64_t id : {1, 3, 5})
    set_moves(db, id, std::string("\x01\x28\xB5\x2F\xFD\xA0\x00\x00\x00\x40\x0B\x00\x00\x78", 14), 1);
  const Measured m = query_measured({"export", db, "-o", path("out.pgn"), "-j", "4"});
  ASSERT_EQ(m.ran.signal, 0) << m.ran;
  EXPECT_EQ(m.ran.code, 1) << m.ran;
  EXPECT_LT(m.max_rss_kib, kMaxRssKib) << m.ran;
  EXPECT_NE(m.ran.err.find("corrupt game 3: the moves blob does not decode"), std::string::npos) << m.ran;
  run_every_command(db, "zstd frame");
}

// Files that are SQLite but not what pgnbase wrote: one line, exit 1.
TEST_F(CorruptDatabase, HostileSchemasAreOneLineErrors) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"UPDATE meta SET value = '999' WHERE key = 'schema_version'", "newer pgnbase"},
      {"UPDATE meta SET value = 'x' || char(10) || char(27) || '[2J' WHERE key = 'schema_version'",
       "no numeric schema_version"},
      {"DROP TABLE meta", "not a pgnbase database"},
      {"DROP TABLE games; CREATE VIRTUAL TABLE games USING fts4(moves)", "not a pgnbase database"},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    const std::string db = damaged_copy("schema" + std::to_string(i) + ".db");
    Database(db, Database::Mode::ReadWrite).exec(cases[i].first);
    for (const char* command : {"search", "explore", "stats"}) {
      const Measured m = query_measured({command, db});
      EXPECT_EQ(m.ran.code, 1) << cases[i].first << "\n" << m.ran;
      ASSERT_EQ(m.ran.err_lines().size(), 1u) << cases[i].first << "\n" << m.ran;
      EXPECT_NE(m.ran.err.find(cases[i].second), std::string::npos) << m.ran;
    }
  }
  // Missing index tables stop only what needs them; a trigger and a view are inert.
  const std::string db = damaged_copy("partial.db");
  Database(db, Database::Mode::ReadWrite)
      .exec("DROP TABLE position_blocks; CREATE VIEW v AS WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL "
            "SELECT n + 1 FROM c) SELECT n FROM c; CREATE TRIGGER t AFTER INSERT ON names BEGIN DELETE FROM games; END");
  const Measured fen = query_measured({"search", db, "--fen", kAfterE4});
  EXPECT_EQ(fen.ran.code, 1) << fen.ran;
  EXPECT_EQ(fen.ran.err_lines().size(), 1u) << fen.ran;
  EXPECT_EQ(query_measured({"search", db, "--format", "pgn"}).ran.code, 0);
  run_every_command(db, "partial schema");
}

// Random damage, seeded: bytes flipped in every kind of blob and text, blobs swapped
// between rows, and in the last rounds bytes flipped in the file itself.
TEST_F(CorruptDatabase, RandomDamageNeverCrashesAnyCommand) {
  std::mt19937 rng(20261123);
  const char* columns[][3] = {{"games", "moves", "id"},         {"games", "tags", "id"},
                              {"game_annotations", "annotations", "id"}, {"position_blocks", "data", "block_id"},
                              {"games", "start_fen", "id"}};
  for (int round = 0; round < 7; ++round) {
    const std::string db = damaged_copy("random" + std::to_string(round) + ".db");
    {
      Database d(db, Database::Mode::ReadWrite);
      for (int change = 0; change < 6; ++change) {
        const auto& c = columns[rng() % std::size(columns)];
        const std::string select = std::string("SELECT ") + c[2] + ", " + c[1] + " FROM " + c[0] + " ORDER BY random()";
        store::Statement rows = d.prepare(select);
        if (!rows.step()) continue;
        const int64_t key = rows.column_int64(0);
        std::string value(reinterpret_cast<const char*>(rows.column_blob(1).data()), rows.column_blob(1).size());
        if (rows.step() && rng() % 3 == 0) {  // another row's value
          value.assign(reinterpret_cast<const char*>(rows.column_blob(1).data()), rows.column_blob(1).size());
        } else if (!value.empty()) {
          for (int flips = 1 + int(rng() % 4); flips > 0; --flips) value[rng() % value.size()] ^= char(1 + rng() % 255);
        }
        rows.reset();
        store::Statement update =
            d.prepare(std::string("UPDATE ") + c[0] + " SET " + c[1] + " = ?1 WHERE " + c[2] + " = ?2");
        update.bind_blob(1, std::span(reinterpret_cast<const uint8_t*>(value.data()), value.size()));
        update.bind_int64(2, key);
        update.run();
      }
    }
    if (round >= 4) {  // the file's own bytes: cells and pages past the schema, then anywhere
      std::string bytes = test::read_file(db);
      const size_t first = round == 6 ? 0 : 4096;
      for (int flips = 0; flips < 12; ++flips) bytes[first + rng() % (bytes.size() - first)] ^= char(1 + rng() % 255);
      test::write_file(db, bytes);
    }
    run_every_command(db, "random round " + std::to_string(round));
  }
}

// Every file under dir (relative path -> bytes).
std::map<std::string, std::string> files_under(const fs::path& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) out[fs::relative(e.path(), dir).string()] = test::read_file(e.path());
  return out;
}

// A dataset's _meta with hostile values: bucket_bits 64 was SIGSEGV, 20 left 19,992
// spill files, -1 and 40 printed raw C++ messages. Every value is now range-checked:
// one line naming _meta, exit 1, no file written. Then _meta damaged at random (bytes
// flipped, lines cut): never a signal, one-line errors, no temporary left.
TEST_F(CorruptDatabase, DamagedMetaIsRefusedInOneLine) {
  // Two buckets: few files to write (each is synced), the same checks of _meta.
  const std::string dataset = path("dataset"), pristine = path("pristine");
  const Ran first = query_measured({"export-dataset", base_, pristine, "--bucket-bits", "1"}).ran;
  ASSERT_EQ(first.code, 0) << first;
  // One more game in the database, so that an accepted _meta would let an export write.
  const std::string db = damaged_copy("more.db");
  ASSERT_EQ(index({"-q", "-o", db, file("more.pgn", "[Event \"More\"]\n[Result \"*\"]\n\n1. d4 d5 *\n")}).code, 0);
  const std::string meta = test::read_file(pristine + "/_meta");
  fs::copy(pristine, dataset, fs::copy_options::recursive);
  const auto replaced = [&](const std::string& name, const std::string& value) {
    const size_t at = meta.find("\n" + name + ": ") + 1, end = meta.find('\n', at);
    return meta.substr(0, at) + (value == "\x7f" ? "" : name + ": " + value + "\n") + meta.substr(end + 1);
  };
  const std::vector<std::pair<std::string, std::string>> cases = {
      {replaced("bucket_bits", "64"), "bucket_bits 64 is not 0..12"},
      {replaced("bucket_bits", "99999999999999999999"), "bucket_bits 99999999999999999999 is out of range"},
      {replaced("bucket_bits", "20"), "bucket_bits 20 is not 0..12"},
      {replaced("bucket_bits", "-1"), "bucket_bits -1 is not 0..12"},
      {replaced("bucket_bits", "40"), "bucket_bits 40 is not 0..12"},
      {replaced("bucket_bits", "6x"), "bad bucket_bits '6x'"},
      {replaced("bucket_bits", "\x7f"), "no bucket_bits line"},
      {replaced("last_game_id", "-5"), "last_game_id -5 is not 0 or more"},
      {replaced("last_game_id", "99999999999999999999"), "last_game_id 99999999999999999999 is out of range"},
      {replaced("last_change", "-1"), "last_change -1 is not 0 or more"},
      {replaced("live_sources", "0"), "source id 0 is not 1..4294967295"},
      {replaced("live_sources", "1 1"), "a source listed twice in live_sources"},
      {replaced("database_schema_version", "4294967301"), "database_schema_version 4294967301 is not 1..2147483647"},
      {replaced("pgnbase_dataset", "0"), "pgnbase_dataset 0 is not 1 or more"},
      {replaced("database_id", "h64:\x1b]0;pwned\x07\x1b[2J"), "bad database_id 'h64:?]0;pwned??[2J'"},
      {meta + "bucket_bits: 6\n", "bucket_bits given twice"},
      {meta + "export 7: games 1..9\n", "export 7 where export 2 was expected"},
      {meta + "\x1b[2J\n", "unexpected line '?[2J'"},
  };
  for (const auto& [text, expected] : cases) {
    test::write_file(dataset + "/_meta", text);
    const auto before = files_under(dataset);
    const Measured m = query_measured({"export-dataset", db, dataset});
    ASSERT_EQ(m.ran.signal, 0) << expected << "\n" << m.ran;
    EXPECT_EQ(m.ran.code, 1) << expected << "\n" << m.ran;
    ASSERT_EQ(m.ran.err_lines().size(), 1u) << expected << "\n" << m.ran;
    EXPECT_EQ(m.ran.err, "pgn-query export-dataset: " + dataset + "/_meta: " + expected + "\n");
    EXPECT_EQ(files_under(dataset), before) << expected;
    EXPECT_EQ(fs::directory_iterator(dataset)->path().filename().string().find(".export-tmp"), std::string::npos);
  }
  std::mt19937 rng(20261126);
  for (int round = 0; round < 16; ++round) {
    std::string text = meta;
    if (round % 4 == 3) text.resize(rng() % text.size());
    for (int flips = 1 + int(rng() % 3); flips > 0; --flips) text[rng() % text.size()] ^= char(1 + rng() % 255);
    test::write_file(dataset + "/_meta", text);
    const Measured m = query_measured({"export-dataset", db, dataset});
    const std::string context = "round " + std::to_string(round) + ": " + testing::PrintToString(text);
    ASSERT_EQ(m.ran.signal, 0) << context << "\n" << m.ran;
    EXPECT_TRUE(m.ran.code == 0 || m.ran.code == 1) << context << "\n" << m.ran;
    EXPECT_LT(m.max_rss_kib, kMaxRssKib) << context;
    for (const std::string& line : m.ran.err_lines()) {
      EXPECT_EQ(line.rfind("pgn-query export-dataset: ", 0), 0u) << context << "\n" << m.ran;
      EXPECT_EQ(line.find('\x1b'), std::string::npos) << context;
    }
    for (const auto& e : fs::recursive_directory_iterator(dataset))
      EXPECT_FALSE(e.path().filename().string().starts_with(".")) << context << ": left " << e.path();
    // Back to the first export alone, for the next round.
    fs::remove_all(dataset);
    fs::copy(pristine, dataset, fs::copy_options::recursive);
  }
}

}  // namespace
}  // namespace pgnbase::cli_test
