// Duplicates, re-imports and removal (issue 14 part 2) on real files: an exported and
// re-imported file adds no game, a grown file adds only its new games, --remove drops a
// source from the games, the position index and the explorer, --replace imports a file
// again with new options.
#include <gtest/gtest.h>

#include <sstream>

#include "core/board.h"
#include "indexer/import_pipeline.h"
#include "indexer/source_removal.h"
#include "store/position_index_reader.h"
#include "search/explorer.h"
#include "io/output_file.h"
#include "query/search_output.h"
#include "query_test_support.h"
#include "tests/support/files.h"
#include "tests/support/shared_data.h"
#include "tests/support/temp_dir.h"

namespace pgnbase::query {
namespace {

using test::TempDir;

int64_t scalar(const std::string& db_path, const std::string& sql) {
  store::Database db(db_path, store::Database::Mode::ReadOnly);
  store::Statement s = db.prepare(sql);
  return s.step() ? s.column_int64(0) : -1;
}

indexer::ImportOutcome import(const std::string& db_path, const std::string& file, indexer::ImportOptions options = {}) {
  indexer::DatabaseWriter writer(db_path, indexer::WriterOptions{});
  options.threads = 2;
  return indexer::import_file(file, writer, options);
}

// The first n games of a PGN text (each starts at a line "[Event ").
std::string first_games(const std::string& text, size_t n) {
  size_t at = 0;
  for (size_t i = 0; i <= n && at != std::string::npos; ++i) at = text.find("[Event ", i == 0 ? 0 : at + 1);
  return text.substr(0, at);
}

// The first n games of a PGN text without comments, each cut after `plies` plies with
// the result unknown: a broadcast saved before its games ended.
std::string cut_games(const std::string& text, size_t n, size_t plies) {
  std::string out;
  size_t at = text.find("[Event ");
  for (size_t i = 0; i < n && at != std::string::npos; ++i) {
    const size_t next = text.find("\n[Event ", at + 1);
    const std::string game = text.substr(at, next == std::string::npos ? std::string::npos : next + 1 - at);
    const size_t blank = game.find("\n\n");
    std::string headers = game.substr(0, blank + 1);
    const size_t result = headers.find("[Result \"");
    headers.replace(result, headers.find('\n', result) - result, "[Result \"*\"]");
    std::istringstream moves(game.substr(blank));
    std::string token, kept;
    for (size_t ply = 0; ply < plies && moves >> token;)
      if (token.back() != '.') {  // a move, alone or glued to its number ("12.Nf3"); "12." is a number
        kept += token + " ";
        ++ply;
      }
    out += headers + "\n" + kept + "*\n\n";
    at = next == std::string::npos ? next : next + 1;
  }
  return out;
}

// The import skipped these games as cut copies (each the shorter one), naming the stored
// games with these ids, in order.
void expect_skipped_as_copies_of(const indexer::SourceSummary& summary, const std::vector<int64_t>& stored_ids) {
  ASSERT_EQ(summary.truncated.size(), stored_ids.size());
  for (size_t i = 0; i < stored_ids.size(); ++i) {
    EXPECT_TRUE(summary.truncated[i].new_is_shorter) << i;
    EXPECT_EQ(summary.truncated[i].stored_id, stored_ids[i]) << i;
  }
}

class DuplicatesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    PGNBASE_REQUIRE_SHARED("annotated/pychess-learn-lichess-studies.pgn", "nasty/pgn-extract-tests/fischer.pgn",
                           "nasty/pgn-extract-tests/petrosian.pgn");
  }
  std::string shared(const std::string& name) const { return test::shared_data(name).string(); }
  TempDir dir_;
};

