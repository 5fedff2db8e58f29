// Files from ParquetWriter read back by two independent readers, DuckDB and hyparquet:
// schema and logical types, row counts, per-chunk statistics, sorting columns, and
// every value, across page and row-group boundaries, with and without dictionaries.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "dataset/parquet_writer.h"
#include "tests/dataset/node_readers.h"
#include "tests/support/temp_dir.h"

namespace pgnbase::dataset {
namespace {

using dataset_test::duckdb_rows;
using dataset_test::duckdb_value;
using dataset_test::hyparquet_dump;

class ParquetWriterTest : public test::TempDirTest {};

std::vector<ColumnSpec> sample_columns() {
  return {
      {"id", ColumnKind::Int64, false, false, true},
      {"name", ColumnKind::String, true, true, true},       // few distinct values: dictionary
      {"code", ColumnKind::UInt16, false, true, true},
      {"result", ColumnKind::UInt8, false, true, true},
      {"score", ColumnKind::Int32, true, false, true},       // plain, with nulls
      {"blob", ColumnKind::Binary, false, false, false},
  };
}

// Row i of the sample: names cycle through 3 values and are null every 5th row.
void add_sample_row(std::vector<ColumnValues>& c, int64_t i) {
  c[0].add(i * 1000003 - 5000000);
  if (i % 5 == 0) c[1].add_null();
  else c[1].add(std::string(i % 3 == 0 ? "Carlsen" : i % 3 == 1 ? "Caruana" : "Ding Liren"));
  c[2].add(int64_t((i * 37) % 65536));
  c[3].add(int64_t(i % 4));
  if (i % 7 == 3) c[4].add_null();
  else c[4].add(int64_t(-i));
  c[5].add(std::string(1, char(i % 256)) + "\x01");
}

TEST_F(ParquetWriterTest, RefusesToOverwriteAFile) {
  const auto path = dir_ / "exists.parquet";
  { std::FILE* f = std::fopen(path.c_str(), "w"); std::fclose(f); }
  EXPECT_THROW(ParquetWriter(path, sample_columns()), DatasetError);
  EXPECT_EQ(std::filesystem::file_size(path), 0u);
}

TEST_F(ParquetWriterTest, TwoReadersAgreeOnSchemaStatisticsAndValues) {
  PGNBASE_REQUIRE_NODE_READERS();
  const auto path = dir_ / "sample.parquet";
  ParquetOptions options;
  options.page_rows = 100;  // several pages per chunk
  options.sorting_columns = {0};
  options.metadata = {{"pgnbase.test", "yes"}};
  ParquetWriter writer(path, sample_columns(), options);
  const int64_t kGroups[] = {250, 1000, 3};
  int64_t row = 0;
  for (int64_t n : kGroups) {
    std::vector<ColumnValues> columns(6);
    for (int64_t i = 0; i < n; ++i) add_sample_row(columns, row++);
    writer.write_row_group(columns);
  }
  writer.finish();

  const std::vector<std::string> dump = hyparquet_dump({path});
  ASSERT_GE(dump.size(), 3u);
  EXPECT_EQ(dump[1], "rows " + std::to_string(row));
  EXPECT_EQ(dump[2], "row_groups 3");
  auto has = [&](const std::string& line) { return std::find(dump.begin(), dump.end(), line) != dump.end(); };
  EXPECT_TRUE(has("column id INT64 REQUIRED - -"));
  EXPECT_TRUE(has("column name BYTE_ARRAY OPTIONAL UTF8 {\"type\":\"STRING\"}"));
  EXPECT_TRUE(has("column code INT32 REQUIRED UINT_16 {\"type\":\"INTEGER\",\"bitWidth\":16,\"isSigned\":false}"));
  EXPECT_TRUE(has("row_group 0 250 sorted_by 0"));
  // Row group 0 holds rows 0..249: id from -5000000 to 249*1000003-5000000.
  EXPECT_TRUE(has("stats 0 id ZSTD PLAIN 0 -5000000 " + std::to_string(249 * 1000003LL - 5000000)));
  EXPECT_TRUE(has("stats 0 name ZSTD PLAIN,RLE_DICTIONARY,RLE 50 Carlsen Ding Liren"));
  EXPECT_TRUE(has("stats 0 result ZSTD PLAIN,RLE_DICTIONARY 0 0 3"));
  EXPECT_TRUE(has("stats 2 score ZSTD PLAIN,RLE 0 -1252 -1250"));
  EXPECT_TRUE(has("stats 0 blob ZSTD PLAIN 0 \\N \\N"));
  // Every row, as hyparquet and as DuckDB read it, against what was written.
  std::vector<std::string> expected_rows, hyparquet_rows;
  for (const std::string& line : dump)
    if (line.rfind("row ", 0) == 0) hyparquet_rows.push_back(line.substr(4));
  for (int64_t i = 0; i < row; ++i) {
    std::vector<ColumnValues> c(6);
    add_sample_row(c, i);
    const std::string name = c[1].bytes().empty() ? "\\N" : c[1].bytes()[0];
    const std::string score = c[4].ints().empty() ? "\\N" : std::to_string(c[4].ints()[0]);
    char blob[8];
    std::snprintf(blob, sizeof blob, "%02x01", unsigned(uint8_t(c[5].bytes()[0][0])));
    expected_rows.push_back(std::to_string(c[0].ints()[0]) + "\t" + name + "\t" + std::to_string(c[2].ints()[0]) +
                            "\t" + std::to_string(c[3].ints()[0]) + "\t" + score + "\t" + blob);
  }
  EXPECT_EQ(hyparquet_rows, expected_rows);
  const std::string file = "'" + path.string() + "'";
  const std::vector<std::string> duck = duckdb_rows(
      "SELECT id, coalesce(name, '\\N'), code, result, coalesce(score::VARCHAR, '\\N'), lower(hex(blob)) FROM " + file);
  EXPECT_EQ(duck, expected_rows);
  EXPECT_EQ(duckdb_value("SELECT typeof(code) || ' ' || typeof(result) FROM " + file + " LIMIT 1"), "USMALLINT UTINYINT");
  EXPECT_EQ(duckdb_value("SELECT value FROM parquet_kv_metadata(" + file + ") WHERE key = 'pgnbase.test'"), "yes");
  EXPECT_EQ(duckdb_value("SELECT count(*) FROM parquet_metadata(" + file + ") WHERE stats_min_value IS NOT NULL"), "15");
}

}  // namespace
}  // namespace pgnbase::dataset
