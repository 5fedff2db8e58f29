// Fuzz target: a database from someone else. A small real database (the games of
// tests/fuzz/data/database_base.pgn, imported once per process) is damaged as the input
// says, then the queries run on it: search in each format, with and without a
// position (list and count, one and two threads; PGN is what export writes), explore
// and its replay of lean postings, stats and rejects. The first byte picks the queries
// (run_queries); then damage, a sequence of operations, 4 bytes each plus data:
// replace a blob or text, XOR bytes into it, cut it, empty it, take another row's, set
// an integer column, or XOR bytes into the file itself.
//
// Properties: no crash or sanitizer report (libFuzzer's -malloc_limit_mb bounds what
// one allocation may take); each command either runs or fails with a one-line error;
// every corrupt game is reported once per command, with a one-line reason.
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/fen.h"
#include "indexer/import_pipeline.h"
#include "store/database.h"
#include "query/database_report.h"
#include "query/explorer_output.h"
#include "io/output_file.h"
#include "query/search_output.h"
#include "tests/fuzz/fuzz_check.h"
#include "store/schema_version.h"
#include "tests/support/files.h"

namespace {

using namespace pgnbase;
using namespace pgnbase::query;
using pgnbase::fuzz::check;
using pgnbase::test::read_file;
using pgnbase::test::write_file;
namespace fs = std::filesystem;

struct Column {
  const char* table;
  const char* name;
  const char* key;
};
// What an operation may damage: the blobs and texts that readers decode, and the
// integers that steer them.
constexpr Column kColumns[] = {
    {"games", "moves", "id"},       {"games", "tags", "id"},           {"game_annotations", "annotations", "id"},
    {"position_blocks", "data", "block_id"}, {"games", "start_fen", "id"}, {"games", "plies", "id"},
    {"games", "variant", "id"},     {"position_segments", "key_bits", "segment_id"}, {"games", "result", "id"},
};
constexpr int kColumnCount = int(std::size(kColumns));

// The pristine database, built once: its bytes (rewritten before every input) and path.
struct BaseDatabase {
  fs::path folder, path;
  std::string bytes;

