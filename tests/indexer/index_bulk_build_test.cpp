// Indexes built beside SQLite (store/index_bulk_build.h) are what its CREATE INDEX builds:
// the same entries in the same order, the same schema rows, a file that passes
// integrity_check and takes more rows afterwards; indexes whose values the builder does
// not store fall back to CREATE INDEX. SQLite itself is the judge throughout.
#include "store/index_bulk_build.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "store/database.h"
#include "store/index_btree.h"
#include "tests/support/temp_dir.h"

namespace pgnbase::store {
namespace {

// Hand-made keys for the edge cases: every width of SQLite's integers, both signs, 0 and
// 1 (no body bytes), NULLs, empty, long and non-ASCII text, many rows per key.
constexpr int64_t kIntegers[] = {
    0, 1, -1, 2, 127, 128, -128, -129, 32767, 32768, -32769, 8388607, 8388608, 2147483647, 2147483648,
    -2147483649, 140737488355327, 140737488355328, std::numeric_limits<int64_t>::max(),
    std::numeric_limits<int64_t>::min()};

std::string text_of(int64_t row) {
  switch (row % 5) {
    case 0: return "";
    case 1: return "Carlsen, Magnus";
    case 2: return std::string(size_t(200 + row % 97), char('a' + row % 26));  // many to a page
    case 3: return "Ni\xC3\xB1o \xE6\x97\xA5\xE6\x9C\xAC " + std::to_string(row % 1000);
    default: return std::to_string(row % 37);
  }
}

constexpr std::string_view kTable = "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER, s TEXT, r REAL)";

void fill(Database& db, int64_t rows) {
  db.exec(kTable);
  Transaction t(db);
  Statement insert = db.prepare("INSERT INTO t (id, a, b, s, r) VALUES (?, ?, ?, ?, ?)");
  for (int64_t row = 1; row <= rows; ++row) {
    insert.bind_int64(1, row * 3);  // rowids with gaps
    if (row % 11 == 0) insert.bind_null(2);
    else insert.bind_int64(2, kIntegers[row % std::size(kIntegers)]);
    insert.bind_int64(3, (row * 7919) % 1009 - 500);
    if (row % 13 == 0) insert.bind_null(4);
    else insert.bind_text(4, text_of(row));
    insert.bind_double(5, double(row) / 4);
    insert.run();
  }
  t.commit();
}

// Every entry of an index, in the index's order, as text.
std::string entries(Database& db, std::string_view index, std::string_view columns, std::string_view where = "") {
  Statement s = db.prepare("SELECT " + std::string(columns) + ", rowid FROM t INDEXED BY " + std::string(index) +
                           " " + std::string(where) + " ORDER BY " + std::string(columns) + ", rowid");
  std::string out;
  while (s.step()) {
    for (int i = 0; i < s.column_count(); ++i)
      out += s.column_is_null(i) ? std::string("NULL") : std::string(s.column_text(i)), out += '|';
    out += '\n';
  }
  return out;
}

std::string schema_rows(Database& db) {
  Statement s = db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE type = 'index' ORDER BY name");
  std::string out;
  while (s.step()) out += std::string(s.column_text(0)) + " " + std::string(s.column_text(1)) + " " +
                          std::string(s.column_text(2)) + " " + std::string(s.column_text(3)) + "\n";
  return out;
}

constexpr std::string_view kIndexes = R"sql(
-- a comment; with a semicolon
CREATE INDEX IF NOT EXISTS t_ab ON t(a, b);
CREATE INDEX IF NOT EXISTS t_s ON t(s) WHERE s IS NOT NULL;
CREATE INDEX IF NOT EXISTS t_b ON t(b);
)sql";

class IndexBulkBuild : public test::TempDirTest {
 protected:
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
};

TEST_F(IndexBulkBuild, BuildsWhatCreateIndexBuildsOnEveryKindOfKey) {
  for (std::string name : {"beside.db", "sqlite.db"}) {
    Database db(path(name), Database::Mode::Create);
    fill(db, 30000);
  }
  // 8 threads: each index in 5 parts (rowid ranges) that a merge puts in order.
  const BulkIndexReport report = add_indexes_in_bulk(path("beside.db"), kIndexes, 8);
  EXPECT_EQ(report.built_beside, 3);
  EXPECT_EQ(report.built_by_sqlite, 0);
  Database beside(path("beside.db"), Database::Mode::ReadWrite);
  Database sqlite(path("sqlite.db"), Database::Mode::ReadWrite);
  sqlite.exec(kIndexes);
  EXPECT_EQ(beside.integrity_check(), "ok");
  EXPECT_EQ(schema_rows(beside), schema_rows(sqlite));
  const std::string ab = entries(sqlite, "t_ab", "a, b");
  EXPECT_EQ(std::count(ab.begin(), ab.end(), '\n'), 30000);
  EXPECT_EQ(entries(beside, "t_ab", "a, b"), ab);
  EXPECT_EQ(entries(beside, "t_s", "s", "WHERE s IS NOT NULL"), entries(sqlite, "t_s", "s", "WHERE s IS NOT NULL"));
  EXPECT_EQ(entries(beside, "t_b", "b"), entries(sqlite, "t_b", "b"));
  // The planner finds and uses them.
  Statement plan = beside.prepare("EXPLAIN QUERY PLAN SELECT count(*) FROM t WHERE a = 1 AND b > 0");
  ASSERT_TRUE(plan.step());
  EXPECT_NE(std::string(plan.column_text(3)).find("t_ab"), std::string::npos) << plan.column_text(3);
  plan.reset();
  // And they take rows, updates and deletes as any index does.
  beside.exec("INSERT INTO t (a, b, s) SELECT b, a, s || 'x' FROM t WHERE id % 5 = 0");
  beside.exec("DELETE FROM t WHERE id % 7 = 0");
  beside.exec("UPDATE t SET s = NULL WHERE id % 3 = 1");
  EXPECT_EQ(beside.integrity_check(), "ok");
}

TEST_F(IndexBulkBuild, AnIndexOfValuesItDoesNotStoreIsLeftToSqlite) {
  {
    Database db(path("t.db"), Database::Mode::Create);
    fill(db, 2000);
    db.exec("INSERT INTO t (a, s) VALUES (1, '" + std::string(3000, 'x') + "')");  // beyond a quarter page
  }
  const BulkIndexReport report = add_indexes_in_bulk(
      path("t.db"),
      "CREATE INDEX IF NOT EXISTS t_r ON t(r); CREATE INDEX IF NOT EXISTS t_s ON t(s); "
      "CREATE UNIQUE INDEX IF NOT EXISTS t_id ON t(id); CREATE INDEX IF NOT EXISTS t_a ON t(a)",
      4);
  EXPECT_EQ(report.built_beside, 1);  // t_a
  EXPECT_EQ(report.built_by_sqlite, 3);
  Database db(path("t.db"), Database::Mode::ReadOnly);
  EXPECT_EQ(db.integrity_check(), "ok");
  Statement names = db.prepare("SELECT group_concat(name, ' ') FROM (SELECT name FROM sqlite_schema "
                               "WHERE type = 'index' ORDER BY name)");
  ASSERT_TRUE(names.step());
  EXPECT_EQ(names.column_text(0), "t_a t_id t_r t_s");
}

// Parts sorted in another collation would not merge by bytes: such an index is SQLite's.
TEST_F(IndexBulkBuild, AColumnOfAnotherCollationIsLeftToSqlite) {
  {
    Database db(path("t.db"), Database::Mode::Create);
    db.exec("CREATE TABLE u (id INTEGER PRIMARY KEY, s TEXT COLLATE NOCASE)");
    db.exec("WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r WHERE x < 5000) "
            "INSERT INTO u (s) SELECT CASE x % 3 WHEN 0 THEN 'b' WHEN 1 THEN 'A' ELSE 'a' END || (x % 7) FROM r");
  }
  const BulkIndexReport report = add_indexes_in_bulk(path("t.db"), "CREATE INDEX IF NOT EXISTS u_s ON u(s)", 4);
  EXPECT_EQ(report.built_beside, 0);
  EXPECT_EQ(report.built_by_sqlite, 1);
  Database db(path("t.db"), Database::Mode::ReadOnly);
  EXPECT_EQ(db.integrity_check(), "ok");
}

TEST_F(IndexBulkBuild, IndexesThatExistAreLeftAsTheyAre) {
  {
    Database db(path("t.db"), Database::Mode::Create);
    fill(db, 500);
    db.exec("CREATE INDEX t_b ON t(b)");
  }
  const BulkIndexReport report = add_indexes_in_bulk(path("t.db"), kIndexes, 2);
  EXPECT_EQ(report.built_beside, 2);
  EXPECT_EQ(add_indexes_in_bulk(path("t.db"), kIndexes, 2).built_beside, 0);
  Database db(path("t.db"), Database::Mode::ReadOnly);
  EXPECT_EQ(db.integrity_check(), "ok");
}

// Small pages make deep trees from few rows: every count around a leaf's and an interior
// page's fill, where the last leaf or the last interior page would be left nearly empty.
TEST_F(IndexBulkBuild, TreesOfEveryShapeOnSmallPages) {
  std::vector<int64_t> counts;
  for (int64_t n = 0; n <= 140; ++n) counts.push_back(n);
  for (int64_t n = 1700; n <= 2700; n += 7) counts.push_back(n);
  counts.push_back(70000);  // four levels
  for (int64_t n : counts) {
    SCOPED_TRACE(n);
    const std::string file = path("small-" + std::to_string(n) + ".db");
    {
      Database db(file, Database::Mode::Create);
      db.exec("PRAGMA page_size=512");
      db.exec(kTable);
      db.exec("WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r WHERE x < " + std::to_string(n) +
              ") INSERT INTO t (a, b) SELECT x * 2, x % 3 FROM r WHERE x <= " + std::to_string(n));
    }
    ASSERT_EQ(add_indexes_in_bulk(file, "CREATE INDEX IF NOT EXISTS t_a ON t(a)", 1).built_beside, 1);
    Database db(file, Database::Mode::ReadOnly);
    ASSERT_EQ(db.integrity_check(), "ok");
    Statement s = db.prepare("SELECT count(*), sum(a) FROM t INDEXED BY t_a WHERE a > 0");
    ASSERT_TRUE(s.step());
    EXPECT_EQ(s.column_int64(0), n);
    EXPECT_EQ(s.column_int64(1), n * (n + 1));
    s.reset();
    // No page without a cell but an empty root: SQLite never makes one, and reads one
    // only by luck.
    Statement empty = db.prepare("SELECT count(*), max(path) FROM dbstat WHERE name = 't_a' AND ncell = 0");
    ASSERT_TRUE(empty.step());
    EXPECT_EQ(empty.column_int64(0), n == 0 ? 1 : 0) << empty.column_text(1);
    std::filesystem::remove(file);
  }
}

TEST(IndexPageNumbers, SkipTheLockBytePage) {
  const PageNumbers numbers(262140, 4096);  // the lock byte is on page 262145
  EXPECT_EQ(numbers.lock_page(), 262145u);
  EXPECT_EQ(numbers(0), 262140u);
  EXPECT_EQ(numbers(4), 262144u);
  EXPECT_EQ(numbers(5), 262146u);
  EXPECT_EQ(numbers.after(5), 262145u);  // the next tree's first place skips it in turn
  EXPECT_EQ(PageNumbers(262145, 4096)(0), 262146u);
  EXPECT_EQ(PageNumbers(262146, 4096)(0), 262146u);
  EXPECT_EQ(PageNumbers(3, 65536)(16383), 16387u);  // 64 KiB pages: page 16385 holds it
}

TEST(SqliteVarint, LengthsAndBytes) {
  for (auto [value, bytes] : std::vector<std::pair<uint64_t, std::string>>{
           {0, std::string(1, '\0')},
           {127, "\x7f"},
           {128, std::string("\x81\x00", 2)},
           {16383, "\xff\x7f"},
           {16384, std::string("\x81\x80\x00", 3)},
           {~uint64_t(0), std::string(9, '\xff')}}) {
    std::string out;
    append_sqlite_varint(out, value);
    EXPECT_EQ(out, bytes) << value;
    EXPECT_EQ(sqlite_varint_length(value), int(bytes.size())) << value;
  }
}

}  // namespace
}  // namespace pgnbase::store
