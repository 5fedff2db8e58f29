// A damaged or hostile Parquet file never crashes the reader nor makes it read out of
// bounds (run under ASan): real files truncated at many lengths and with bytes flipped
// at random (a fixed seed) are read to their end, and each either reads or ends in one
// ParquetReadError. The files: the project's own writer's (zstd, dictionaries, optional
// columns, several row groups and pages; always) and DuckDB's of real lichess games in
// the lichess schema (snappy and gzip; when node is installed).
#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "dataset/parquet_writer.h"
#include "tests/dataset/lichess_parquet.h"
#include "tests/dataset/node_readers.h"
#include "tests/dataset/parquet_read_support.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"
#include "indexer/input_source.h"

namespace pgnbase::dataset {
namespace {

namespace fs = std::filesystem;
using dataset_test::all_rows;
using dataset_test::reader_over;

using ParquetDamagedTest = test::TempDirTest;

const fs::path kSample = fs::path(PGNBASE_SOURCE_DIR) / "tools" / "sample" / "lichess-drnykterstein-2000.pgn.zst";

// The first games of the bundled lichess sample.
std::vector<dataset_test::PgnGame> sample_games(size_t count) {
  indexer::InputSource in = indexer::InputSource::open(kSample.string());
  std::string text(size_t{1} << 20, '\0');
  text.resize(in.read(text.data(), text.size()));
  std::vector<dataset_test::PgnGame> games = dataset_test::split_pgn_games(text);
  games.resize(std::min(games.size(), count));
  return games;
}

// Reads every row; false when the reader refused the bytes.
bool reads(const std::string& bytes) {
  try {
    ParquetReader reader = reader_over(bytes);
    all_rows(reader);
    return true;
  } catch (const ParquetReadError& e) {
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
    return false;
  }
}

// Truncations and byte flips of a file that reads whole.
void expect_damage_handled(const std::string& file) {
  ASSERT_TRUE(reads(file));
  // A truncated file lacks its footer: refused, whatever the length.
  for (size_t length = 0; length < file.size(); length += 1 + file.size() / 300)
    EXPECT_FALSE(reads(file.substr(0, length))) << length;
  for (size_t cut = 1; cut <= 16; ++cut) EXPECT_FALSE(reads(file.substr(0, file.size() - cut))) << cut;
  std::mt19937 random(20240526);
  size_t flips_refused = 0;
  constexpr int kFlips = 1500;
  for (int i = 0; i < kFlips; ++i) {
    std::string damaged = file;
    const int bytes = 1 + int(random() % 3);
    for (int b = 0; b < bytes; ++b) damaged[random() % damaged.size()] = char(random() % 256);
    flips_refused += !reads(damaged);
  }
  // Footer and page headers are dense: many flips must be caught (checksums are not
  // checked, so a flip inside a value may read as another value).
  EXPECT_GT(flips_refused, size_t(kFlips / 10));
}

TEST_F(ParquetDamagedTest, OwnWriterFileDamagedNeverCrashes) {
  const fs::path path = dir_ / "own.parquet";
  ParquetOptions options;
  options.page_rows = 40;
  ParquetWriter writer(path,
                       {{"Site", ColumnKind::String}, {"WhiteElo", ColumnKind::UInt16, true},
                        {"Result", ColumnKind::String, true}, {"movetext", ColumnKind::String, false, false}},
                       options);
  const std::vector<dataset_test::PgnGame> games = sample_games(120);
  for (size_t begin = 0; begin < games.size(); begin += 50) {
    std::vector<ColumnValues> columns(4);
    for (size_t i = begin; i < std::min(games.size(), begin + 50); ++i) {
      auto tag = [&](const char* name) -> const std::string* {
        for (const auto& [n, v] : games[i].tags)
          if (n == name) return &v;
        return nullptr;
      };
      columns[0].add(*tag("Site"));
      i % 5 == 0 ? columns[1].add_null() : columns[1].add(std::stoll(*tag("WhiteElo")));
      columns[2].add(*tag("Result"));
      columns[3].add(games[i].movetext.substr(0, 300));  // short, so that each flip run stays fast
    }
    writer.write_row_group(columns);
  }
  writer.finish();
  expect_damage_handled(test::read_file(path));
}

TEST_F(ParquetDamagedTest, DuckDbSnappyAndGzipFilesDamagedNeverCrash) {
  PGNBASE_REQUIRE_NODE_READERS();
  std::vector<dataset_test::PgnGame> games = sample_games(60);
  for (auto& g : games) g.movetext = g.movetext.substr(0, 300);
  dataset_test::write_lichess_parquets(games, {{dir_ / "snappy.parquet", "COMPRESSION 'snappy'"},
                                               {dir_ / "gzip.parquet", "COMPRESSION 'gzip'"}});
  for (const char* file : {"snappy.parquet", "gzip.parquet"}) expect_damage_handled(test::read_file(dir_ / file));
}

}  // namespace
}  // namespace pgnbase::dataset
