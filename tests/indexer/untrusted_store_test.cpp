// Every connection is opened for a file that may come from anyone (database.cpp):
// defensive mode, no untrusted functions in the schema, cell sizes checked, no
// triggers or views, and readers refuse values over 256 MiB. Each case is what a
// hostile file could use against a plain connection.
#include <gtest/gtest.h>

#include <string>

#include "store/database.h"
#include "tests/support/temp_dir.h"

namespace pgnbase::store {
namespace {

class UntrustedStore : public test::TempDirTest {
 protected:
  std::string path() const { return (dir_ / "x.db").string(); }
  // A database holding a table, a view over it and a trigger that would empty it.
  void make_hostile() {
    Database db(path(), Database::Mode::Create);
    db.exec("CREATE TABLE t(x); INSERT INTO t VALUES (1), (2);"
            "CREATE VIEW endless AS WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c) SELECT n FROM c;"
            "CREATE TABLE log(x); CREATE TRIGGER wipe AFTER INSERT ON log BEGIN DELETE FROM t; END;");
  }
  int64_t single_int(Database& db, const std::string& sql) {
    Statement s = db.prepare(sql);
    return s.step() ? s.column_int64(0) : -1;
  }
};

TEST_F(UntrustedStore, CellSizesAreCheckedAndSchemaFunctionsUntrusted) {
  make_hostile();
  for (Database::Mode mode : {Database::Mode::ReadOnly, Database::Mode::ReadWrite}) {
    Database db(path(), mode);
    EXPECT_EQ(single_int(db, "PRAGMA cell_size_check"), 1);
    EXPECT_EQ(single_int(db, "PRAGMA trusted_schema"), 0);
  }
}

TEST_F(UntrustedStore, ViewsDoNotRun) {
  make_hostile();
  Database db(path(), Database::Mode::ReadOnly);
  EXPECT_THROW(db.prepare("SELECT n FROM endless LIMIT 1"), StoreError);
}

TEST_F(UntrustedStore, TriggersDoNotFire) {
  make_hostile();
  Database db(path(), Database::Mode::ReadWrite);
  db.exec("INSERT INTO log VALUES (1)");
  EXPECT_EQ(single_int(db, "SELECT count(*) FROM t"), 2);
}

TEST_F(UntrustedStore, SchemaCannotBeWrittenDirectly) {
  make_hostile();
  Database db(path(), Database::Mode::ReadWrite);
  EXPECT_ANY_THROW({
    db.exec("PRAGMA writable_schema=ON");
    db.exec("UPDATE sqlite_master SET sql = 'CREATE TABLE t(y)' WHERE name = 't'");
  });
  db.exec("PRAGMA writable_schema=OFF");
  EXPECT_EQ(single_int(db, "SELECT count(*) FROM sqlite_master WHERE sql = 'CREATE TABLE t(x)'"), 1);
}

TEST_F(UntrustedStore, ReadersRefuseValuesOverTheLimit) {
  make_hostile();
  Database db(path(), Database::Mode::ReadOnly);
  EXPECT_EQ(single_int(db, "SELECT length(zeroblob(1000000))"), 1000000);
  try {
    single_int(db, "SELECT length(zeroblob(300000000))");
    ADD_FAILURE() << "a 300 MB value was made";
  } catch (const StoreError& e) {
    EXPECT_NE(std::string(e.what()).find("too big"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace pgnbase::store