TEST_F(DuplicatesTest, AnExportedFileReimportsAsDuplicatesOnly) {
  // 401 of the 1,319 games of the pychess studies have no Date tag; export writes ????.??.??.
  const std::string db = dir_.file("a.db"), exported = dir_.file("export.pgn");
  const auto first = import(db, shared("annotated/pychess-learn-lichess-studies.pgn"));
  ASSERT_GT(first.summary.imported, 1000u);
  {
    store::Database database(db, store::Database::Mode::ReadOnly);
    SearchOutputOptions output;
    output.format = OutputFormat::Pgn;
    io::OutputFile out(exported);
    EXPECT_EQ(run_search(database, search::SearchOptions{}, output, out).games, int64_t(first.summary.imported));
    out.close();
  }
  ASSERT_NE(test::read_file(exported).find("[Date \"????.??.??\"]"), std::string::npos);
  const auto again = import(db, exported);
  EXPECT_FALSE(again.already_imported);  // another file (the text differs), the same games
  EXPECT_EQ(again.summary.imported, 0u);
  EXPECT_EQ(again.summary.duplicates, first.summary.imported);
  EXPECT_EQ(scalar(db, "SELECT duplicates FROM sources WHERE id = 2"), int64_t(first.summary.imported));
  // --keep-duplicates imports them all.
  indexer::ImportOptions keep;
  keep.dedupe = false;
  test::write_file(dir_.file("export2.pgn"), test::read_file(exported) + "\n");
  EXPECT_EQ(import(db, dir_.file("export2.pgn"), keep).summary.imported, first.summary.imported);
}

TEST_F(DuplicatesTest, AGrownFileImportsOnlyItsNewGames) {
  const std::string text = test::read_file(shared("nasty/pgn-extract-tests/fischer.pgn"));
  const std::string db = dir_.file("g.db"), file = dir_.file("broadcast.pgn");
  test::write_file(file, first_games(text, 10));
  EXPECT_EQ(import(db, file).summary.imported, 10u);
  test::write_file(file, first_games(text, 20));  // the same 10 games, then 10 more
  const auto grown = import(db, file);
  EXPECT_EQ(grown.summary.games_found, 20u);
  EXPECT_EQ(grown.summary.imported, 10u);
  EXPECT_EQ(grown.summary.duplicates, 10u);
  EXPECT_EQ(scalar(db, "SELECT count(*) FROM games"), 20);
  // The 20 stored games are the file's 20: games 1-10 from the first import, 11-20 from the second.
  EXPECT_EQ(scalar(db, "SELECT min(game_number) FROM games WHERE source_id = 2"), 11);
}

TEST_F(DuplicatesTest, ATruncatedCopyIsSkippedAndTheLongerGameNamed) {
  const std::string text = test::read_file(shared("nasty/pgn-extract-tests/fischer.pgn"));
  const std::string full = dir_.file("full.pgn"), early = dir_.file("early.pgn");
  test::write_file(full, first_games(text, 5));
  test::write_file(early, cut_games(text, 5, 20));
  // The longer games first: the cut copies are skipped as duplicates, each naming its game.
  const std::string db = dir_.file("t.db");
  ASSERT_EQ(import(db, full).summary.imported, 5u);
  const auto skipped = import(db, early);
  EXPECT_EQ(skipped.summary.imported, 0u);
  EXPECT_EQ(skipped.summary.duplicates, 5u);
  expect_skipped_as_copies_of(skipped.summary, {1, 2, 3, 4, 5});
  for (size_t i = 0; i < skipped.summary.truncated.size(); ++i) {
    const indexer::TruncatedCopy& c = skipped.summary.truncated[i];
    EXPECT_EQ(c.game_number, i + 1);
    EXPECT_EQ(c.plies, 20u);
    EXPECT_EQ(int64_t(c.stored_plies), scalar(db, "SELECT plies FROM games WHERE id = " + std::to_string(i + 1)));
  }
  // The cut copies first: the longer games are imported and the shorter ones named.
  const std::string db2 = dir_.file("t2.db");
  ASSERT_EQ(import(db2, early).summary.imported, 5u);
  const auto longer = import(db2, full);
  EXPECT_EQ(longer.summary.imported, 5u);
  ASSERT_EQ(longer.summary.truncated.size(), 5u);
  EXPECT_FALSE(longer.summary.truncated[0].new_is_shorter);
  // Different games with overlapping players are no truncated copies of each other.
  const std::string db3 = dir_.file("t3.db");
  import(db3, shared("nasty/pgn-extract-tests/fischer.pgn"));
  EXPECT_TRUE(import(db3, shared("nasty/pgn-extract-tests/petrosian.pgn")).summary.truncated.empty());
}

