// The _meta file: what is written reads back the same, and files it did not write are refused.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <tuple>
#include <vector>

#include "dataset/dataset_error.h"
#include "dataset/dataset_meta.h"
#include "tests/support/temp_dir.h"

namespace pgnbase::dataset {
namespace {

class DatasetMetaTest : public test::TempDirTest {
 protected:
  void write(const std::string& text) { std::ofstream(dir_ / "_meta") << text; }
};

TEST_F(DatasetMetaTest, WrittenMetaReadsBackTheSame) {
  DatasetMeta m;
  m.schema_version = 2;
  m.bucket_bits = 5;
  m.database_id = "h64:1da5ba6ead9a91e3:7971214";
  m.last_game_id = 123456;
  m.last_change = 42;
  m.live_sources = {2, 5, 17};
  m.exports = {"1: games 1..100", "2: games 101..123456"};
  write_dataset_meta(dir_, m);
  const std::optional<DatasetMeta> back = read_dataset_meta(dir_);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(format_dataset_meta(*back), format_dataset_meta(m));
  EXPECT_EQ(back->last_game_id, 123456);
  EXPECT_EQ(back->bucket_bits, 5);
  EXPECT_EQ(back->exports.size(), 2u);
  EXPECT_EQ(back->last_change, 42);
  EXPECT_EQ(back->live_sources, (std::vector<int64_t>{2, 5, 17}));
  m.live_sources.clear();  // no live source: an empty list reads back empty
  write_dataset_meta(dir_, m);
  EXPECT_TRUE(read_dataset_meta(dir_)->live_sources.empty());
  EXPECT_NE(format_dataset_meta(m).find("bucket: kb = the unsigned key >> 59"), std::string::npos);
}

// A format 1 _meta (no last_change, no live_sources) still reads: the export then says
// why it does not append to it.
TEST_F(DatasetMetaTest, ReadsAFormatOneMeta) {
  write("pgnbase_dataset: 1\ndatabase_schema_version: 4\ndatabase_id: h64:1da5ba6ead9a91e3:7971214\n"
        "bucket_bits: 6\nlast_game_id: 2000\nexport 1: games 1..2000 (2000 games, 174631 positions) at "
        "2026-11-23T19:56:20Z\n");
  const std::optional<DatasetMeta> m = read_dataset_meta(dir_);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->format_version, 1);
  EXPECT_EQ(m->last_game_id, 2000);
  EXPECT_EQ(m->last_change, 0);
  EXPECT_TRUE(m->live_sources.empty());
}

TEST_F(DatasetMetaTest, AbsentMetaIsANewDataset) { EXPECT_FALSE(read_dataset_meta(dir_).has_value()); }

TEST_F(DatasetMetaTest, RefusesFilesItDidNotWrite) {
  write("some notes of the user\n");
  EXPECT_THROW(read_dataset_meta(dir_), DatasetError);
  write("pgnbase_dataset: 1\nlast_game_id: many\n");
  EXPECT_THROW(read_dataset_meta(dir_), DatasetError);
  write("last_game_id: 5\n");  // no format line
  EXPECT_THROW(read_dataset_meta(dir_), DatasetError);
  write("pgnbase_dataset: 4\n");  // a newer format
  EXPECT_THROW(read_dataset_meta(dir_), DatasetError);
}

// Every value is range-checked on read: bucket_bits 64 was a SIGSEGV, 20 made 2^20 spill
// files, -1 and 40 raw C++ errors. Each is now one line naming the file and the value.
TEST_F(DatasetMetaTest, RefusesValuesOutOfRange) {
  DatasetMeta m;
  m.schema_version = 5;
  m.database_id = "h64:1da5ba6ead9a91e3:7971214";
  m.live_sources = {1};
  const std::string good = format_dataset_meta(m);
  write(good);
  ASSERT_TRUE(read_dataset_meta(dir_).has_value());
  for (const auto& [from, to, message] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"bucket_bits: 6", "bucket_bits: 64", "bucket_bits 64 is not 0..12"},
           {"bucket_bits: 6", "bucket_bits: 20", "bucket_bits 20 is not 0..12"},
           {"bucket_bits: 6", "bucket_bits: -1", "bucket_bits -1 is not 0..12"},
           {"bucket_bits: 6", "bucket_bits: 40", "bucket_bits 40 is not 0..12"},
           {"last_game_id: 0", "last_game_id: -1", "last_game_id -1 is not 0 or more"},
           {"live_sources: 1", "live_sources: 1 99999999999", "source id 99999999999 is not 1..4294967295"},
           {"database_schema_version: 5", "database_schema_version: 2147483648", "is not 1..2147483647"},
           {"last_change: 0\n", "", "no last_change line"},
       }) {
    std::string text = good;
    text.replace(text.find(from), from.size(), to);
    write(text);
    try {
      read_dataset_meta(dir_);
      ADD_FAILURE() << "accepted: " << to;
    } catch (const DatasetError& e) {
      EXPECT_NE(std::string(e.what()).find("_meta: "), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace pgnbase::dataset
