// pgn-index reads Parquet files of games (lichess's Parquet edition) as it reads PGN:
// real games written by DuckDB in the lichess schema are imported by the program, and
// the database equals the one imported from the PGN they came from: the same games
// found, imported and rejected, the same exported PGN (tags compared as sets: the
// Parquet file has its own column order), the same position search answer; imported
// after the PGN, every game is a duplicate. Also: several row groups, the SNAPPY, GZIP
// and uncompressed codecs, null Elo values, a folder of Hive-style parts, a reject that
// names its row, and a file the reader refuses, in one line. The bundled lichess sample
// always (node needed for DuckDB); parts of ../shared/data when present.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "dataset/parquet_writer.h"
#include "indexer/input_source.h"
#include "store/database.h"
#include "tests/dataset/lichess_parquet.h"
#include "tests/dataset/node_readers.h"
#include "tests/support/files.h"
#include "tests/support/shared_data.h"
#include "tests/support/temp_dir.h"

namespace pgnbase::dataset {
namespace {

namespace fs = std::filesystem;
using dataset_test::PgnGame;
using dataset_test::split_pgn_games;
using dataset_test::write_lichess_parquet;

const fs::path kSample = fs::path(PGNBASE_SOURCE_DIR) / "tools" / "sample" / "lichess-drnykterstein-2000.pgn.zst";
const std::string kIndexBinary = PGNBASE_BINARY_DIR "/tools/pgn-index";
const std::string kQueryBinary = PGNBASE_BINARY_DIR "/tools/pgn-query";

// The uncompressed text of a PGN input, up to max_bytes and then to the end of that game.
std::string read_text(const fs::path& path, size_t max_bytes = SIZE_MAX) {
  indexer::InputSource in = indexer::InputSource::open(path.string());
  std::string text;
  std::vector<char> buffer(1 << 16);
  for (size_t n; text.size() < max_bytes && (n = in.read(buffer.data(), buffer.size())) > 0;)
    text.append(buffer.data(), n);
  if (text.size() > max_bytes) text.resize(text.find("\n[Event ", max_bytes) + 1);
  return text;
}

// PGN text of games, as lichess writes it.
std::string pgn_of(const std::vector<PgnGame>& games) {
  std::string out;
  for (const PgnGame& g : games) {
    for (const auto& [name, value] : g.tags) out += "[" + name + " \"" + value + "\"]\n";
    out += "\n" + g.movetext + "\n\n\n";
  }
  return out;
}

// Each exported game with its tag lines sorted, minus those in dropped ("[Variant \"Standard\"]":
// lichess's Parquet edition holds standard games and has no Variant column).
std::vector<std::string> normalized_games(const std::string& pgn, const std::vector<std::string>& dropped = {}) {
  std::vector<std::string> games;
  std::vector<std::string> tags;
  std::string movetext;
  auto flush = [&] {
    if (tags.empty() && movetext.empty()) return;
    std::sort(tags.begin(), tags.end());
    std::string game;
    for (const std::string& t : tags) game += t + "\n";
    games.push_back(game + movetext);
    tags.clear();
    movetext.clear();
  };
  std::istringstream in(pgn);
  for (std::string line; std::getline(in, line);) {
    if (line.size() > 1 && line[0] == '[' && std::isalpha(static_cast<unsigned char>(line[1]))) {
      if (!movetext.empty()) flush();
      if (std::find(dropped.begin(), dropped.end(), line) == dropped.end()) tags.push_back(line);
    } else {
      movetext += line + "\n";
    }
  }
  flush();
  return games;
}

int64_t count_of(const fs::path& db, const std::string& sql) {
  store::Database d(db.string(), store::Database::Mode::ReadOnly);
  store::Statement s = d.prepare(sql);
  return s.step() ? s.column_int64(0) : -1;
}

class ParquetImportTest : public test::TempDirTest {
 protected:
  // Runs a program in the test's folder: its stdout; exit_code gets its status.
  std::string run(const std::string& program, const std::vector<std::string>& args, int expected_exit = 0) const {
    int code = -1;
    const auto out = dataset_test::run_program(dir_, program, args, &code);
    EXPECT_EQ(code, expected_exit) << program << " " << args.back();
    return out.value_or("");
  }

  std::string import(const std::string& db, const std::vector<std::string>& inputs, int expected_exit = 0) const {
    std::vector<std::string> args{"-j", "2", "-o", db};
    args.insert(args.end(), inputs.begin(), inputs.end());
    return run(kIndexBinary, args, expected_exit);
  }

