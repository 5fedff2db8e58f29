// dataset::ParquetReader on files written by the project's own writer (always) and by
// DuckDB (when node is installed): every value of every row read back as written, for
// each physical and logical type the reader takes, each codec, several row groups and
// pages, nulls, dictionaries and version 2 data pages; and what it does not read refused
// in one line naming the file, the column and the thing.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "dataset/parquet_writer.h"
#include "tests/dataset/node_readers.h"
#include "tests/dataset/parquet_read_support.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"

namespace pgnbase::dataset {
namespace {

namespace fs = std::filesystem;
using dataset_test::all_rows;
using dataset_test::reader_over;

using ParquetReaderTest = test::TempDirTest;

// The rows the own-writer test writes: row i of rows().
std::vector<std::vector<std::string>> written_rows(size_t count) {
  std::vector<std::vector<std::string>> rows;
  for (size_t i = 0; i < count; ++i)
    rows.push_back({std::to_string(int64_t(i) * 1'000'003 - 500'000'000),
                    i % 4 == 0 ? "\\N" : std::to_string(1200 + i % 1700),
                    i % 9 == 0 ? "\\N" : "player " + std::to_string(i % 23),
                    std::string(i % 37, char('a' + i % 26))});
  return rows;
}

TEST_F(ParquetReaderTest, OwnWriterFileReadsBackEveryValue) {
  const fs::path path = dir_ / "own.parquet";
  ParquetOptions options;
  options.page_rows = 100;  // several pages per chunk
  ParquetWriter writer(path,
                       {{"big", ColumnKind::Int64}, {"elo", ColumnKind::UInt16, true},
                        {"name", ColumnKind::String, true}, {"blob", ColumnKind::Binary, false, false}},
                       options);
  const std::vector<std::vector<std::string>> rows = written_rows(2500);
  for (size_t begin : {size_t{0}, size_t{1000}, size_t{1700}}) {
    const size_t end = begin == 1700 ? rows.size() : begin == 0 ? 1000 : 1700;
    std::vector<ColumnValues> columns(4);
    for (size_t i = begin; i < end; ++i) {
      columns[0].add(std::stoll(rows[i][0]));
      rows[i][1] == "\\N" ? columns[1].add_null() : columns[1].add(std::stoll(rows[i][1]));
      rows[i][2] == "\\N" ? columns[2].add_null() : columns[2].add(rows[i][2]);
      columns[3].add(rows[i][3]);
    }
    writer.write_row_group(columns);
  }
  writer.finish();

  const std::string bytes = test::read_file(path);
  ParquetReader reader = reader_over(bytes);
  ASSERT_EQ(reader.columns().size(), 4u);
  EXPECT_EQ(reader.columns()[1].kind, ParquetValueKind::Unsigned);
  EXPECT_TRUE(reader.columns()[1].optional);
  EXPECT_EQ(reader.columns()[2].kind, ParquetValueKind::Text);
  EXPECT_EQ(reader.rows(), 2500u);
  EXPECT_EQ(reader.row_groups(), 3u);
  EXPECT_EQ(all_rows(reader), rows);
}

struct DuckDbFile {
  const char* options;
  const char* columns;  // the SELECT list over range(3000) r(i)
};

// Values from i, the same formulas as kAllTypes's SQL, as the reader gives them.
std::vector<std::string> expected_row(int64_t i, bool all_types) {
  auto text = [](int64_t v) { return std::to_string(v); };
  const std::string word = i % 3 == 1 ? "\\N" : "name " + text(i % 17);
  const std::string flag = text(i % 3 == 0);
  if (!all_types) return {flag, word};
  return {text(i % 200 - 100),
          i % 5 == 0 ? "\\N" : text(i * 1000003),
          text(i % 250),
          text(i * 1431655),  // past 2^31 near the end: read as unsigned
          flag,
          std::to_string(double(i) / 4),
          std::to_string(double(float(i) / 8)),
          text(i * 37 - 20000),
          text(i * 7 * 1'000'000),
          text(i * 1000003000),
          word,
          "unique text " + text(i)};
}

constexpr const char* kAllTypes =
    "(i % 200 - 100)::SMALLINT AS small, CASE WHEN i % 5 = 0 THEN NULL ELSE i * 1000003 END::BIGINT AS big, "
    "(i % 250)::UTINYINT AS tiny, (i * 1431655)::UINTEGER AS u32, (i % 3 = 0) AS flag, (i / 4)::DOUBLE AS half, "
    "(i / 8)::FLOAT AS single, DATE '1970-01-01' + (i * 37 - 20000)::INT AS day, "
    "TIME '00:00:00' + to_seconds(i * 7) AS tod, make_timestamp(i * 1000003000) AS ts, "
    "CASE WHEN i % 3 = 1 THEN NULL ELSE 'name ' || (i % 17) END AS word, 'unique text ' || i AS txt";

TEST_F(ParquetReaderTest, DuckDbFilesReadBackEveryTypeAndCodec) {
  PGNBASE_REQUIRE_NODE_READERS();
  const std::vector<DuckDbFile> files = {
      {"COMPRESSION 'zstd', ROW_GROUP_SIZE 1000", kAllTypes},
      {"COMPRESSION 'snappy'", kAllTypes},
      {"COMPRESSION 'gzip', ROW_GROUP_SIZE 700", kAllTypes},
      {"COMPRESSION 'uncompressed'", kAllTypes},
      // Version 2 data pages; DuckDB then writes most types with DELTA encodings, which
      // are not read, so only a boolean and a dictionary-encoded text column.
      {"COMPRESSION 'snappy', PARQUET_VERSION 'V2'",
       "(i % 3 = 0) AS flag, CASE WHEN i % 3 = 1 THEN NULL ELSE 'name ' || (i % 17) END AS word"},
  };
  for (size_t f = 0; f < files.size(); ++f) {
    const fs::path path = dir_ / ("duck" + std::to_string(f) + ".parquet");
    dataset_test::duckdb_rows(std::string("COPY (SELECT ") + files[f].columns + " FROM range(3000) r(i)) TO '" +
                              path.string() + "' (FORMAT parquet, " + files[f].options + ")");
    const std::string bytes = test::read_file(path);
    ParquetReader reader = reader_over(bytes);
    const bool all_types = files[f].columns == kAllTypes;
    if (all_types) {
      const std::vector<ParquetValueKind> kinds = {
          ParquetValueKind::Integer, ParquetValueKind::Integer, ParquetValueKind::Unsigned, ParquetValueKind::Unsigned,
          ParquetValueKind::Boolean, ParquetValueKind::Real,    ParquetValueKind::Real,     ParquetValueKind::Date,
          ParquetValueKind::Time,    ParquetValueKind::Timestamp, ParquetValueKind::Text,  ParquetValueKind::Text};
      ASSERT_EQ(reader.columns().size(), kinds.size());
      for (size_t c = 0; c < kinds.size(); ++c) EXPECT_EQ(reader.columns()[c].kind, kinds[c]) << reader.columns()[c].name;
      EXPECT_EQ(reader.columns()[8].unit, parquet::TimeUnit::Micros);
    }
    const std::vector<std::vector<std::string>> rows = all_rows(reader);
    ASSERT_EQ(rows.size(), 3000u) << files[f].options;
    for (int64_t i = 0; i < 3000; ++i) ASSERT_EQ(rows[size_t(i)], expected_row(i, all_types)) << files[f].options << " row " << i;
  }
}

TEST_F(ParquetReaderTest, WhatIsNotReadIsRefusedNamingFileColumnAndThing) {
  PGNBASE_REQUIRE_NODE_READERS();
  struct Refusal {
    const char* select;
    const char* options;
    const char* column;
    const char* thing;
  };
  const std::vector<Refusal> refusals = {
      {"i::INT AS n", "PARQUET_VERSION 'V2'", "column 'n'", "DELTA_BINARY_PACKED"},
      {"(i / 3)::DOUBLE AS r", "PARQUET_VERSION 'V2'", "column 'r'", "BYTE_STREAM_SPLIT"},
      {"'x' || i AS s, [i, i] AS l", "COMPRESSION 'zstd'", "column 'l'", "nested"},
      {"'x' AS s, i::INT AS n", "COMPRESSION 'lz4'", "column 's'", "LZ4_RAW"},
      {"'x' AS s", "COMPRESSION 'brotli'", "column 's'", "BROTLI"},
      {"(i / 4)::DECIMAL(10, 2) AS d", "COMPRESSION 'zstd'", "column 'd'", "DECIMAL"},
      {"gen_random_uuid() AS u", "COMPRESSION 'zstd'", "column 'u'", "FIXED_LEN_BYTE_ARRAY"},
  };
  for (size_t r = 0; r < refusals.size(); ++r) {
    const fs::path path = dir_ / ("refused" + std::to_string(r) + ".parquet");
    dataset_test::duckdb_rows(std::string("COPY (SELECT ") + refusals[r].select + " FROM range(100) r(i)) TO '" +
                              path.string() + "' (FORMAT parquet, " + refusals[r].options + ")");
    const std::string bytes = test::read_file(path);
    try {
      ParquetReader reader = reader_over(bytes, path.string());
      all_rows(reader);
      ADD_FAILURE() << refusals[r].select << " was read";
    } catch (const ParquetReadError& e) {
      const std::string message = e.what();
      EXPECT_EQ(message.find('\n'), std::string::npos) << message;
      EXPECT_NE(message.find(path.string()), std::string::npos) << message;
      EXPECT_NE(message.find(refusals[r].column), std::string::npos) << message;
      EXPECT_NE(message.find(refusals[r].thing), std::string::npos) << message;
      EXPECT_NE(message.find("does not read"), std::string::npos) << message;
    }
  }
}

}  // namespace
}  // namespace pgnbase::dataset
