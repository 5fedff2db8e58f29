// store::multi_row_insert: the writer's statement for several games at once, made from
// the one-row statement. The rows it inserts are those the one-row statement would.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "store/database.h"
#include "store/games_sql.h"
#include "store/multi_row_insert.h"
#include "store/schema.h"
#include "tests/support/temp_dir.h"

namespace pgnbase::store {
namespace {

TEST(MultiRowInsert, RenumbersEachRowsParameters) {
  EXPECT_EQ(multi_row_insert("INSERT INTO t(a, b) VALUES (?1, ?2)", 3),
            "INSERT INTO t(a, b) VALUES (?1, ?2), (?3, ?4), (?5, ?6)");
  EXPECT_EQ(multi_row_insert("INSERT INTO t(a) VALUES (?1)", 1), "INSERT INTO t(a) VALUES (?1)");
}

TEST(MultiRowInsert, RefusesWhatItCannotRepeat) {
  EXPECT_THROW(multi_row_insert("INSERT INTO t(a, b) VALUES (?2, ?1)", 2), std::invalid_argument);
  EXPECT_THROW(multi_row_insert("INSERT INTO t(a, b) VALUES (?1, 7)", 2), std::invalid_argument);
  EXPECT_THROW(multi_row_insert("INSERT INTO t(a) SELECT ?1", 2), std::invalid_argument);
  EXPECT_THROW(multi_row_insert("INSERT INTO t(a) VALUES (?1)", 0), std::invalid_argument);
  EXPECT_THROW(multi_row_insert("INSERT INTO t(a) VALUES ()", 2), std::invalid_argument);
  EXPECT_THROW(multi_row_insert("INSERT INTO t(a, b) VALUES (?1, ?10)", 2), std::invalid_argument);
}

TEST(MultiRowInsert, TheGamesStatementForSixteenRowsStoresWhatOneRowAtATimeDoes) {
  test::TempDir dir;
  Database db((dir.path() / "m.db").string(), Database::Mode::Create);
  db.exec(kSchemaSql);
  db.exec(kGamesIndexesSql);
  db.exec("CREATE TABLE one(id INTEGER PRIMARY KEY, annotations BLOB);"
          "CREATE TABLE many(id INTEGER PRIMARY KEY, annotations BLOB)");
  const std::string one_row(sql::kInsertAnnotations);
  const size_t table = one_row.find("game_annotations");
  Statement one = db.prepare(std::string(one_row).replace(table, 16, "one"));
  Statement many = db.prepare(multi_row_insert(std::string(one_row).replace(table, 16, "many"), 16));
  for (int id = 1; id <= 16; ++id) {
    const std::string blob(size_t(id), char('a' + id));
    one.bind_int64(1, id);
    one.bind_blob(2, std::span(reinterpret_cast<const uint8_t*>(blob.data()), blob.size()));
    one.run();
    many.bind_int64((id - 1) * 2 + 1, id);
    many.bind_blob((id - 1) * 2 + 2, std::span(reinterpret_cast<const uint8_t*>(blob.data()), blob.size()));
  }
  many.run();
  Statement same = db.prepare("SELECT count(*) FROM one o JOIN many m ON m.id = o.id AND m.annotations = o.annotations");
  ASSERT_TRUE(same.step());
  EXPECT_EQ(same.column_int64(0), 16);
  Statement count = db.prepare("SELECT count(*) FROM many");
  ASSERT_TRUE(count.step());
  EXPECT_EQ(count.column_int64(0), 16);
  // The games statement has 28 parameters a row: 16 rows are 448, under SQLite's limit.
  EXPECT_NO_THROW(db.prepare(multi_row_insert(sql::kInsertGame, 16)));
}

// insert_rows: whole groups through the batch statement, the rest one at a time; every
// row once, in order, whatever the count; a group that fails (a repeated key) goes in
// not at all and the statements work again afterwards.
TEST(MultiRowInsert, InsertRowsPutsEveryRowInOnceWhateverTheCount) {
  test::TempDir dir;
  Database db((dir.path() / "rows.db").string(), Database::Mode::Create);
  db.exec("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT NOT NULL)");
  constexpr std::string_view kOne = "INSERT INTO t(id, name) VALUES (?1, ?2)";
  Statement one = db.prepare(kOne);
  Statement batch = db.prepare(multi_row_insert(kOne, 4));
  int64_t next_id = 1;
  for (size_t rows : {size_t{0}, size_t{3}, size_t{4}, size_t{5}, size_t{13}}) {
    std::vector<std::string> names;
    for (size_t i = 0; i < rows; ++i) names.push_back("name " + std::to_string(next_id + int64_t(i)));
    const int64_t first_id = next_id;
    insert_rows(one, batch, 4, 2, rows, [&](Statement& s, int first, size_t row) {
      s.bind_int64(first, first_id + int64_t(row));
      s.bind_text_static(first + 1, names[row]);
    });
    next_id += int64_t(rows);
  }
  auto rows_and_order = [&db] {
    Statement s = db.prepare("SELECT count(*), sum(name = 'name ' || id) FROM t");
    EXPECT_TRUE(s.step());
    return std::pair(s.column_int64(0), s.column_int64(1));
  };
  EXPECT_EQ(rows_and_order(), std::pair(int64_t{25}, int64_t{25}));
  const std::string taken = "taken";
  auto bind_ids = [&](const std::vector<int64_t>& ids) {
    return [&, ids](Statement& s, int first, size_t row) {
      s.bind_int64(first, ids[row]);
      s.bind_text_static(first + 1, taken);
    };
  };
  EXPECT_THROW(insert_rows(one, batch, 4, 2, 4, bind_ids({100, 101, 25, 102})), StoreError);  // 25 is there
  EXPECT_EQ(rows_and_order(), std::pair(int64_t{25}, int64_t{25}));
  insert_rows(one, batch, 4, 2, 5, bind_ids({100, 101, 102, 103, 104}));
  EXPECT_EQ(rows_and_order().first, 30);
}

}  // namespace
}  // namespace pgnbase::store