// A game that extends one stored copy and is cut from another stored game is a truncated
// copy (skipped), whichever of the two the finder meets first.
TEST_F(DuplicatesTest, AGameBetweenAShorterAndALongerCopyIsSkippedAsACopyOfTheLonger) {
  const std::string text = test::read_file(shared("nasty/pgn-extract-tests/fischer.pgn"));
  const std::string stored = dir_.file("stored.pgn"), middle = dir_.file("middle.pgn");
  test::write_file(stored, cut_games(text, 3, 10) + cut_games(text, 3, 30));
  test::write_file(middle, cut_games(text, 3, 20));
  const std::string db = dir_.file("t.db");
  const auto first = import(db, stored);
  ASSERT_EQ(first.summary.imported, 6u);  // the 30-ply games extend the 10-ply ones: both kept
  const auto second = import(db, middle);
  EXPECT_EQ(second.summary.imported, 0u);
  EXPECT_EQ(second.summary.duplicates, 3u);
  expect_skipped_as_copies_of(second.summary, {4, 5, 6});  // the 30-ply games, never the 10-ply ones
  for (const indexer::TruncatedCopy& c : second.summary.truncated) EXPECT_EQ(c.stored_plies, 30u);
}

// The finder reads only the stored unfinished games while every new game is finished; the
// first unfinished one makes it read them all, this import's games included.
TEST_F(DuplicatesTest, CutCopiesAfterFinishedGamesFindStoredAndJustImportedGames) {
  const std::string fischer = test::read_file(shared("nasty/pgn-extract-tests/fischer.pgn"));
  const std::string petrosian = test::read_file(shared("nasty/pgn-extract-tests/petrosian.pgn"));
  const std::string stored = dir_.file("stored.pgn"), mixed = dir_.file("mixed.pgn");
  test::write_file(stored, first_games(fischer, 5));
  test::write_file(mixed, first_games(petrosian, 3) + cut_games(fischer, 5, 20) + cut_games(petrosian, 3, 16));
  const std::string db = dir_.file("t.db");
  ASSERT_EQ(import(db, stored).summary.imported, 5u);
  const auto second = import(db, mixed);
  EXPECT_EQ(second.summary.imported, 3u);
  EXPECT_EQ(second.summary.duplicates, 8u);
  expect_skipped_as_copies_of(second.summary, {1, 2, 3, 4, 5, 6, 7, 8});  // fischer's 1-5, then petrosian's 6-8
}

// Within one import: many cut copies after their finished games (the finder reads the
// finished games it has not filed yet a few times over, then files them in its table),
// and finished games after their cut copies (a finished game asks the unfinished ones
// alone): each copy found, with the game it belongs to.
TEST_F(DuplicatesTest, ManyCutCopiesBeforeAndAfterTheirGamesInOneImport) {
  const std::string fischer = test::read_file(shared("nasty/pgn-extract-tests/fischer.pgn"));
  // More unfinished games than the finder reads its list for; cut at 30 plies, where the
  // first 30 games of the file all differ (games 11 and 12 share their first 24).
  constexpr size_t kGames = 30;
  const std::string after = dir_.file("after.pgn"), before = dir_.file("before.pgn");
  test::write_file(after, first_games(fischer, kGames) + cut_games(fischer, kGames, 30));
  const auto copies_after = import(dir_.file("after.db"), after);
  EXPECT_EQ(copies_after.summary.imported, kGames);
  std::vector<int64_t> ids;
  for (size_t i = 1; i <= kGames; ++i) ids.push_back(int64_t(i));
  expect_skipped_as_copies_of(copies_after.summary, ids);

  test::write_file(before, cut_games(fischer, kGames, 30) + first_games(fischer, kGames));
  const auto copies_before = import(dir_.file("before.db"), before);
  EXPECT_EQ(copies_before.summary.imported, 2 * kGames);  // a longer game is kept, and so is its copy
  ASSERT_EQ(copies_before.summary.truncated.size(), kGames);
  for (size_t i = 0; i < kGames; ++i) {
    const indexer::TruncatedCopy& c = copies_before.summary.truncated[i];
    EXPECT_FALSE(c.new_is_shorter) << i;
    EXPECT_EQ(c.stored_id, int64_t(i + 1)) << i;
    EXPECT_EQ(c.game_number, kGames + i + 1) << i;
  }
}

