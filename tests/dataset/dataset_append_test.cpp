// Appending to a dataset: a second export after another import writes new files only
// (earlier ones byte for byte as they were), ids stay unique, answers stay equal; and
// folders the export must not touch are refused with everything left as it was.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "core/fen.h"
#include "dataset/dataset_export.h"
#include "dataset/dataset_key.h"
#include "dataset/dataset_meta.h"
#include "query/database_report.h"
#include "search/explorer.h"
#include "search/game_search.h"
#include "tests/dataset/node_readers.h"
#include "tests/query/query_test_support.h"
#include "store/schema_version.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"

namespace pgnbase::dataset {
namespace {

namespace fs = std::filesystem;
using dataset_test::duckdb_value;

const fs::path kSource = fs::path(PGNBASE_SOURCE_DIR);
const std::string kSample = (kSource / "tools" / "sample" / "lichess-drnykterstein-2000.pgn.zst").string();
// Two real games: the sample of FIDE's Laws of Chess, appendix E.
const std::string kSmall = (kSource / "tests" / "data" / "archives" / "fide-appendix-e-sample.pgn.gz").string();
const std::string kQueryBinary = PGNBASE_BINARY_DIR "/tools/pgn-query";

// Every file under dir (relative path -> contents).
std::map<std::string, std::string> snapshot(const fs::path& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) out[fs::relative(e.path(), dir).string()] = test::read_file(e.path().string());
  return out;
}

ExportSummary export_to(const std::string& db_path, const fs::path& dir) {
  store::Database db = store::open_for_reading(db_path);
  return export_dataset(db, dir);
}

// The largest N of the kb=N folders under dir.
int largest_bucket(const fs::path& dir) {
  int largest = -1;
  for (const auto& [path, bytes] : snapshot(dir))
    if (const size_t at = path.find("/kb="); at != std::string::npos)
      largest = std::max(largest, std::stoi(path.substr(at + 4)));
  return largest;
}

// Expects the export of db_path into dir to fail with a message containing reason, and
// to leave every file of dir as it was.
void expect_refused(const std::string& db_path, const fs::path& dir, const std::string& reason) {
  const auto before = snapshot(dir);
  try {
    export_to(db_path, dir);
    ADD_FAILURE() << "no error";
  } catch (const DatasetError& e) {
    EXPECT_NE(std::string(e.what()).find(reason), std::string::npos) << e.what();
  }
  EXPECT_EQ(snapshot(dir), before);
}

class DatasetAppendTest : public test::TempDirTest {
 protected:
  // A hand-made file of one short game (a second source where the test needs only that),
  // much quicker to import under sanitizers than the 2,000-game sample.
  std::string one_game_file() const {
    const std::string path = (dir_ / "one-game.pgn").string();
    test::write_file(path, "[Event \"Hand-made\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n"
                                 "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n");
    return path;
  }
  std::string db_path() const { return (dir_ / "games.db").string(); }
  fs::path dataset() const { return dir_ / "dataset"; }
};

TEST_F(DatasetAppendTest, SecondExportAddsNewFilesOnlyWithUniqueIds) {
  PGNBASE_REQUIRE_NODE_READERS();
  query_test::import_files(db_path(), {kSample});
  const ExportSummary first = export_to(db_path(), dataset());
  ASSERT_EQ(first.export_number, 1);
  const auto before = snapshot(dataset());

  query_test::import_files(db_path(), {kSmall});
  const ExportSummary second = export_to(db_path(), dataset());
  EXPECT_EQ(second.export_number, 2);
  EXPECT_EQ(second.first_game_id, first.last_game_id + 1);
  EXPECT_GT(second.games, 0);
  const auto after = snapshot(dataset());
  size_t added = 0;
  for (const auto& [path, bytes] : after) {
    if (path == "_meta") continue;
    EXPECT_NE(path[path.rfind('/') + 1], '.') << "temporary file left: " << path;
    const auto old = before.find(path);
    if (old != before.end()) {
      EXPECT_EQ(bytes, old->second) << path << " changed";
    } else {
      EXPECT_NE(path.find("part-000002"), std::string::npos) << path;
      ++added;
    }
  }
  for (const auto& [path, bytes] : before) EXPECT_TRUE(after.count(path)) << path << " was removed";
  EXPECT_EQ(added, second.files);

  const std::string games = "read_parquet('" + (dataset() / "games/*/*.parquet").string() + "', hive_partitioning = true)";
  const int64_t total = first.games + second.games;
  EXPECT_EQ(duckdb_value("SELECT count(*) || ' ' || count(DISTINCT id) || ' ' || max(id) FROM " + games),
            std::to_string(total) + " " + std::to_string(total) + " " + std::to_string(second.last_game_id));
  EXPECT_EQ(duckdb_value("SELECT count(*) FROM read_parquet('" + (dataset() / "positions/*/*.parquet").string() + "')"),
            std::to_string(first.postings + second.postings));
  const auto meta = read_dataset_meta(dataset());
  ASSERT_TRUE(meta.has_value());
  EXPECT_EQ(meta->last_game_id, second.last_game_id);
  EXPECT_EQ(meta->exports.size(), 2u);

  // The start position over both exports, as the explorer and the FEN search answer it.
  store::Database db = store::open_for_reading(db_path());
  search::ExplorerOptions options;
  options.filter.position = Board();
  db.exec("BEGIN");
  const search::ExplorerResult r = search::explore(db, options);
  db.exec("COMMIT");
  const std::string key = std::to_string(signed_key(Board().key()));
  EXPECT_EQ(duckdb_value("SELECT sum(games) FROM read_parquet('" + (dataset() / "explorer/*/*.parquet").string() +
                         "') WHERE key = " + key + " AND next_move = " + std::to_string(encode_move(Board(), r.moves[0].move))),
            std::to_string(r.moves[0].games));
  search::SearchOptions search;
  search.filter.position = Board();
  EXPECT_EQ(duckdb_value("SELECT count(DISTINCT game_id) FROM read_parquet('" +
                         (dataset() / "positions/*/*.parquet").string() + "') WHERE key = " + key),
            std::to_string(search::GameSearch(db, search).count()));

  // Nothing new: no file written, _meta unchanged.
  const auto settled = snapshot(dataset());
  EXPECT_EQ(export_to(db_path(), dataset()).export_number, 0);
  EXPECT_EQ(snapshot(dataset()), settled);
}

TEST_F(DatasetAppendTest, RefusesAFolderWithFilesButNoMeta) {
  query_test::import_files(db_path(), {kSmall});
  fs::create_directories(dataset());
  test::write_file((dataset() / "notes.txt").string(), "mine");
  expect_refused(db_path(), dataset(), "no _meta");
}

TEST_F(DatasetAppendTest, RefusesTheExportOfAnotherDatabase) {
  query_test::import_files(db_path(), {kSmall});
  export_to(db_path(), dataset());
  const std::string other = (dir_ / "other.db").string();
  query_test::import_files(other, {one_game_file()});
  expect_refused(other, dataset(), "another database");
}

// A dataset of format 1 has positions and explorer rows without source_id: a removed
// source's rows there could not be skipped; one of format 2 has no plies rows for the
// games it holds. Neither is appended to.
TEST_F(DatasetAppendTest, RefusesADatasetOfAnOlderFormat) {
  query_test::import_files(db_path(), {kSmall});
  export_to(db_path(), dataset());
  const std::string written = test::read_file((dataset() / "_meta").string());
  query_test::import_files(db_path(), {one_game_file()});
  for (const auto& [format, reason] : {std::pair{"1", "no source_id"}, std::pair{"2", "no plies/ rows"}}) {
    std::string meta = written;
    meta.replace(meta.find("pgnbase_dataset: 3"), 18, std::string("pgnbase_dataset: ") + format);
    test::write_file((dataset() / "_meta").string(), meta);
    expect_refused(db_path(), dataset(), reason);
  }
}

TEST_F(DatasetAppendTest, RefusesOtherBucketBitsAndKeepsItsOwn) {
  query_test::import_files(db_path(), {kSmall});
  ExportOptions four;
  four.bucket_bits = 4;
  {
    store::Database db = store::open_for_reading(db_path());
    export_dataset(db, dataset(), four);
  }
  EXPECT_EQ(read_dataset_meta(dataset())->bucket_bits, 4);
  EXPECT_LT(largest_bucket(dataset()), 16);
  query_test::import_files(db_path(), {one_game_file()});
  store::Database db = store::open_for_reading(db_path());
  ExportOptions six;
  six.bucket_bits = 6;
  EXPECT_THROW(export_dataset(db, dataset(), six), DatasetError);
  EXPECT_EQ(export_dataset(db, dataset()).export_number, 2);  // unset: the dataset's own 4 bits
  EXPECT_LT(largest_bucket(dataset()), 16);
}

TEST_F(DatasetAppendTest, RefusesANewerMetaFormat) {
  query_test::import_files(db_path(), {kSmall});
  fs::create_directories(dataset());
  test::write_file((dataset() / "_meta").string(), "pgnbase_dataset: 99\n");
  expect_refused(db_path(), dataset(), "newer");
}

TEST_F(DatasetAppendTest, NeverRenamesOverAFileTheUserPutThere) {
  query_test::import_files(db_path(), {kSmall});
  export_to(db_path(), dataset());
  query_test::import_files(db_path(), {one_game_file()});
  // The start position lands in kb=17: a file of the user's where export 2 would write.
  const fs::path users = dataset() / "positions" / "kb=17" / "part-000002.parquet";
  test::write_file(users.string(), "the user's");
  expect_refused(db_path(), dataset(), "already exists");  // no new file, no temporary file, _meta as it was
}

TEST_F(DatasetAppendTest, CommandLineKeyAndRefusal) {
  int code = -1;
  const auto key = dataset_test::run_program(dir_, kQueryBinary, {"key", std::string(kStartFen)}, &code);
  EXPECT_EQ(key.value_or(""), "463b96181691fc9c kb=17 5060803636482931868\n");
  query_test::import_files(db_path(), {kSmall});
  fs::create_directories(dataset());
  test::write_file((dataset() / "notes.txt").string(), "mine");
  EXPECT_FALSE(dataset_test::run_program(dir_, kQueryBinary, {"export-dataset", db_path(), dataset().string()}, &code));
  EXPECT_EQ(code, 1);
  EXPECT_FALSE(dataset_test::run_program(dir_, kQueryBinary, {"key", "not a fen"}, &code));
  EXPECT_EQ(code, 2);
}

}  // namespace
}  // namespace pgnbase::dataset