  BaseDatabase() {
    std::string pattern = (fs::temp_directory_path() / "pgnbase-fuzz-db-XXXXXX").string();
    check(mkdtemp(pattern.data()) != nullptr, "cannot make a temporary folder");
    folder = pattern;
    path = folder / "fuzz.db";
    const fs::path games = fs::path(PGNBASE_SOURCE_DIR) / "tests/fuzz/data/database_base.pgn";
    check(fs::exists(games), "missing tests/fuzz/data/database_base.pgn");
    {
      indexer::WriterOptions writer_options;
      writer_options.position_memory_bytes = size_t{16} << 20;
      indexer::DatabaseWriter writer(path.string(), writer_options);
      indexer::ImportOptions options;
      options.threads = 1;
      indexer::import_file(games.string(), writer, options);
    }
    {
      // One file, no WAL beside it, so that the bytes below are the whole database.
      store::Database db(path.string(), store::Database::Mode::ReadWrite);
      db.exec("PRAGMA journal_mode=DELETE");
    }
    bytes = read_file(path);
  }
  ~BaseDatabase() {
    std::error_code ignored;
    fs::remove_all(folder, ignored);
  }
};

class Input {
 public:
  Input(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  bool empty() const { return pos_ >= size_; }
  uint8_t byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  std::string_view bytes(size_t n) {
    n = std::min(n, size_ - std::min(pos_, size_));
    std::string_view out(reinterpret_cast<const char*>(data_) + pos_, n);
    pos_ += n;
    return out;
  }

 private:
  const uint8_t* data_;
  size_t size_, pos_ = 0;
};

int64_t row_key(store::Database& db, const Column& c, uint8_t index) {
  store::Statement s = db.prepare(std::string("SELECT ") + c.key + " FROM " + c.table + " ORDER BY " + c.key +
                                  " LIMIT 1 OFFSET ?1");
  s.bind_int64(1, index % 16);
  return s.step() ? s.column_int64(0) : -1;
}

// XOR bytes into the database file at an offset (taken modulo its size).
struct FilePatch {
  size_t at;
  std::string bytes;
};

// Applies one operation to a row through SQL, or keeps a file patch for later.
void apply(store::Database& db, Input& in, std::vector<FilePatch>& patches) {
  const uint8_t op = in.byte(), column = in.byte(), row = in.byte(), arg = in.byte();
  if (op % 8 == 7) {
    patches.push_back({size_t(column) << 16 | size_t(row) << 8 | arg, std::string(in.bytes(op >> 3))});
    return;
  }
  const Column& c = kColumns[column % kColumnCount];
  const int64_t key = row_key(db, c, row);
  if (key < 0) return;
  const std::string get = std::string("SELECT ") + c.name + " FROM " + c.table + " WHERE " + c.key + " = ?1";
  store::Statement read = db.prepare(get);
  read.bind_int64(1, key);
  if (!read.step()) return;
  std::string value(reinterpret_cast<const char*>(read.column_blob(0).data()), read.column_blob(0).size());
  const int64_t number = read.column_int64(0);
  read.reset();
  store::Statement write =
      db.prepare(std::string("UPDATE ") + c.table + " SET " + c.name + " = ?1 WHERE " + c.key + " = ?2");
  write.bind_int64(2, key);
  switch (op % 8) {
    case 0: value.assign(in.bytes(arg)); break;  // replace
    case 1:                                      // XOR bytes in at an offset
      if (!value.empty()) {
        size_t at = arg % value.size();
        for (char b : in.bytes(op >> 3)) value[at++ % value.size()] ^= b;
      }
      break;
    case 2: value.resize(std::min<size_t>(value.size(), arg)); break;  // cut
    case 3: {                                                          // another row's value
      const int64_t other = row_key(db, c, arg);
      if (other < 0) return;
      read.bind_int64(1, other);
      if (!read.step()) return;
      value.assign(reinterpret_cast<const char*>(read.column_blob(0).data()), read.column_blob(0).size());
      read.reset();
      break;
    }
    case 4: value.clear(); break;
    case 5: write.bind_int64(1, number + int8_t(arg)); write.run(); return;  // nudge an integer
    default: write.bind_int64(1, int64_t(uint64_t(arg) << (row % 64))); write.run(); return;
  }
  if (c.name == std::string_view("start_fen")) write.bind_text(1, value);
  else write.bind_blob(1, std::span(reinterpret_cast<const uint8_t*>(value.data()), value.size()));
  write.run();
}

// Runs f; a std::exception is a command failing with one line, which is fine.
template <typename F>
void run_command(F&& f) {
  try {
    f();
  } catch (const std::exception& e) {
    const std::string_view message = e.what();
    check(!message.empty() && message.find('\n') == std::string_view::npos, "error message is not one line", message);
  }
}

// Collects a command's corrupt-game reports: each game once, each reason one line.
struct CorruptReports {
  std::set<int64_t> ids;
  search::CorruptGameReport report() {
    ids.clear();
    return [this](int64_t id, const std::string& reason) {
      check(ids.insert(id).second, "a corrupt game reported twice", reason);
      check(!reason.empty() && reason.find('\n') == std::string::npos, "corrupt-game reason is not one line", reason);
    };
  }
};

// Runs the queries whose bit is set in mask (0: all): bits 0-2 search as a table, JSON
// Lines and PGN on 2 threads (each with no position, the start position and 1.e4),
// bit 3 a position count, 4 explore, 5 stats, 6 rejects, 7 an ECO search by Elo with a
// position (header filters checked game by game).
void run_queries(const std::string& path, uint8_t mask) {
  if (mask == 0) mask = 0xFF;
  store::Database db = store::open_for_reading(path);
  CorruptReports reports;
  const Board after_e4 = parse_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").value();
  // A command that failed midway leaves its read transaction open; the next starts afresh.
  auto end_transaction = [&] {
    if (db.in_transaction()) db.exec("ROLLBACK");
  };
  for (int format = 0; format < 3; ++format)
    for (int position = 0; position < 3 && (mask >> format & 1); ++position, end_transaction())
      run_command([&] {
        search::SearchOptions search;
        if (position == 1) search.filter.position = Board();
        if (position == 2) search.filter.position = after_e4;
        SearchOutputOptions output;
        output.format = OutputFormat(format);
        output.threads = format == 2 ? 2 : 1;
        output.on_corrupt = reports.report();
        io::OutputFile out("/dev/null");
        run_search(db, search, output, out);
      });
  for (int variant = 3; variant <= 7; variant += 4, end_transaction()) {
    if (!(mask >> variant & 1)) continue;
    run_command([&] {
      search::SearchOptions search;
      search.filter.position = after_e4;
      search.count_threads = 1;
      SearchOutputOptions output;
      output.count_only = variant == 3;
      output.format = OutputFormat::Pgn;
      if (variant == 7) {
        Parsed<search::EcoRange> eco = search::parse_eco_range("B");
        check(eco.ok(), "ECO range B", eco ? "" : eco.error());
        search.filter.eco = *eco;
        search.order = search::GameOrder::Elo;
      }
      output.on_corrupt = reports.report();
      io::OutputFile out("/dev/null");
      run_search(db, search, output, out);
    });
  }
  for (const Board& position : {Board(), after_e4})
    if (mask & 16) run_command([&] {
      search::ExplorerOptions options;
      options.filter.position = position;
      options.on_corrupt = reports.report();
      search::ExplorerResult result = search::explore(db, options);
      io::OutputFile out("/dev/null");
      print_explorer_json(result, out);
      print_explorer_table(result, out);
    });
  if (mask & 32) run_command([&] {
    io::OutputFile out("/dev/null");
    print_stats(db, StatsOptions{}, out);
  });
  end_transaction();
  if (mask & 64) run_command([&] {
    io::OutputFile out("/dev/null");
    RejectsOptions options;
    options.text_path = "/dev/null";
    print_rejects(db, options, out);
  });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static BaseDatabase base;
  if (size > 4096) return 0;
  write_file(base.path, base.bytes);
  Input in(data, size);
  const uint8_t queries = in.byte();
  std::vector<FilePatch> patches;
  run_command([&] {
    store::Database db(base.path.string(), store::Database::Mode::ReadWrite);
    while (!in.empty()) apply(db, in, patches);
  });
  if (!patches.empty()) {
    std::string bytes = read_file(base.path);
    for (const FilePatch& p : patches)
      for (size_t i = 0; i < p.bytes.size() && !bytes.empty(); ++i) bytes[(p.at + i) % bytes.size()] ^= p.bytes[i];
    write_file(base.path, bytes);
  }
  run_command([&] { run_queries(base.path.string(), queries); });
  return 0;
}
