// Sources committed together (WriterOptions::commit_after_seconds, as pgn-index sets it for
// the members of a zip): none is visible to a reader before the commit, all are after it,
// and a source that fails in between is rolled back alone; the ones before it stay.
#include <gtest/gtest.h>

#include <new>

#include "indexer/import_pipeline.h"
#include "tests/support/bundled_sample.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"

namespace pgnbase::indexer {
namespace {

using test::games_text;
using test::write_file;

int64_t count(const std::string& db_path, const std::string& sql) {
  store::Database db(db_path, store::Database::Mode::ReadOnly);
  store::Statement s = db.prepare(sql);
  return s.step() ? s.column_int64(0) : -1;
}

WriterOptions grouped() {
  WriterOptions options;
  options.commit_after_seconds = 3600;  // nothing commits until commit_sources
  return options;
}

class GroupedCommitTest : public test::TempDirTest {
 protected:
  // Three files of ten real games each.
  void SetUp() override {
    test::TempDirTest::SetUp();
    for (size_t i = 0; i < 3; ++i) {
      files_.push_back((dir_ / ("part" + std::to_string(i) + ".pgn")).string());
      write_file(files_.back(), games_text(10 * i, 10 * i + 10));
    }
    db_ = (dir_ / "grouped.db").string();
  }
  std::vector<std::string> files_;
  std::string db_;
};

TEST_F(GroupedCommitTest, SourcesFinishedTogetherAreInvisibleUntilTheirCommit) {
  DatabaseWriter writer(db_, grouped());
  for (const std::string& file : files_) EXPECT_EQ(import_file(file, writer, ImportOptions{}).summary.imported, 10u);
  EXPECT_EQ(count(db_, "SELECT COUNT(*) FROM sources"), 0);  // another connection sees none yet
  writer.commit_sources();
  EXPECT_EQ(count(db_, "SELECT COUNT(*) FROM sources"), 3);
  EXPECT_EQ(count(db_, "SELECT COUNT(*) FROM games"), 30);
  // The explorer's facets cover every game committed, once per commit.
  EXPECT_EQ(count(db_, "SELECT CAST(data AS TEXT) FROM game_facets WHERE name = 'last_id'"), 30);
}

TEST_F(GroupedCommitTest, AFailingSourceIsRolledBackAloneAndTheOnesBeforeItAreCommitted) {
  DatabaseWriter writer(db_, grouped());
  EXPECT_EQ(import_file(files_[0], writer, ImportOptions{}).summary.imported, 10u);
  ImportOptions failing;
  failing.on_worker_chunk = [](uint64_t) { throw std::bad_alloc(); };
  EXPECT_THROW(import_file(files_[1], writer, failing), std::bad_alloc);
  EXPECT_EQ(count(db_, "SELECT COUNT(*) FROM sources"), 1);  // the first source, committed by the failure
  EXPECT_EQ(count(db_, "SELECT COUNT(*) FROM games"), 10);
  // The writer goes on: the failed file imports whole afterwards, with new ids.
  EXPECT_EQ(import_file(files_[1], writer, ImportOptions{}).summary.imported, 10u);
  EXPECT_EQ(import_file(files_[2], writer, ImportOptions{}).summary.imported, 10u);
  writer.commit_sources();
  EXPECT_EQ(count(db_, "SELECT COUNT(*) FROM games"), 30);
  EXPECT_EQ(count(db_, "SELECT COUNT(DISTINCT source_id) FROM games"), 3);
  EXPECT_EQ(count(db_, "SELECT MAX(id) FROM games"), 30);
}

TEST_F(GroupedCommitTest, AFileAlreadyImportedInTheOpenGroupIsFoundAsSuch) {
  DatabaseWriter writer(db_, grouped());
  EXPECT_FALSE(import_file(files_[0], writer, ImportOptions{}).already_imported);
  const ImportOutcome again = import_file(files_[0], writer, ImportOptions{});
  EXPECT_TRUE(again.already_imported);
  EXPECT_EQ(import_file(files_[1], writer, ImportOptions{}).summary.imported, 10u);
  writer.commit_sources();
  EXPECT_EQ(count(db_, "SELECT COUNT(*) FROM sources"), 2);
  EXPECT_EQ(count(db_, "SELECT COUNT(*) FROM games"), 20);
}

TEST_F(GroupedCommitTest, AWriterDestroyedBeforeTheCommitLeavesTheDatabaseAsItWas) {
  {
    DatabaseWriter writer(db_, WriterOptions{});
    import_file(files_[0], writer, ImportOptions{});  // committed by itself (the default)
  }
  {
    DatabaseWriter writer(db_, grouped());
    import_file(files_[1], writer, ImportOptions{});
  }
  EXPECT_EQ(count(db_, "SELECT COUNT(*) FROM sources"), 1);
  EXPECT_EQ(count(db_, "SELECT COUNT(*) FROM games"), 10);
}

}  // namespace
}  // namespace pgnbase::indexer
