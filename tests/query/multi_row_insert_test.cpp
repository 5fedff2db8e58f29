// store::multi_row_insert: the writer's statement for several games at once, made from
// the one-row statement. The rows it inserts are those the one-row statement would.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

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
  db.exec("CREATE TABLE one(id INTEGER PRIMARY KEY, runs BLOB); CREATE TABLE many(id INTEGER PRIMARY KEY, runs BLOB)");
  const std::string one_row(sql::kInsertMaterial);
  Statement one = db.prepare(std::string(one_row).replace(one_row.find("game_material"), 13, "one"));
  Statement many = db.prepare(multi_row_insert(std::string(one_row).replace(one_row.find("game_material"), 13, "many"), 16));
  for (int id = 1; id <= 16; ++id) {
    const std::string blob(size_t(id), char('a' + id));
    one.bind_int64(1, id);
    one.bind_blob(2, std::span(reinterpret_cast<const uint8_t*>(blob.data()), blob.size()));
    one.run();
    many.bind_int64((id - 1) * 2 + 1, id);
    many.bind_blob((id - 1) * 2 + 2, std::span(reinterpret_cast<const uint8_t*>(blob.data()), blob.size()));
  }
  many.run();
  Statement same = db.prepare("SELECT count(*) FROM one o JOIN many m ON m.id = o.id AND m.runs = o.runs");
  ASSERT_TRUE(same.step());
  EXPECT_EQ(same.column_int64(0), 16);
  Statement count = db.prepare("SELECT count(*) FROM many");
  ASSERT_TRUE(count.step());
  EXPECT_EQ(count.column_int64(0), 16);
  // The games statement has 28 parameters a row: 16 rows are 448, under SQLite's limit.
  EXPECT_NO_THROW(db.prepare(multi_row_insert(sql::kInsertGame, 16)));
}

}  // namespace
}  // namespace pgnbase::store
