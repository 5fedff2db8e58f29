#include "store/database.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "tests/support/temp_dir.h"

namespace pgnbase::store {
namespace {

namespace fs = std::filesystem;

class StoreTest : public test::TempDirTest {
 protected:
  std::string db_path(const std::string& name = "test.db") const { return (dir_ / name).string(); }

  // Creates a database with one table of every column type.
  Database make_database(const std::string& path) {
    Database db(path, Database::Mode::Create);
    db.exec("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT, score REAL, data BLOB, note TEXT)");
    return db;
  }

  int64_t count_items(Database& db) {
    Statement count = db.prepare("SELECT count(*) FROM items");
    EXPECT_TRUE(count.step());
    return count.column_int64(0);
  }
};

template <typename Function>
StoreError capture_store_error(Function&& function) {
  try {
    function();
  } catch (const StoreError& error) {
    return error;
  }
  ADD_FAILURE() << "expected a StoreError";
  return StoreError(StoreErrorKind::Other, 0, "none");
}

TEST_F(StoreTest, InsertAndSelectEveryColumnType) {
  Database db = make_database(db_path());
  std::vector<uint8_t> blob = {0, 1, 2, 0xff, 0, 7};
  std::string name = "Kasparov, Garry";

  Statement insert = db.prepare("INSERT INTO items (name, score, data, note) VALUES (?1, ?2, ?3, ?4)");
  insert.bind_text(1, name);
  insert.bind_double(2, 2851.5);
  insert.bind_blob(3, blob);
  insert.bind_null(4);
  EXPECT_FALSE(insert.step());
  EXPECT_EQ(db.changes(), 1);
  int64_t first_id = db.last_insert_rowid();
  insert.reset();

  // Static binds: the bytes stay alive until the step below.
  std::string static_name(1000, 'x');
  std::vector<std::byte> static_blob(300, std::byte{0x5a});
  insert.bind_text_static(1, static_name);
  insert.bind_blob_static(3, static_blob);
  insert.run();
  EXPECT_EQ(db.last_insert_rowid(), first_id + 1);

  Statement select = db.prepare("SELECT id, name, score, data, note FROM items ORDER BY id");
  ASSERT_EQ(select.column_count(), 5);
  ASSERT_TRUE(select.step());
  EXPECT_EQ(select.column_int64(0), first_id);
  EXPECT_EQ(select.column_text(1), name);
  EXPECT_DOUBLE_EQ(select.column_double(2), 2851.5);
  std::span<const std::byte> stored = select.column_blob(3);
  ASSERT_EQ(stored.size(), blob.size());
  for (size_t i = 0; i < blob.size(); ++i) EXPECT_EQ(std::to_integer<uint8_t>(stored[i]), blob[i]);
  EXPECT_TRUE(select.column_is_null(4));
  EXPECT_TRUE(select.column_text(4).empty());

  ASSERT_TRUE(select.step());
  EXPECT_EQ(select.column_text(1), static_name);
  EXPECT_EQ(select.column_blob(3).size(), 300u);
  EXPECT_DOUBLE_EQ(select.column_double(2), 2851.5);  // bindings are kept across reset
  EXPECT_FALSE(select.step());
}

TEST_F(StoreTest, EmptyBlobIsStoredAsEmptyNotNull) {
  Database db = make_database(db_path());
  Statement insert = db.prepare("INSERT INTO items (data) VALUES (?1)");
  insert.bind_blob(1, std::span<const std::byte>());
  insert.run();
  Statement select = db.prepare("SELECT data IS NULL, length(data) FROM items");
  ASSERT_TRUE(select.step());
  EXPECT_EQ(select.column_int64(0), 0);
  EXPECT_EQ(select.column_int64(1), 0);
}

TEST_F(StoreTest, TextWithEmbeddedZeroAndLatin1BytesRoundTrips) {
  Database db = make_database(db_path());
  std::string text("Kramn\xEDk\0Topalov", 15);
  Statement insert = db.prepare("INSERT INTO items (name) VALUES (?1)");
  insert.bind_text(1, text);
  insert.run();
  Statement select = db.prepare("SELECT name FROM items");
  ASSERT_TRUE(select.step());
  EXPECT_EQ(select.column_text(0), text);
}

TEST_F(StoreTest, TransactionRollsBackWhenAnExceptionLeavesTheScope) {
  Database db = make_database(db_path());
  try {
    Transaction transaction(db);
    db.exec("INSERT INTO items (name) VALUES ('lost')");
    EXPECT_TRUE(db.in_transaction());
    throw std::runtime_error("worker failed");
  } catch (const std::runtime_error&) {
  }
  EXPECT_FALSE(db.in_transaction());
  EXPECT_EQ(count_items(db), 0);
}

TEST_F(StoreTest, CommittedTransactionSurvivesReopen) {
  {
    Database db = make_database(db_path());
    Transaction transaction(db);
    Statement insert = db.prepare("INSERT INTO items (name) VALUES (?1)");
    for (int i = 0; i < 100; ++i) {
      insert.bind_text(1, "game " + std::to_string(i));
      insert.run();
    }
    transaction.commit();
    EXPECT_TRUE(transaction.committed());
  }
  Database reopened(db_path(), Database::Mode::ReadOnly);
  EXPECT_EQ(count_items(reopened), 100);
  EXPECT_EQ(reopened.integrity_check(), "ok");
}

TEST_F(StoreTest, ReadOnlyOpenRefusesWrites) {
  { make_database(db_path()); }
  Database reader(db_path(), Database::Mode::ReadOnly);
  StoreError error = capture_store_error([&] { reader.exec("INSERT INTO items (name) VALUES ('x')"); });
  EXPECT_EQ(error.store_kind(), StoreErrorKind::ReadOnly);
  EXPECT_NE(std::string(error.what()).find(db_path()), std::string::npos) << error.what();
  EXPECT_NE(std::string(error.what()).find("readonly"), std::string::npos) << error.what();
}

TEST_F(StoreTest, ReaderSeesCommittedRowsWhileWriterHoldsTransaction) {
  Database writer = make_database(db_path());
  writer.configure_for_bulk_load();
  writer.exec("INSERT INTO items (name) VALUES ('committed')");

  Transaction transaction(writer);
  writer.exec("INSERT INTO items (name) VALUES ('pending')");

  Database reader(db_path(), Database::Mode::ReadOnly);
  reader.set_busy_timeout(std::chrono::milliseconds(10));
  EXPECT_EQ(count_items(reader), 1);  // WAL: no waiting, and no uncommitted rows
  transaction.commit();
  EXPECT_EQ(count_items(reader), 2);
}

TEST_F(StoreTest, SecondWriterGetsClearLockedError) {
  Database first = make_database(db_path());
  first.configure_for_bulk_load();
  Transaction holding(first);

  Database second(db_path(), Database::Mode::ReadWrite);
  second.set_busy_timeout(std::chrono::milliseconds(50));
  StoreError error = capture_store_error([&] { Transaction blocked(second); });
  EXPECT_EQ(error.store_kind(), StoreErrorKind::Busy);
  std::string message = error.what();
  EXPECT_NE(message.find("'" + db_path() + "'"), std::string::npos) << message;
  EXPECT_NE(message.find("database is locked"), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << "one line: " << message;
  EXPECT_FALSE(second.in_transaction());

  holding.commit();
  Transaction now_free(second);  // the lock is released: no throw
  now_free.commit();
}

TEST_F(StoreTest, PgnFileIsNotADatabase) {
  fs::path pgn = dir_ / "games.db";
  fs::copy_file(fs::path(PGNBASE_SOURCE_DIR) / "tests/data/notation/fide-appendix-e-sample.pgn", pgn);
  for (Database::Mode mode : {Database::Mode::ReadOnly, Database::Mode::ReadWrite, Database::Mode::Create}) {
    StoreError error = capture_store_error([&] { Database db(pgn.string(), mode); });
    EXPECT_EQ(error.store_kind(), StoreErrorKind::NotADatabase);
    EXPECT_EQ(std::string(error.what()), "cannot open database '" + pgn.string() + "': file is not a database");
  }
}

TEST_F(StoreTest, MissingFileWithoutCreateCannotOpen) {
  std::string missing = db_path("missing.db");
  StoreError error = capture_store_error([&] { Database db(missing, Database::Mode::ReadOnly); });
  EXPECT_EQ(error.store_kind(), StoreErrorKind::CannotOpen);
  std::string message = error.what();
  EXPECT_EQ(message.rfind("cannot open database '" + missing + "': unable to open database file", 0), 0u)
      << message;
  EXPECT_FALSE(fs::exists(missing));
}

TEST_F(StoreTest, DatabaseInMissingDirectoryCannotBeCreated) {
  std::string path = (dir_ / "no-such-dir" / "x.db").string();
  StoreError error = capture_store_error([&] { Database db(path, Database::Mode::Create); });
  EXPECT_EQ(error.store_kind(), StoreErrorKind::CannotOpen);
  EXPECT_NE(std::string(error.what()).find(path), std::string::npos);
}

TEST_F(StoreTest, FullDatabaseReportsDiskFull) {
  Database db = make_database(db_path());
  db.exec("PRAGMA max_page_count=20");  // stands in for a full disk
  Statement insert = db.prepare("INSERT INTO items (data) VALUES (?1)");
  std::vector<uint8_t> blob(64 * 1024, 1);
  StoreError error = capture_store_error([&] {
    for (int i = 0; i < 100; ++i) {
      insert.bind_blob(1, blob);
      insert.run();
    }
  });
  EXPECT_EQ(error.store_kind(), StoreErrorKind::Full);
  EXPECT_NE(std::string(error.what()).find("database or disk is full"), std::string::npos) << error.what();
}

TEST_F(StoreTest, BadSqlNamesTheStatement) {
  Database db = make_database(db_path());
  StoreError error = capture_store_error([&] { db.prepare("SELEKT * FROM items"); });
  EXPECT_EQ(error.store_kind(), StoreErrorKind::Misuse);
  EXPECT_NE(std::string(error.what()).find("SELEKT * FROM items"), std::string::npos) << error.what();

  error = capture_store_error([&] { db.exec("SELECT * FROM no_such_table"); });
  EXPECT_NE(std::string(error.what()).find("no such table"), std::string::npos) << error.what();
}

TEST_F(StoreTest, BindIndexOutOfRangeThrows) {
  Database db = make_database(db_path());
  Statement insert = db.prepare("INSERT INTO items (name) VALUES (?1)");
  StoreError error = capture_store_error([&] { insert.bind_int64(2, 1); });
  EXPECT_EQ(error.store_kind(), StoreErrorKind::Misuse);
  EXPECT_NE(std::string(error.what()).find("?2"), std::string::npos) << error.what();
}

TEST_F(StoreTest, StatementIsReusableAfterConstraintError) {
  Database db = make_database(db_path());
  db.exec("CREATE UNIQUE INDEX items_name ON items(name)");
  Statement insert = db.prepare("INSERT INTO items (name) VALUES (?1)");
  insert.bind_text(1, "same");
  insert.run();
  StoreError error = capture_store_error([&] { insert.run(); });
  EXPECT_EQ(error.store_kind(), StoreErrorKind::Constraint);
  insert.bind_text(1, "other");
  insert.run();
  EXPECT_EQ(count_items(db), 2);
}

TEST_F(StoreTest, StatementsAndDatabasesMove) {
  Database db = make_database(db_path());
  db.exec("CREATE UNIQUE INDEX items_name ON items(name)");
  Statement insert = db.prepare("INSERT INTO items (name) VALUES ('a')");
  Statement moved = std::move(insert);
  EXPECT_FALSE(static_cast<bool>(insert));  // NOLINT(bugprone-use-after-move): checking the moved-from state
  moved.run();
  // Statements keep working, and keep naming the file, after their Database moves.
  Database moved_db = std::move(db);
  StoreError error = capture_store_error([&] { moved.run(); });
  EXPECT_EQ(error.store_kind(), StoreErrorKind::Constraint);
  EXPECT_NE(std::string(error.what()).find("'" + db_path() + "'"), std::string::npos) << error.what();
  EXPECT_EQ(count_items(moved_db), 1);
  EXPECT_EQ(moved_db.path(), db_path());
}

TEST_F(StoreTest, BulkLoadPragmasTakeEffect) {
  Database db = make_database(db_path());
  db.configure_for_bulk_load();
  Statement journal = db.prepare("PRAGMA journal_mode");
  ASSERT_TRUE(journal.step());
  EXPECT_EQ(journal.column_text(0), "wal");
  Statement synchronous = db.prepare("PRAGMA synchronous");
  ASSERT_TRUE(synchronous.step());
  EXPECT_EQ(synchronous.column_int64(0), 1);  // NORMAL
  // Sorts in files: only then do SQLite's sort helper threads work (build_indexes).
  Statement temp_store = db.prepare("PRAGMA temp_store");
  ASSERT_TRUE(temp_store.step());
  EXPECT_EQ(temp_store.column_int64(0), 1);  // FILE
  EXPECT_EQ(db.integrity_check(), "ok");
}

TEST_F(StoreTest, BuildIndexesLeavesTheBulkLoadSettingsAsTheyWere) {
  Database db = make_database(db_path());
  db.configure_for_bulk_load(2);
  {
    Transaction transaction(db);
    Statement insert = db.prepare("INSERT INTO items (name) VALUES (?1)");
    for (int i = 0; i < 5000; ++i) {
      insert.bind_text(1, std::to_string(i * 7919 % 5000));
      insert.run();
    }
    db.build_indexes("CREATE INDEX items_by_name ON items(name)");
    transaction.commit();
  }
  auto pragma = [&db](const std::string& name) {
    Statement s = db.prepare("PRAGMA " + name);
    EXPECT_TRUE(s.step()) << name;
    return s.column_int64(0);
  };
  EXPECT_EQ(pragma("cache_size"), -32768);
  // The index is there, sorted: its first name is the smallest.
  Statement first = db.prepare("SELECT name FROM items INDEXED BY items_by_name ORDER BY name LIMIT 1");
  ASSERT_TRUE(first.step());
  EXPECT_EQ(first.column_text(0), "0");
  EXPECT_EQ(db.integrity_check(), "ok");
  // A failing statement leaves them as they were too.
  EXPECT_THROW(db.build_indexes("CREATE INDEX broken ON no_such_table(name)"), StoreError);
  EXPECT_EQ(pragma("cache_size"), -32768);
}

// The import's writer inserts position blocks between the index builds: after_each runs
// once after each statement, the indexes it sees built so far, comments and white space
// are no statements, and a failing statement stops the rest.
TEST_F(StoreTest, BuildIndexesRunsAfterEachStatement) {
  Database db = make_database(db_path());
  db.configure_for_bulk_load(2);
  Transaction transaction(db);
  Statement insert = db.prepare("INSERT INTO items (name) VALUES (?1)");
  for (int i = 0; i < 100; ++i) {
    insert.bind_text(1, std::to_string(i));
    insert.run();
  }
  std::vector<int64_t> indexes_seen;
  auto count_indexes = [&db, &indexes_seen] {
    Statement s = db.prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name LIKE 'items_%'");
    EXPECT_TRUE(s.step());
    indexes_seen.push_back(s.column_int64(0));
  };
  db.build_indexes(
      "CREATE INDEX items_a ON items(name);\n-- a comment\nCREATE INDEX items_b ON items(id, name);  \n\n",
      count_indexes);
  EXPECT_EQ(indexes_seen, (std::vector<int64_t>{1, 2}));
  indexes_seen.clear();
  EXPECT_THROW(db.build_indexes("CREATE INDEX items_c ON items(name); CREATE INDEX x ON no_such_table(name); "
                                "CREATE INDEX items_d ON items(name)",
                                count_indexes),
               StoreError);
  EXPECT_EQ(indexes_seen, (std::vector<int64_t>{3}));

  // The sorter's runs are the page cache's size: a database that fits the bulk-load cache
  // (32 MiB) keeps it, a larger one sorts in 4 MiB runs for the helper threads.
  auto cache_during_build = [&db](const std::string& index) {
    int64_t cache = 0;
    db.build_indexes("CREATE INDEX " + index + " ON items(id, length(name))", [&] {
      Statement s = db.prepare("PRAGMA cache_size");
      EXPECT_TRUE(s.step());
      cache = s.column_int64(0);
    });
    return cache;
  };
  EXPECT_EQ(cache_during_build("items_small"), -32768);
  db.exec("INSERT INTO items (name) SELECT zeroblob(3900) FROM (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL "
          "SELECT i + 1 FROM n WHERE i < 9000) SELECT i FROM n)");
  EXPECT_EQ(cache_during_build("items_large"), -4096);
}

TEST_F(StoreTest, IntegrityCheckReportsDamage) {
  {
    Database db = make_database(db_path());
    Transaction transaction(db);
    Statement insert = db.prepare("INSERT INTO items (name) VALUES (?1)");
    for (int i = 0; i < 2000; ++i) {
      insert.bind_text(1, std::string(100, static_cast<char>('a' + i % 26)));
      insert.run();
    }
    transaction.commit();
  }
  // Overwrite a page in the middle of the table's b-tree with garbage.
  {
    std::fstream file(db_path(), std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(4096 * 10);
    std::string garbage(4096, '\x77');
    file.write(garbage.data(), static_cast<std::streamsize>(garbage.size()));
  }
  std::string result;
  try {
    Database db(db_path(), Database::Mode::ReadOnly);
    result = db.integrity_check();
  } catch (const StoreError& error) {
    result = error.what();  // SQLite may refuse the damaged page outright
  }
  EXPECT_NE(result, "ok");
}

}  // namespace
}  // namespace pgnbase::store
