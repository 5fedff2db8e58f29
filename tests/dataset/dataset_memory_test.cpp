// What an export holds in memory at once is bounded in bytes, not only in rows or buckets:
// a games row group ends at ExportOptions::game_group_bytes (100 games with an 8 MiB
// comment each made one row group of every annotation: 2.49 GB peak), and the posting
// spill keeps one file open however many buckets there are. Checked through the Parquet
// footer (hyparquet) of a real export, and on PostingBuckets and GameFactsTable alone.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/bundled_sample.h"
#include "dataset/dataset_tables.h"
#include "dataset/posting_buckets.h"
#include "indexer/input_source.h"
#include "tests/dataset/node_readers.h"
#include "tests/query/query_test_support.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"

namespace pgnbase::dataset {
namespace {

namespace fs = std::filesystem;

const std::string kQueryBinary = PGNBASE_BINARY_DIR "/tools/pgn-query";

using test::games_with_long_comments;

class DatasetMemoryTest : public test::TempDirTest {};

// 20 games with a 1 MiB comment each: 21 MiB of annotations, one row group before;
// now groups of at most 16 MiB of values and one more game.
TEST_F(DatasetMemoryTest, GamesRowGroupsAreBoundedInBytes) {
  PGNBASE_REQUIRE_NODE_READERS();
  const std::string pgn = (dir_ / "long-comments.pgn").string(), db = (dir_ / "g.db").string();
  test::write_file(pgn, games_with_long_comments(20, size_t{1} << 20));
  query_test::import_files(db, {pgn});
  int code = -1;
  const auto out = dataset_test::run_program(dir_, kQueryBinary, {"export-dataset", db, (dir_ / "ds").string()}, &code);
  ASSERT_TRUE(out.has_value()) << "exit " << code;
  const fs::path games = dir_ / "ds" / "games" / "source=1" / "part-000001.parquet";
  ASSERT_TRUE(fs::exists(games));
  size_t groups = 0;
  int64_t largest = 0, rows = -1;
  for (const std::string& line : dataset_test::hyparquet_dump({"--no-rows", games.string()})) {
    std::istringstream in(line);
    std::string word;
    int64_t index = 0, bytes = 0;
    in >> word;
    if (word == "rows") in >> rows;
    if (word != "row_group_bytes") continue;
    in >> index >> bytes;
    largest = std::max(largest, bytes);
    ++groups;
  }
  EXPECT_EQ(rows, 20);
  EXPECT_GE(groups, 2u);
  EXPECT_LT(largest, int64_t{18} << 20) << "a row group of " << largest << " bytes";
  EXPECT_EQ(dataset_test::duckdb_value("SELECT count(*) FILTER (WHERE octet_length(annotations) > 1048576) FROM "
                                       "read_parquet('" + games.string() + "')"),
            "20");
}

// Postings spread over 1,024 buckets with a buffer of 2,000: every posting comes back once,
// sorted, from its bucket; the spill files go as their buckets are read.
TEST_F(DatasetMemoryTest, PostingBucketsSpillAndReadBackEveryPosting) {
  std::mt19937_64 rng(22);
  std::vector<DatasetPosting> all;
  for (uint32_t i = 0; i < 8000; ++i)
    all.push_back({rng() | (i % 7 == 0 ? 0 : uint64_t(1) << 63), i % 997, uint16_t(i % 300), uint16_t(rng())});
  for (size_t limit : {size_t{2000}, size_t{1} << 20}) {  // spilled, then held in memory alone
    const fs::path folder = dir_ / ("spill-" + std::to_string(limit));
    fs::create_directories(folder);
    std::vector<DatasetPosting> back;
    {
      PostingBuckets buckets(folder, 10, limit);
      for (const DatasetPosting& p : all) buckets.add(p);
      EXPECT_EQ(buckets.postings(), all.size());
      EXPECT_EQ(buckets.spill_writes() > 0, limit == 2000);
      for (uint32_t b = 0; b < buckets.buckets(); ++b) {
        const std::vector<DatasetPosting> bucket = buckets.read_sorted(b);
        EXPECT_TRUE(std::is_sorted(bucket.begin(), bucket.end()));
        for (const DatasetPosting& p : bucket) EXPECT_EQ(p.key >> 54, b);
        back.insert(back.end(), bucket.begin(), bucket.end());
        if (b == 511) {
          EXPECT_LE(std::distance(fs::directory_iterator(folder), fs::directory_iterator()), 512);
        }
      }
      EXPECT_TRUE(fs::is_empty(folder));
    }
    std::vector<DatasetPosting> expected = all;
    std::sort(expected.begin(), expected.end());
    ASSERT_EQ(back.size(), expected.size());
    for (size_t i = 0; i < back.size(); ++i)
      ASSERT_TRUE(!(back[i] < expected[i]) && !(expected[i] < back[i])) << "posting " << i;
  }
}

// 1,000 games from id 1, then ids 200,000,000 and 2^32 - 1, and earlier games written
// again: each reads back its own facts, and the table holds about the games, not the ids.
TEST_F(DatasetMemoryTest, GameFactsFollowTheGamesNotTheIds) {
  GameFactsTable table(1);
  std::vector<uint32_t> ids;
  for (uint32_t id = 1; id <= 1000; ++id) ids.push_back(id % 10 == 0 ? id + 5 : id);  // a few gaps
  ids.push_back(200000000);
  ids.push_back(200000001);
  ids.push_back(UINT32_MAX);
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  rusage before{}, after{};
  getrusage(RUSAGE_SELF, &before);
  for (uint32_t id : ids) table.add(id).white_elo = int32_t(id % 4000);
  GameFactsTable with_earlier(5000);
  with_earlier.add(17).black_elo = 17;  // an earlier game, moved
  with_earlier.add(5000).black_elo = 5000;
  getrusage(RUSAGE_SELF, &after);
  for (uint32_t id : ids) EXPECT_EQ(table.of(id).white_elo, int32_t(id % 4000)) << id;
  EXPECT_EQ(with_earlier.of(17).black_elo, 17);
  EXPECT_EQ(with_earlier.of(5000).black_elo, 5000);
  EXPECT_LT(after.ru_maxrss - before.ru_maxrss, 100 * 1024) << "KiB for about a thousand games";
}

}  // namespace
}  // namespace pgnbase::dataset