  std::string exported(const std::string& db) const {
    run(kQueryBinary, {"export", db, "-o", db + ".pgn"});
    return test::read_file(dir_ / (db + ".pgn"));
  }

  // Imports games as PGN and as the Parquet file parquet, and expects the same database:
  // games found, imported and rejected, exported games, a position search.
  void expect_same_games(const std::vector<PgnGame>& games, const fs::path& parquet,
                         const std::vector<std::string>& dropped_tags, const std::string& moves) {
    test::write_file(dir_ / "games.pgn", pgn_of(games));
    const std::string pgn_said = import("from-pgn.db", {"games.pgn"});
    const std::string parquet_said = import("from-parquet.db", {parquet.string()});
    // "NAME: N games found, N imported, N rejected in ..."
    auto counts = [](const std::string& said) { return said.substr(said.find(": ") + 2, said.find(" in ") - said.find(": ") - 2); };
    EXPECT_EQ(counts(parquet_said), counts(pgn_said));
    const int64_t stored = count_of(dir_ / "from-pgn.db", "SELECT count(*) FROM games");
    EXPECT_GT(stored, 0);
    EXPECT_EQ(count_of(dir_ / "from-parquet.db", "SELECT count(*) FROM games"), stored);
    EXPECT_EQ(count_of(dir_ / "from-parquet.db", "SELECT count(*) FROM rejects"),
              count_of(dir_ / "from-pgn.db", "SELECT count(*) FROM rejects"));
    const std::vector<std::string> from_pgn = normalized_games(exported("from-pgn.db"), dropped_tags);
    const std::vector<std::string> from_parquet = normalized_games(exported("from-parquet.db"));
    ASSERT_EQ(from_parquet.size(), from_pgn.size());
    for (size_t i = 0; i < from_pgn.size(); ++i) ASSERT_EQ(from_parquet[i], from_pgn[i]) << "game " << i + 1;
    const std::string searched = run(kQueryBinary, {"search", "from-pgn.db", "--moves", moves, "--format", "csv"});
    EXPECT_GT(std::count(searched.begin(), searched.end(), '\n'), 2) << moves;
    EXPECT_EQ(run(kQueryBinary, {"search", "from-parquet.db", "--moves", moves, "--format", "csv"}), searched);
  }
};

const std::vector<PgnGame>& sample_games() {
  static const std::vector<PgnGame> games = split_pgn_games(read_text(kSample));
  return games;
}

TEST_F(ParquetImportTest, LichessSampleWrittenByDuckDbReadsAsItsPgn) {
  PGNBASE_REQUIRE_NODE_READERS();
  ASSERT_EQ(sample_games().size(), 2000u);
  const std::vector<PgnGame> games(sample_games().begin(), sample_games().begin() + 600);
  const fs::path parquet = dir_ / "sample.parquet";
  write_lichess_parquet(games, parquet, "COMPRESSION 'zstd'");
  expect_same_games(games, parquet, {"[Variant \"Standard\"]"}, "1.d4 d5");
  // Imported after the PGN, every game of the Parquet file is a duplicate.
  const std::string said = import("from-pgn.db", {parquet.string()});
  EXPECT_NE(said.find("600 games found, 0 imported, 0 rejected, 600 duplicates skipped"), std::string::npos) << said;
  EXPECT_EQ(count_of(dir_ / "from-pgn.db", "SELECT count(*) FROM games"), 600);
}

// Always, without node: the project's own writer makes a file of the sample's games with
// the lichess column names (dates and times as text, integers as INT32; DuckDB is what
// writes the real types), in row groups of 100 games and pages of 32 rows.
TEST_F(ParquetImportTest, OwnWriterFileInSmallRowGroupsReadsAsItsPgn) {
  const std::vector<std::string> names = {"Event",    "Site",     "White",           "Black",          "Result",
                                          "WhiteTitle", "BlackTitle", "WhiteElo",    "BlackElo",       "WhiteRatingDiff",
                                          "BlackRatingDiff", "UTCDate", "UTCTime",   "ECO",            "Opening",
                                          "Termination", "TimeControl"};
  std::vector<ColumnSpec> specs;
  for (const std::string& name : names)
    specs.push_back({name, name.find("Elo") != std::string::npos || name.ends_with("Diff") ? ColumnKind::Int32
                                                                                            : ColumnKind::String,
                     true});
  specs.push_back({"movetext", ColumnKind::String, false, false});
  ParquetOptions options;
  options.page_rows = 32;
  const fs::path parquet = dir_ / "own.parquet";
  const std::vector<PgnGame> games(sample_games().begin() + 600, sample_games().begin() + 1200);
  ParquetWriter writer(parquet, specs, options);
  for (size_t begin = 0; begin < games.size(); begin += 100) {
    std::vector<ColumnValues> columns(specs.size());
    for (size_t g = begin; g < std::min(begin + 100, games.size()); ++g) {
      const PgnGame& game = games[g];
      for (size_t c = 0; c < names.size(); ++c) {
        auto tag = std::find_if(game.tags.begin(), game.tags.end(), [&](const auto& t) { return t.first == names[c]; });
        if (tag == game.tags.end()) columns[c].add_null();
        else if (specs[c].kind == ColumnKind::Int32) columns[c].add(int64_t(std::stoll(tag->second)));
        else columns[c].add(tag->second);
      }
      columns.back().add(game.movetext);
    }
    writer.write_row_group(columns);
  }
  writer.finish();
  expect_same_games(games, parquet, {"[Variant \"Standard\"]"}, "1.e4 c5");
}

TEST_F(ParquetImportTest, EveryCodecAndNullElosGiveTheSameGames) {
  PGNBASE_REQUIRE_NODE_READERS();
  const std::vector<PgnGame> games(sample_games().begin(), sample_games().begin() + 50);
  std::vector<std::string> exports;
  const std::vector<std::string> codecs = {"snappy", "gzip", "uncompressed"};
  std::vector<std::pair<fs::path, std::string>> files;
  for (const std::string& codec : codecs) files.emplace_back(dir_ / (codec + ".parquet"), "COMPRESSION '" + codec + "'");
  dataset_test::write_lichess_parquets(games, files);
  for (const std::string& codec : codecs) {
    const fs::path parquet = dir_ / (codec + ".parquet");
    const std::string db = codec + ".db";
    import(db, {parquet.string()});
    exports.push_back(exported(db));
    EXPECT_EQ(exports.back(), exports.front()) << codec;
  }
  // Games without an Elo: the lichess dataset's int16 Elo columns are null for them.
  std::vector<PgnGame> unrated = games;
  size_t nulls = 0;
  for (size_t i = 0; i < unrated.size(); i += 7, ++nulls)
    std::erase_if(unrated[i].tags, [](const auto& tag) { return tag.first == "WhiteElo"; });
  const fs::path parquet = dir_ / "unrated.parquet";
  write_lichess_parquet(unrated, parquet, "COMPRESSION 'zstd'");
  EXPECT_EQ(dataset_test::duckdb_value("SELECT count(*) FROM '" + parquet.string() + "' WHERE WhiteElo IS NULL"),
            std::to_string(nulls));
  expect_same_games(unrated, parquet, {"[Variant \"Standard\"]"}, "1.d4");
  EXPECT_EQ(count_of(dir_ / "from-parquet.db", "SELECT count(*) FROM games WHERE white_elo IS NULL"), int64_t(nulls));
}

TEST_F(ParquetImportTest, FolderOfHivePartsIsOneSourcePerFileInPathOrder) {
  PGNBASE_REQUIRE_NODE_READERS();
  const std::vector<PgnGame> march(sample_games().begin(), sample_games().begin() + 40);
  const std::vector<PgnGame> april(sample_games().begin() + 40, sample_games().begin() + 100);
  fs::create_directories(dir_ / "lichess" / "year=2022" / "month=03");
  fs::create_directories(dir_ / "lichess" / "year=2022" / "month=04");
  write_lichess_parquet(april, dir_ / "lichess" / "year=2022" / "month=04" / "train-00000.parquet", "COMPRESSION 'zstd'");
  write_lichess_parquet(march, dir_ / "lichess" / "year=2022" / "month=03" / "train-00000.parquet", "COMPRESSION 'zstd'");
  test::write_file(dir_ / "lichess" / "README.md", "not a Parquet file: left alone");
  EXPECT_EQ(indexer::list_sources((dir_ / "lichess").string()),
            (std::vector<std::string>{(dir_ / "lichess/year=2022/month=03/train-00000.parquet").string(),
                                      (dir_ / "lichess/year=2022/month=04/train-00000.parquet").string()}));
  import("folder.db", {"lichess"});
  EXPECT_EQ(count_of(dir_ / "folder.db", "SELECT count(*) FROM sources"), 2);
  EXPECT_EQ(count_of(dir_ / "folder.db", "SELECT count(*) FROM games"), 100);
  // March's games first: the files in path order.
  std::vector<PgnGame> both = march;
  both.insert(both.end(), april.begin(), april.end());
  test::write_file(dir_ / "both.pgn", pgn_of(both));
  import("both.db", {"both.pgn"});
  EXPECT_EQ(normalized_games(exported("folder.db")), normalized_games(exported("both.db"), {"[Variant \"Standard\"]"}));
  fs::create_directories(dir_ / "empty" / "year=2022");
  import("none.db", {"empty"}, 1);  // a folder without .parquet files is a failed input
  EXPECT_FALSE(fs::exists(dir_ / "none.db"));
}

// A hand-made edge case on real games: the third row's movetext holds an illegal move.
TEST_F(ParquetImportTest, RejectNamesItsRowAsTheGameNumber) {
  PGNBASE_REQUIRE_NODE_READERS();
  std::vector<PgnGame> games(sample_games().begin(), sample_games().begin() + 5);
  const size_t move = games[2].movetext.find("2. ");
  ASSERT_NE(move, std::string::npos);
  games[2].movetext.replace(move, 3, "2. Ke8?? ");
  write_lichess_parquet(games, dir_ / "five.parquet", "COMPRESSION 'snappy'");
  import("five.db", {"five.parquet"});
  EXPECT_EQ(count_of(dir_ / "five.db", "SELECT count(*) FROM games"), 4);
  EXPECT_EQ(count_of(dir_ / "five.db", "SELECT game_number FROM rejects"), 3);
}

TEST_F(ParquetImportTest, UnreadColumnIsRefusedInOneLineNamingFileColumnAndEncoding) {
  PGNBASE_REQUIRE_NODE_READERS();
  // DuckDB's version 2 files encode unique strings as DELTA_LENGTH_BYTE_ARRAY, which is not read.
  const std::vector<PgnGame> games(sample_games().begin(), sample_games().begin() + 20);
  write_lichess_parquet(games, dir_ / "v2.parquet", "COMPRESSION 'zstd', PARQUET_VERSION 'V2'");
  int code = 0;
  std::vector<std::string> args{"-o", "v2.db", "v2.parquet", "games.pgn"};
  test::write_file(dir_ / "games.pgn", pgn_of(games));
  // stderr is the test's log; the exit status says the input failed, and the other was imported.
  dataset_test::run_program(dir_, kIndexBinary, args, &code);
  EXPECT_EQ(code, 1);
  EXPECT_EQ(count_of(dir_ / "v2.db", "SELECT count(*) FROM games"), 20);
  // Read with pread, a Parquet file cannot come through a pipe: one line says so.
  write_lichess_parquet(games, dir_ / "good.parquet", "COMPRESSION 'zstd'");
  const auto piped = dataset_test::run_program(
      dir_, "sh", {"-c", "cat good.parquet | " + kIndexBinary + " -o piped.db - 2>&1; echo exit $?"});
  EXPECT_EQ(piped.value_or(""),
            "pgn-index: cannot read '<stdin>': a Parquet file is read from a file, not from a pipe\nexit 1\n");
  try {
    indexer::InputSource::open((dir_ / "v2.parquet").string());
    ADD_FAILURE() << "a DELTA_BINARY_PACKED column was read";
  } catch (const indexer::InputError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.find('\n'), std::string::npos);
    EXPECT_NE(message.find("v2.parquet"), std::string::npos) << message;
    EXPECT_NE(message.find("column 'Site'"), std::string::npos) << message;  // the first column it refuses
    EXPECT_NE(message.find("DELTA_LENGTH_BYTE_ARRAY"), std::string::npos) << message;
  }
}

// The statements of docs/dataset.md that define the lichess_games view, DIR replaced.
std::vector<std::string> lichess_view_statements(const fs::path& dataset) {
  const std::string doc = test::read_file(fs::path(PGNBASE_SOURCE_DIR) / "docs" / "dataset.md");
  const size_t begin = doc.find("CREATE MACRO lichess_tag");
  const size_t end = doc.find("\n-- the same question", begin);
  EXPECT_NE(end, std::string::npos) << "docs/dataset.md lost its lichess_games view";
  std::string sql = doc.substr(begin, end - begin);
  for (size_t at; (at = sql.find("DIR/")) != std::string::npos;) sql.replace(at, 3, dataset.string());
  std::vector<std::string> statements;
  for (size_t at = 0, semicolon; (semicolon = sql.find(';', at)) != std::string::npos; at = semicolon + 1)
    statements.push_back(sql.substr(at, semicolon - at));
  return statements;
}

// docs/dataset.md's view over export-dataset's games/ reads as a lichess Parquet file of
// the same games: the same column names and types, and the same counts, sums and ranges.
TEST_F(ParquetImportTest, DocumentedViewGivesExportedGamesTheLichessColumns) {
  PGNBASE_REQUIRE_NODE_READERS();
  const std::vector<PgnGame> games(sample_games().begin(), sample_games().begin() + 400);
  test::write_file(dir_ / "games.pgn", pgn_of(games));
  import("games.db", {"games.pgn"});
  run(kQueryBinary, {"export-dataset", "games.db", (dir_ / "dataset").string()});
  const fs::path parquet = dir_ / "lichess.parquet";
  write_lichess_parquet(games, parquet, "COMPRESSION 'zstd'");
  std::vector<std::string> statements = lichess_view_statements(dir_ / "dataset");
  ASSERT_EQ(statements.size(), 2u);
  const std::string file = "read_parquet('" + parquet.string() + "')";
  const std::string facts =
      "SELECT count(*), count(WhiteTitle), count(BlackTitle), sum(WhiteElo), sum(BlackElo), sum(WhiteRatingDiff), "
      "sum(BlackRatingDiff), min(UTCDate), max(UTCDate), min(UTCTime), max(UTCTime), count(DISTINCT Site), "
      "count(DISTINCT Opening), count(DISTINCT Termination), count(DISTINCT TimeControl), count(DISTINCT ECO), "
      "count(DISTINCT Event || White || Black || Result) FROM ";
  for (const std::string& query :
       {std::string("SELECT column_name, column_type FROM (DESCRIBE lichess_games)"),
        "SELECT column_name, column_type FROM (DESCRIBE SELECT * EXCLUDE (movetext) FROM " + file + ")",
        facts + "lichess_games", facts + file})
    statements.push_back(query);
  const std::vector<std::vector<std::string>> results = dataset_test::duckdb_batch(statements);
  ASSERT_EQ(results.size(), 6u);
  EXPECT_EQ(results[2].size(), 17u);
  EXPECT_EQ(results[2], results[3]);
  ASSERT_EQ(results[4].size(), 1u);
  EXPECT_EQ(results[4], results[5]);
  EXPECT_EQ(results[4][0].substr(0, 4), "400\t") << results[4][0];
}

// ../shared/data: lichess API exports (clocks, evaluations, titles, unrated games) and
// lichess's non-standard games, with their Variant, FEN and SetUp as extra columns: the
// same games rejected (a variant pgnbase does not play) and imported.
TEST_F(ParquetImportTest, SharedLichessFilesReadAsTheirPgn) {
  PGNBASE_REQUIRE_NODE_READERS();
  PGNBASE_REQUIRE_SHARED("bench/lichess-api-exports-2018-2022.pgn.zst",
                         "nasty/lichess-variants/lichess-nonstandard-variants-and-setups.pgn.zst");
  std::vector<PgnGame> games = split_pgn_games(
      read_text(test::shared_data("nasty/lichess-variants/lichess-nonstandard-variants-and-setups.pgn.zst")));
  ASSERT_EQ(games.size(), 1068u);
  games.resize(600);  // Chess960, From Position, Atomic, Crazyhouse ... among them
  const std::vector<PgnGame> bench =
      split_pgn_games(read_text(test::shared_data("bench/lichess-api-exports-2018-2022.pgn.zst"), size_t{3} << 19));
  ASSERT_GT(bench.size(), 450u);
  games.insert(games.end(), bench.begin(), bench.end());
  const fs::path parquet = dir_ / "lichess.parquet";
  write_lichess_parquet(games, parquet, "COMPRESSION 'snappy'", ", Variant, FEN, SetUp");
  // An unknown rating is "?" in lichess's PGN and null in its Parquet edition's int16 column.
  expect_same_games(games, parquet, {"[WhiteElo \"?\"]", "[BlackElo \"?\"]"}, "1.e4");
  EXPECT_GT(count_of(dir_ / "from-parquet.db", "SELECT count(*) FROM rejects"), 50);
}

}  // namespace
}  // namespace pgnbase::dataset
