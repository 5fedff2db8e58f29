// The PGN text pgn-index reads from a Parquet row (indexer/parquet_game_text.h), on
// hand-made edge cases of the rule, each named: the seven-tag roster first and Date made
// from UTCDate; lichess's signed rating changes; dates before 1970 and times in each
// unit; quotes and backslashes escaped; a missing result taken from Result; line breaks
// and a leading '[' that must not start another game; nulls left out.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "indexer/input_source.h"
#include "tests/dataset/node_readers.h"
#include "tests/support/temp_dir.h"

namespace pgnbase::indexer {
namespace {

namespace fs = std::filesystem;

using ParquetGameTextTest = test::TempDirTest;

std::string text_of(const fs::path& path) {
  InputSource in = InputSource::open(path.string());
  std::string text(size_t{1} << 16, '\0');
  text.resize(in.read(text.data(), text.size()));
  return text;
}

fs::path write(const fs::path& dir, const std::string& name, const std::string& select) {
  const fs::path path = dir / name;
  dataset_test::duckdb_rows("COPY (" + select + ") TO '" + path.string() + "' (FORMAT parquet, COMPRESSION 'zstd')");
  return path;
}

TEST_F(ParquetGameTextTest, RowsBecomeTagsInRosterOrderThenMovetextAndResult) {
  PGNBASE_REQUIRE_NODE_READERS();
  const fs::path path = write(
      dir_, "rows.parquet",
      "SELECT * FROM (VALUES "
      "('Rated Blitz game', 'O\"Brien \\ Jr', 'b', '1-0', 7::SMALLINT, -6::SMALLINT, 2245::SMALLINT, "
      "DATE '2024-01-31', TIME '23:59:05', '1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0'), "
      "('Casual' || chr(10) || 'Correspondence', 'c', NULL, '1/2-1/2', 0::SMALLINT, NULL, NULL, DATE '1969-12-31', "
      "TIME '00:00:00', '1. d4 d5' || chr(13) || chr(10) || '2. c4'), "
      "('x', 'd', 'e', NULL, NULL, NULL, NULL, NULL, NULL, '[Event \"injected\"] 1. e4'), "
      "('y', 'f', 'g', '0-1', NULL, NULL, NULL, NULL, NULL, NULL)"
      ") AS t(Event, White, Black, Result, WhiteRatingDiff, BlackRatingDiff, BlackElo, UTCDate, UTCTime, movetext)");
  EXPECT_EQ(text_of(path),
            "[Event \"Rated Blitz game\"]\n[Date \"2024.01.31\"]\n[White \"O\\\"Brien \\\\ Jr\"]\n[Black \"b\"]\n"
            "[Result \"1-0\"]\n[WhiteRatingDiff \"+7\"]\n[BlackRatingDiff \"-6\"]\n[BlackElo \"2245\"]\n"
            "[UTCDate \"2024.01.31\"]\n[UTCTime \"23:59:05\"]\n\n"
            "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n"
            "[Event \"Casual Correspondence\"]\n[Date \"1969.12.31\"]\n[White \"c\"]\n[Result \"1/2-1/2\"]\n"
            "[WhiteRatingDiff \"+0\"]\n[UTCDate \"1969.12.31\"]\n[UTCTime \"00:00:00\"]\n\n"
            "1. d4 d5  2. c4 1/2-1/2\n\n"
            "[Event \"x\"]\n[White \"d\"]\n[Black \"e\"]\n\n"
            "{} [Event \"injected\"] 1. e4 *\n\n"
            "[Event \"y\"]\n[White \"f\"]\n[Black \"g\"]\n[Result \"0-1\"]\n\n0-1\n\n");
}

TEST_F(ParquetGameTextTest, TimesAndTimestampsInEveryUnitAndAStringTime) {
  PGNBASE_REQUIRE_NODE_READERS();
  const fs::path path = write(dir_, "times.parquet",
                              "SELECT TIMESTAMP_MS '2013-01-01 00:00:07' AS Stamp, "
                              "TIMESTAMP_NS '1960-06-30 12:34:56.789' AS Nanos, '13:24:36' AS UTCTime, "
                              "DATE '2013-01-01' AS UTCDate, '2012.12.31' AS Date, '1. e4 *' AS movetext");
  EXPECT_EQ(text_of(path),
            "[Date \"2012.12.31\"]\n[Stamp \"2013.01.01 00:00:07\"]\n[Nanos \"1960.06.30 12:34:56\"]\n"
            "[UTCTime \"13:24:36\"]\n[UTCDate \"2013.01.01\"]\n\n1. e4 *\n\n");
}

TEST_F(ParquetGameTextTest, TableWithoutMovetextOrWithAColumnNameThatIsNoTagIsRefused) {
  PGNBASE_REQUIRE_NODE_READERS();
  for (const auto& [select, said] :
       {std::pair{"SELECT 'a' AS White, 'b' AS Black", "needs a movetext column"},
        std::pair{"SELECT 'a' AS \"White Player\", '1. e4 *' AS movetext", "column 'White Player' cannot be a PGN tag"}}) {
    const fs::path path = write(dir_, "refused.parquet", select);
    try {
      InputSource::open(path.string());
      ADD_FAILURE() << select;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(said), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
    }
    fs::remove(path);
  }
}

}  // namespace
}  // namespace pgnbase::indexer