TEST_F(DuplicatesTest, RemoveDropsASourceFromGamesPositionsAndExplorer) {
  const std::string fischer = shared("nasty/pgn-extract-tests/fischer.pgn");
  const std::string petrosian = shared("nasty/pgn-extract-tests/petrosian.pgn");
  const std::string both = dir_.file("both.db"), alone = dir_.file("alone.db");
  // Three games are in both files: kept twice here, so that removing one file leaves
  // exactly the other (a game skipped as a duplicate would go with the copy it matched).
  indexer::ImportOptions keep;
  keep.dedupe = false;
  import(both, fischer, keep);
  import(both, petrosian, keep);
  import(alone, petrosian);
  {
    indexer::DatabaseWriter writer(both, indexer::WriterOptions{});
    store::Transaction transaction(writer.database());
    ASSERT_EQ(indexer::find_sources_named(writer.database(), fischer), std::vector<int64_t>{1});
    indexer::RemovedSource removed = indexer::remove_source(writer.database(), 1);
    transaction.commit();
    EXPECT_EQ(removed.games, 34u);
    EXPECT_EQ(removed.postings, 3194u);
    EXPECT_EQ(indexer::describe(removed), "source 1 (" + fischer + "): 34 games, 0 rejects, 3194 positions removed");
  }
  for (const char* table : {"sources", "rejects", "position_segments", "game_annotations"})
    EXPECT_EQ(scalar(both, std::string("SELECT count(*) FROM ") + table), scalar(alone, std::string("SELECT count(*) FROM ") + table))
        << table;
  EXPECT_EQ(scalar(both, "SELECT count(*) FROM games"), scalar(alone, "SELECT count(*) FROM games"));
  // No posting of a removed game is left: the start position and the explorer see only Petrosian's file.
  for (const std::string& db : {both, alone}) {
    store::Database database(db, store::Database::Mode::ReadOnly);
    EXPECT_EQ(store::PositionIndexReader(database).lookup(Board().key()).size(), size_t(scalar(alone, "SELECT count(*) FROM games WHERE start_fen IS NULL")));
  }
  auto explorer = [](const std::string& db) {
    store::Database database(db, store::Database::Mode::ReadOnly);
    search::ExplorerOptions options;
    options.filter.position = Board();
    search::ExplorerResult r = search::explore(database, options);
    std::string out = std::to_string(r.games);
    for (const search::ExplorerMove& m : r.moves) out += " " + m.san + ":" + std::to_string(m.games) + "/" + std::to_string(m.white_wins);
    return out;
  };
  EXPECT_EQ(explorer(both), explorer(alone));
}

TEST_F(DuplicatesTest, ReplaceImportsAFileAgainWithTheOptionsGivenNow) {
  const std::string file = shared("nasty/pgn-extract-tests/fischer.pgn");
  const std::string db = dir_.file("r.db");
  const auto first = import(db, file);
  EXPECT_TRUE(import(db, file).already_imported);
  indexer::ImportOptions options;
  options.replace = true;
  options.build.keep_annotations = false;
  const auto replaced = import(db, file, options);
  ASSERT_EQ(replaced.replaced.size(), 1u);
  EXPECT_EQ(replaced.replaced[0].games, first.summary.imported);
  EXPECT_EQ(replaced.summary.imported, first.summary.imported);  // not skipped as duplicates of the removed games
  EXPECT_EQ(scalar(db, "SELECT count(*) FROM sources"), 1);
  EXPECT_EQ(scalar(db, "SELECT count(*) FROM games"), int64_t(first.summary.imported));
  EXPECT_EQ(scalar(db, "SELECT count(*) FROM position_segments"), 1);
}

}  // namespace
}  // namespace pgnbase::query
