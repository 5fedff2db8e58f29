// The whole import on real files: counts, determinism across thread counts and chunk
// sizes, notation forms, re-import, rejects.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/board.h"
#include "core/thread_cpu.h"
#include "indexer/content_hash.h"
#include "indexer/import_pipeline.h"
#include "indexer/input_source.h"
#include "indexer/position_index.h"
#include "store/index_bulk_build.h"
#include "store/material_blocks.h"
#include "store/moves_codec.h"
#include "store/schema.h"
#include "tests/support/bundled_sample.h"
#include "tests/support/files.h"
#include "tests/support/shared_data.h"
#include "tests/support/temp_dir.h"

namespace pgnbase::indexer {
namespace {

namespace fs = std::filesystem;

const fs::path kTestData = fs::path(PGNBASE_SOURCE_DIR) / "tests" / "data";
const fs::path kVariants = test::shared_data("nasty/lichess-variants/lichess-nonstandard-variants-and-setups.pgn.zst");
const fs::path kFischer = test::shared_data("nasty/pgn-extract-tests/fischer.pgn");

// Tests that import files of the shared data start with PGNBASE_REQUIRE_SHARED.
class ImportTest : public test::TempDirTest {
 protected:
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  ImportOutcome import(const std::string& db, const fs::path& input, unsigned threads = 2,
                       size_t chunk_bytes = size_t{4} << 20, std::ostream* rejects = nullptr) {
    DatabaseWriter writer(db, WriterOptions{});
    ImportOptions options;
    options.threads = threads;
    options.chunk_bytes = chunk_bytes;
    options.rejects_out = rejects;
    options.dedupe = false;  // the tests count every game of their files, repeats included
    return import_file(input.string(), writer, options);
  }
};

// Every row of a query, each column rendered as bytes, one string per row.
std::vector<std::string> rows(store::Database& db, const std::string& sql) {
  std::vector<std::string> out;
  store::Statement s = db.prepare(sql);
  while (s.step()) {
    std::string row;
    for (int c = 0; c < s.column_count(); ++c) {
      if (s.column_is_null(c)) {
        row += "<null>|";
        continue;
      }
      auto blob = s.column_blob(c);
      row.append(reinterpret_cast<const char*>(blob.data()), blob.size());
      row += '|';
    }
    out.push_back(std::move(row));
  }
  return out;
}

int64_t scalar(store::Database& db, const std::string& sql) {
  store::Statement s = db.prepare(sql);
  return s.step() ? s.column_int64(0) : -1;
}

// The database's logical content: every table, every row, minus what depends on the
// time or the file's path.
std::vector<std::string> logical_content(const std::string& db_path) {
  store::Database db(db_path, store::Database::Mode::ReadOnly);
  std::vector<std::string> all;
  for (const char* sql : {"SELECT * FROM games ORDER BY id", "SELECT * FROM names ORDER BY id",
                          "SELECT * FROM rejects ORDER BY id",
                          "SELECT id, size, content_hash, games_found, imported, rejected, language_counts FROM sources",
                          "SELECT * FROM position_blocks ORDER BY 1, 2"}) {
    std::vector<std::string> part = rows(db, sql);
    all.push_back(std::string(sql) + ": " + std::to_string(part.size()) + " rows");
    all.insert(all.end(), part.begin(), part.end());
  }
  return all;
}

// logical_content and every row of the tables of a row per game beside games.
std::vector<std::string> content_with_game_rows(const std::string& db_path) {
  std::vector<std::string> all = logical_content(db_path);
  store::Database db(db_path, store::Database::Mode::ReadOnly);
  for (const char* sql : {"SELECT * FROM material_blocks ORDER BY block", "SELECT * FROM game_annotations ORDER BY id"}) {
    std::vector<std::string> part = rows(db, sql);
    all.insert(all.end(), part.begin(), part.end());
  }
  return all;
}

// A writer whose first import stages the rows of every chunk of stage_from games or more
// (row_staging.h), on `threads` threads; SIZE_MAX: never.
WriterOptions staging_options(unsigned threads, size_t stage_from) {
  WriterOptions options;
  options.threads = threads;
  options.stage_rows_from_games = stage_from;
  options.stage_rows_always = stage_from != SIZE_MAX;
  return options;
}

int64_t rows_of(const std::string& db_path, const std::string& table) {
  store::Database db(db_path, store::Database::Mode::ReadOnly);
  return scalar(db, "SELECT count(*) FROM " + table);
}

// The games that material_blocks holds runs for, counted from the blobs themselves.
int64_t material_runs_of(const std::string& db_path) {
  store::Database db(db_path, store::Database::Mode::ReadOnly);
  store::Statement s = db.prepare("SELECT block, runs FROM material_blocks");
  std::vector<store::MaterialEntry> entries;
  int64_t games = 0;
  while (s.step()) {
    const std::span<const std::byte> blob = s.column_blob(1);
    EXPECT_TRUE(store::decode_material_block(s.column_int64(0), {reinterpret_cast<const char*>(blob.data()), blob.size()}, entries));
    games += int64_t(entries.size());
  }
  EXPECT_EQ(games, store::count_material_runs(db));
  return games;
}

TEST_F(ImportTest, CountsMatchTheManifest) {
  PGNBASE_REQUIRE_SHARED(kVariants);
  std::ostringstream rejects;
  ImportOutcome o = import(path("v.db"), kVariants, 2, size_t{4} << 20, &rejects);
  // MANIFEST.tsv: 1068 games; 159 in variants pgnbase does not play (Three-check 15,
  // King of the Hill 56, Antichess 11, Crazyhouse 24, Atomic 52, Racing Kings 1).
  EXPECT_EQ(o.summary.games_found, 1068u);
  EXPECT_EQ(o.summary.imported, 909u);
  EXPECT_EQ(o.summary.rejected, 159u);
  EXPECT_EQ(o.summary.rejects_by_kind["unsupported variant"], 159u);
  store::Database db(path("v.db"), store::Database::Mode::ReadOnly);
  EXPECT_EQ(scalar(db, "SELECT COUNT(*) FROM games WHERE variant = 1"), 466);
  EXPECT_EQ(scalar(db, "SELECT COUNT(*) FROM rejects WHERE reason = 'unsupported variant: Crazyhouse'"), 24);
  EXPECT_EQ(scalar(db, "SELECT COUNT(*) FROM games") + scalar(db, "SELECT COUNT(*) FROM rejects"), 1068);
  // Game numbers cover 1..1068 once each across both tables.
  EXPECT_EQ(scalar(db, "SELECT SUM(n) FROM (SELECT game_number AS n FROM games UNION ALL "
                       "SELECT game_number FROM rejects)"),
            1068 * 1069 / 2);
  // The rejects file holds each rejected game's original text.
  std::string text = rejects.str();
  size_t variant_tags = 0;
  for (size_t p = 0; (p = text.find("[Variant \"", p)) != std::string::npos; ++p) ++variant_tags;
  EXPECT_EQ(variant_tags, 159u);
}

TEST_F(ImportTest, ThreadsAndChunkSizeDoNotChangeTheDatabase) {
  PGNBASE_REQUIRE_SHARED(kVariants);
  import(path("one.db"), kVariants, 1, size_t{4} << 20);
  import(path("many.db"), kVariants, 4, size_t{16} << 10);  // many small chunks, out-of-order finishes
  std::vector<std::string> a = logical_content(path("one.db")), b = logical_content(path("many.db"));
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) ASSERT_EQ(a[i], b[i]) << "row " << i;
}

// Rows built beside the writer (row_staging.h) against rows the writer inserts itself:
// the bundled sample (2,000 real games with clocks, so annotations rows too) into an
// empty database, in one part per small chunk and in several parts per large chunk, then
// a second file appended (the writer's own rows, ids going on), with duplicates skipped.
TEST_F(ImportTest, RowsBuiltBesideTheWriterAreTheRowsItWouldInsert) {
  // Answers the parts staged.
  auto build = [&](const std::string& db, size_t stage_from, size_t chunk_bytes, unsigned threads,
                   unsigned staging_threads) {
    DatabaseWriter writer(db, staging_options(staging_threads, stage_from));
    ImportOptions options;
    options.threads = threads;
    options.chunk_bytes = chunk_bytes;
    const ImportOutcome sample = import_file(test::kSample.string(), writer, options);
    EXPECT_EQ(sample.summary.imported, 2000u);
    EXPECT_EQ(sample.summary.steps.rows_parts, writer.staged_parts());
    EXPECT_EQ(import_file((kTestData / "notation" / "fide-appendix-e-sample.pgn").string(), writer, options)
                  .summary.imported,
              1u);
    return writer.staged_parts();
  };
  EXPECT_EQ(build(path("own.db"), SIZE_MAX, size_t{4} << 20, 2, 2), 0u);
  EXPECT_GT(build(path("small.db"), 1, size_t{64} << 10, 2, 2), 50u);  // a part per chunk of about 17 games
  // One parsing thread: two chunks of 4 MiB (about 1,000 games each), each cut into
  // parts of at least kFewestGamesPerPart games for 4 staging threads.
  EXPECT_GE(build(path("large.db"), 1, size_t{4} << 20, 1, 4), 6u);
  EXPECT_GT(material_runs_of(path("own.db")), 1000);
  EXPECT_GT(rows_of(path("own.db"), "game_annotations"), 1000);
  const std::vector<std::string> own = content_with_game_rows(path("own.db"));
  for (const char* staged : {"small.db", "large.db"}) {
    const std::vector<std::string> other = content_with_game_rows(path(staged));
    ASSERT_EQ(own.size(), other.size()) << staged;
    for (size_t i = 0; i < own.size(); ++i) ASSERT_EQ(own[i], other[i]) << staged << ", row " << i;
  }
}

// Long annotations (here 300 of the sample's games, each with a comment of 3,000 random
// letters put before its first move: real games, a made-up comment that does not
// compress) are not staged with their chunk's rows, but inserted by the writer: the same
// rows either way.
TEST_F(ImportTest, LongAnnotationsOfAStagedChunkAreTheWritersAndTheSame) {
  std::string pgn;
  uint32_t random = 12345;
  for (size_t i = 0; i < 300; ++i) {
    std::string game = test::sample_games()[i], comment = "{";
    for (int c = 0; c < 3000; ++c) {
      random = random * 1664525u + 1013904223u;
      comment += char('a' + (random >> 24) % 26);
    }
    const size_t movetext = game.find("\n\n");
    ASSERT_NE(movetext, std::string::npos);
    game.insert(movetext + 2, comment + "} ");
    pgn += game;
  }
  test::write_file(path("commented.pgn"), pgn);
  uint64_t staged_parts = 0;
  auto build = [&](const std::string& db, bool staged) {
    DatabaseWriter writer(db, staging_options(2, staged ? WriterOptions{}.stage_rows_from_games : SIZE_MAX));
    ImportOptions options;
    options.threads = 2;
    EXPECT_EQ(import_file(path("commented.pgn"), writer, options).summary.imported, 300u);
    staged_parts = writer.staged_parts();
    EXPECT_EQ(material_runs_of(db), 300);
    EXPECT_EQ(rows_of(db, "game_annotations"), 300);
    return content_with_game_rows(db);
  };
  const std::vector<std::string> staged = build(path("staged.db"), true);
  EXPECT_GT(staged_parts, 0u);
  store::Database db(path("staged.db"), store::Database::Mode::ReadOnly);
  EXPECT_GT(scalar(db, "SELECT avg(length(annotations)) FROM game_annotations"), 1024);  // not staged
  EXPECT_EQ(staged, build(path("own.db"), false));
}

// A first import's name words, built beside the writer and moved in whole, are the rows
// its own inserts write; an append (name_words no longer empty) inserts its own.
TEST_F(ImportTest, NameWordsBuiltBesideTheWriterAreTheWordsItWouldInsert) {
  test::write_file(path("first.pgn"), test::games_text(0, 1500));
  test::write_file(path("then.pgn"), test::games_text(1500, 2000));
  auto build = [&](const std::string& db_path, bool staged) {
    WriterOptions writer_options = staging_options(2, staged ? WriterOptions{}.stage_rows_from_games : SIZE_MAX);
    writer_options.stage_name_words_from = 1;  // the sample's 1,500 games have few players
    DatabaseWriter writer(db_path, writer_options);
    ImportOptions options;
    options.threads = 2;
    std::vector<std::vector<std::string>> words;
    for (const char* file : {"first.pgn", "then.pgn"}) {
      EXPECT_GT(import_file(path(file), writer, options).summary.imported, 400u);
      store::Database db(db_path, store::Database::Mode::ReadOnly);
      words.push_back(rows(db, "SELECT word, name_id FROM name_words ORDER BY word, name_id"));
      EXPECT_EQ(db.integrity_check(), "ok");
    }
    return words;
  };
  const std::vector<std::vector<std::string>> staged = build(path("staged.db"), true);
  ASSERT_GT(staged[0].size(), 100u);
  EXPECT_GT(staged[1].size(), staged[0].size());
  EXPECT_EQ(staged, build(path("own.db"), false));
}

// The games indexes sorted in small runs on SQLite's helper threads (a machine with
// cores to spare) are those the writer sorts alone, and the database is whole.
TEST_F(ImportTest, GamesIndexesSortedOnTheHelpersAreTheSame) {
  test::write_file(path("sample.pgn"), test::sample_text());
  auto build = [&](const std::string& db_path, bool helpers) {
    WriterOptions writer_options;
    writer_options.threads = 2;
    // Runs of 1 KiB, under SQLite's one-page minimum (store/database.cpp): 4 KiB runs,
    // dozens for each index of the sample, sorted and merged on the helpers.
    writer_options.index_sort_run_kib = helpers ? 1 : 0;
    DatabaseWriter writer(db_path, writer_options);
    ImportOptions options;
    options.threads = 2;
    EXPECT_EQ(import_file(path("sample.pgn"), writer, options).summary.imported, 2000u);
    store::Database db(db_path, store::Database::Mode::ReadOnly);
    EXPECT_EQ(db.integrity_check(), "ok");
    std::vector<std::string> all = logical_content(db_path);
    // Each index read in its own order.
    for (const char* sql : {"SELECT id FROM games INDEXED BY games_white ORDER BY white_id, date_key",
                            "SELECT id FROM games INDEXED BY games_eco WHERE eco IS NOT NULL ORDER BY eco",
                            "SELECT id FROM games INDEXED BY games_date WHERE date_key IS NOT NULL ORDER BY date_key"}) {
      std::vector<std::string> part = rows(db, sql);
      all.insert(all.end(), part.begin(), part.end());
    }
    return all;
  };
  EXPECT_EQ(build(path("helpers.db"), true), build(path("alone.db"), false));
}

// A new database's games indexes, left by the writer and built at its publish beside
// SQLite (store/index_bulk_build.h), are those the writer builds itself: every index read
// in its own order, the rows, and a whole file.
TEST_F(ImportTest, GamesIndexesBuiltAtThePublishAreThoseTheWriterBuilds) {
  test::write_file(path("sample.pgn"), test::sample_text());
  auto build = [&](const std::string& db_path, bool at_publish) {
    {
      WriterOptions writer_options;
      writer_options.threads = 2;
      writer_options.journal = store::Database::Journal::Private;
      writer_options.games_indexes_at_publish = at_publish;
      DatabaseWriter writer(db_path, writer_options);
      ImportOptions options;
      options.threads = 2;
      EXPECT_EQ(import_file(path("sample.pgn"), writer, options).summary.imported, 2000u);
    }
    if (at_publish) {
      {
        store::Database db(db_path, store::Database::Mode::ReadOnly);
        EXPECT_EQ(scalar(db, "SELECT count(*) FROM sqlite_schema WHERE name IN ('games_white', 'games_black', "
                             "'games_event')"),
                  0);
      }
      const store::BulkIndexReport report = store::add_indexes_in_bulk(db_path, store::kGamesIndexesSql, 4);
      EXPECT_GE(report.built_beside, 3);
      EXPECT_EQ(report.built_by_sqlite, 0);
    }
    store::Database db(db_path, store::Database::Mode::ReadOnly);
    EXPECT_EQ(db.integrity_check(), "ok");
    std::vector<std::string> all = logical_content(db_path);
    all.push_back("schema");
    std::vector<std::string> schema =
        rows(db, "SELECT name, sql FROM sqlite_schema WHERE type = 'index' ORDER BY name");
    all.insert(all.end(), schema.begin(), schema.end());
    for (const char* sql : {"SELECT id FROM games INDEXED BY games_white ORDER BY white_id, date_key",
                            "SELECT id FROM games INDEXED BY games_black ORDER BY black_id, date_key",
                            "SELECT id FROM games INDEXED BY games_event ORDER BY event_id",
                            "SELECT id FROM games INDEXED BY games_eco WHERE eco IS NOT NULL ORDER BY eco",
                            "SELECT id FROM games INDEXED BY games_date WHERE date_key IS NOT NULL ORDER BY date_key",
                            "SELECT id FROM games INDEXED BY games_white_elo WHERE white_elo IS NOT NULL "
                            "ORDER BY white_elo",
                            "SELECT id FROM games INDEXED BY games_black_elo WHERE black_elo IS NOT NULL "
                            "ORDER BY black_elo"}) {
      std::vector<std::string> part = rows(db, sql);
      all.push_back(sql);
      all.insert(all.end(), part.begin(), part.end());
    }
    return all;
  };
  EXPECT_EQ(build(path("at-publish.db"), true), build(path("writer.db"), false));
}

// A new database's file written on a thread of its own (store/write_behind_vfs.h), its
// rows staged and its indexes sorted on SQLite's helpers (what -j 4 and more runs where
// cores are idle), holds what the same import writes in place; the thread's CPU is
// counted under its role.
TEST_F(ImportTest, AFileWrittenBehindHoldsWhatOneWrittenInPlaceDoes) {
  test::write_file(path("sample.pgn"), test::sample_text());
  auto build = [&](const std::string& db_path, bool behind) {
    WriterOptions writer_options = staging_options(2, 64);
    writer_options.journal = store::Database::Journal::Private;
    writer_options.write_behind_always = behind;
    writer_options.index_sort_run_kib = 1;
    const uint64_t writes_threads = thread_cpu_totals().threads[size_t(ThreadRole::Writes)];
    {
      DatabaseWriter writer(db_path, writer_options);
      ImportOptions options;
      options.threads = 2;
      options.chunk_bytes = 256 << 10;
      EXPECT_EQ(import_file(path("sample.pgn"), writer, options).summary.imported, 2000u);
      writer.commit_sources();
    }
    EXPECT_EQ(thread_cpu_totals().threads[size_t(ThreadRole::Writes)], writes_threads + (behind ? 1 : 0));
    store::Database db(db_path, store::Database::Mode::ReadOnly);
    EXPECT_EQ(db.integrity_check(), "ok");
    return content_with_game_rows(db_path);
  };
  EXPECT_EQ(build(path("behind.db"), true), build(path("in_place.db"), false));
}

// The partial indexes of a first import stay in place while no game written has their
// column (store/schema.h, kPartialGamesIndexes), and one is dropped at the first game
// that has it: the index then holds every game with a value, in its order, as one built
// at the end would, staged or not. Hand-edited real games: the bundled sample's first 600
// without their ratings, then 1,400 with them; and a file of the 600 alone, whose ratings
// indexes are the ones the new database was made with (the same root page: never rebuilt).
TEST_F(ImportTest, PartialIndexesKeptWhileEmptyHoldEveryGameOfTheirColumn) {
  std::string unrated;
  for (size_t i = 0; i < 600; ++i) {
    std::istringstream lines(test::sample_games()[i]);
    for (std::string line; std::getline(lines, line);)
      if (!line.starts_with("[WhiteElo ") && !line.starts_with("[BlackElo ")) unrated += line + "\n";
  }
  test::write_file(path("unrated.pgn"), unrated);
  test::write_file(path("mixed.pgn"), unrated + test::games_text(600, 2000));
  const char* const kOrders[][2] = {
      {"games_eco", "eco"}, {"games_date", "date_key"}, {"games_white_elo", "white_elo"}, {"games_black_elo", "black_elo"}};
  auto root_pages = [](store::Database& db) {
    return rows(db, "SELECT name, rootpage FROM sqlite_master WHERE name IN ('games_white_elo', 'games_black_elo') "
                    "ORDER BY name");
  };
  std::vector<std::string> new_database_roots;
  {
    DatabaseWriter made(path("new.db"), WriterOptions{});
    new_database_roots = root_pages(made.database());
  }
  auto build = [&](const std::string& file, const std::string& db_path, bool staged, uint64_t games) {
    DatabaseWriter writer(db_path, staging_options(2, staged ? 1 : SIZE_MAX));
    ImportOptions options;
    options.threads = 2;
    options.chunk_bytes = size_t{64} << 10;  // the first rated game comes many chunks in
    EXPECT_EQ(import_file(path(file), writer, options).summary.imported, games);
    store::Database db(db_path, store::Database::Mode::ReadOnly);
    EXPECT_EQ(db.integrity_check(), "ok");
    std::vector<std::string> all = content_with_game_rows(db_path);
    for (auto [index, column] : kOrders) {
      const std::string where = std::string(" WHERE ") + column + " IS NOT NULL ORDER BY " + column + ", id";
      const std::vector<std::string> by_index = rows(db, std::string("SELECT id FROM games INDEXED BY ") + index + where);
      EXPECT_EQ(by_index, rows(db, "SELECT id FROM games NOT INDEXED" + where)) << index;
      all.insert(all.end(), by_index.begin(), by_index.end());
    }
    all.push_back(std::to_string(scalar(db, "SELECT count(white_elo) FROM games")));
    return std::pair(all, root_pages(db));
  };
  for (bool staged : {false, true}) {
    const std::string tag = staged ? "staged" : "own";
    const auto [mixed, mixed_roots] = build("mixed.pgn", path(tag + "-mixed.db"), staged, 2000);
    EXPECT_EQ(mixed.back(), "1400") << tag;  // every rated game in the table, and above in the index
    EXPECT_NE(mixed_roots, new_database_roots) << tag;  // dropped at the first rated game, built at the end
    const auto [alone, alone_roots] = build("unrated.pgn", path(tag + "-unrated.db"), staged, 600);
    EXPECT_EQ(alone.back(), "0") << tag;
    EXPECT_EQ(alone_roots, new_database_roots) << tag;  // kept from the start
    if (staged) {
      EXPECT_EQ(mixed, build("mixed.pgn", path("own-mixed-again.db"), false, 2000).first);
    }
  }
}

// A file that fails after some of its chunks' rows were staged and moved in (a worker
// failing on the bundled sample's 40th chunk, in a new database: rows are staged only
// into an empty games table) leaves none of them: its savepoint takes them back. The
// next file then imports as into a new database.
TEST_F(ImportTest, AFileThatFailsAfterStagedRowsLeavesNoneOfThem) {
  test::write_file(path("sample.pgn"), test::sample_text());
  DatabaseWriter writer(path("fail.db"), staging_options(2, 1));
  ImportOptions options;
  options.threads = 2;
  options.chunk_bytes = size_t{64} << 10;
  options.on_worker_chunk = [](uint64_t chunk) {
    if (chunk == 40) throw std::runtime_error("a worker failing on purpose");
  };
  EXPECT_THROW(import_file(path("sample.pgn"), writer, options), std::runtime_error);
  EXPECT_GT(writer.staged_parts(), 10u);
  for (const char* table : {"games", "material_blocks", "game_annotations", "names", "sources"})
    EXPECT_EQ(rows_of(path("fail.db"), table), 0) << table;
  options.on_worker_chunk = nullptr;
  EXPECT_EQ(import_file(path("sample.pgn"), writer, options).summary.imported, 2000u);
  EXPECT_EQ(rows_of(path("fail.db"), "games"), 2000);
  EXPECT_EQ(material_runs_of(path("fail.db")), 2000);
  store::Database db(path("fail.db"), store::Database::Mode::ReadOnly);
  EXPECT_EQ(scalar(db, "SELECT min(id) FROM games"), 1);
}

TEST_F(ImportTest, EveryNotationFormImportsTheSameGames) {
  PGNBASE_REQUIRE_SHARED("notation");
  const std::string db_path = path("n.db");
  const std::pair<const char*, const char*> files[] = {
      {"fischer-petrosian-en.pgn", "en"},       {"fischer-petrosian-de-short.pgn", "de"},
      {"fischer-petrosian-de-long.pgn", "de"},  {"fischer-petrosian-nl-short.pgn", "nl"},
      {"fischer-petrosian-fr-short.pgn", "fr"}, {"fischer-petrosian-figurine.pgn", "en"},
      {"fischer-petrosian-fide-draw-offer.pgn", "en"}};
  for (auto [file, language] : files) {
    ImportOutcome o = import(db_path, test::shared_data("notation") / file);
    EXPECT_EQ(o.summary.imported, 69u) << file;
    EXPECT_EQ(o.summary.rejected, 0u) << file;
    EXPECT_EQ(o.summary.games_by_language[language], 69u) << file;
  }
  store::Database db(db_path, store::Database::Mode::ReadOnly);
  // Same moves as the English original, game by game.
  EXPECT_EQ(scalar(db, "SELECT COUNT(*) FROM games g JOIN games e ON e.source_id = 1 AND "
                       "e.game_number = g.game_number WHERE g.moves != e.moves"),
            0);
  // Draw offers are annotations, not variations.
  EXPECT_GT(scalar(db, "SELECT COUNT(*) FROM games JOIN game_annotations USING (id) WHERE source_id = 7"), 0);
}

TEST_F(ImportTest, FideSampleGameAndItsMisprint) {
  const std::string db_path = path("fide.db");
  ImportOutcome o = import(db_path, kTestData / "notation" / "fide-appendix-e-sample.pgn");
  EXPECT_EQ(o.summary.imported, 1u);
  EXPECT_EQ(o.summary.rejected, 1u);
  store::Database db(db_path, store::Database::Mode::ReadOnly);
  EXPECT_EQ(scalar(db, "SELECT plies FROM games"), 21);
  EXPECT_EQ(rows(db, "SELECT language FROM games"), std::vector<std::string>{"de|"});
  std::vector<std::string> reason = rows(db, "SELECT reason FROM rejects");
  ASSERT_EQ(reason.size(), 1u);
  EXPECT_NE(reason[0].find("'Sf4' at ply 8"), std::string::npos) << reason[0];
}

TEST_F(ImportTest, SameContentIsImportedOnce) {
  PGNBASE_REQUIRE_SHARED(kVariants, kFischer);
  const std::string db_path = path("r.db");
  ImportOutcome first = import(db_path, kVariants);
  EXPECT_FALSE(first.already_imported);
  EXPECT_TRUE(import(db_path, kVariants).already_imported);
  // The same text uncompressed: recognised by its content, not its name.
  InputSource source = InputSource::open(kVariants.string());
  std::ofstream plain(path("plain.pgn"), std::ios::binary);
  char buffer[1 << 16];
  while (size_t n = source.read(buffer, sizeof buffer)) plain.write(buffer, std::streamsize(n));
  plain.close();
  ImportOutcome again = import(db_path, path("plain.pgn"));
  EXPECT_TRUE(again.already_imported);
  EXPECT_EQ(again.existing_source_id, first.summary.source_id);
  // A different file appends, with ids continuing.
  ImportOutcome other = import(db_path, kFischer);
  EXPECT_EQ(other.summary.imported, 34u);
  store::Database db(db_path, store::Database::Mode::ReadOnly);
  EXPECT_EQ(scalar(db, "SELECT MIN(id) FROM games WHERE source_id = 2"), 910);
  EXPECT_EQ(scalar(db, "SELECT COUNT(*) FROM sources"), 2);
}

// A mapped file is hashed as it is imported unless a source of its size is stored: then
// before any work, so that a copy costs no import and a file of that size with other
// bytes is still imported.
TEST_F(ImportTest, AFileOfAStoredSourcesSizeIsRecognisedByItsContent) {
  const std::string text = test::sample_head(200'000);
  std::string other = text;
  const size_t event = other.find("[Event \"") + 8;
  other[event] = other[event] == 'X' ? 'Y' : 'X';  // same size, other bytes
  test::write_file(path("first.pgn"), text);
  test::write_file(path("same-size.pgn"), other);
  test::write_file(path("copy.pgn"), text);
  const std::string db_path = path("s.db");
  const ImportOutcome first = import(db_path, path("first.pgn"));
  ASSERT_FALSE(first.already_imported);
  const ImportOutcome same_size = import(db_path, path("same-size.pgn"));
  EXPECT_FALSE(same_size.already_imported);
  EXPECT_EQ(same_size.summary.imported, first.summary.imported);
  const ImportOutcome copy = import(db_path, path("copy.pgn"));
  EXPECT_TRUE(copy.already_imported);
  EXPECT_EQ(copy.existing_source_id, first.summary.source_id);
  // Hashed as it was cut or before the import, each file has the hash of its bytes.
  store::Database db(db_path, store::Database::Mode::ReadOnly);
  ContentHasher first_hash, other_hash;
  first_hash.update(text);
  other_hash.update(other);
  EXPECT_EQ(rows(db, "SELECT content_hash FROM sources ORDER BY id"),
            (std::vector<std::string>{first_hash.finish() + "|", other_hash.finish() + "|"}));
}

TEST_F(ImportTest, DedupeSkipsGamesAlreadyStored) {
  PGNBASE_REQUIRE_SHARED(kFischer);
  const std::string db_path = path("d.db");
  // The same 34 games with one byte changed elsewhere: a new file, the same games.
  const std::string text = test::read_file(kFischer);
  std::ofstream(path("copy.pgn"), std::ios::binary) << text << "\n";
  EXPECT_EQ(import(db_path, kFischer).summary.imported, 34u);
  DatabaseWriter writer(db_path, WriterOptions{});
  ImportOptions options;
  options.dedupe = true;
  ImportOutcome copy = import_file(path("copy.pgn"), writer, options);
  EXPECT_FALSE(copy.already_imported);
  EXPECT_EQ(copy.summary.games_found, 34u);
  EXPECT_EQ(copy.summary.duplicates, 34u);
  EXPECT_EQ(copy.summary.imported, 0u);
  // With --keep-duplicates (dedupe off) the copies are imported.
  std::ofstream(path("copy2.pgn"), std::ios::binary) << text << "\n\n";
  options.dedupe = false;
  EXPECT_EQ(import_file(path("copy2.pgn"), writer, options).summary.imported, 34u);
}

TEST_F(ImportTest, EveryPositionIsIndexed) {
  PGNBASE_REQUIRE_SHARED(kFischer);
  const std::string db_path = path("p.db");
  import(db_path, kFischer);
  store::Database db(db_path, store::Database::Mode::ReadOnly);
  store::PositionIndexReader reader(db);
  // Every game starts from the standard position: one posting each. The import writes
  // lean segments: no plies; a key with several postings keeps their next moves.
  std::vector<store::Posting> start = reader.lookup(Board().key());
  ASSERT_EQ(start.size(), 34u);
  for (size_t i = 0; i < start.size(); ++i) {
    EXPECT_EQ(start[i].game_id, i + 1);
    EXPECT_EQ(start[i].ply, store::kUnknownPly);
    EXPECT_NE(start[i].next_move, 0);
    EXPECT_NE(start[i].next_move, store::kUnknownNextMove);
  }
  EXPECT_EQ(scalar(db, "SELECT SUM(postings) FROM position_segments"),
            scalar(db, "SELECT SUM(plies + 1) FROM games"));
}

// games.moves holds compact bytes (core/compact_move.h): about one byte per ply on real
// games, and the reader's decoding (stored start position, every move checked) gives
// moves that encode back to the very same blob; Chess960 and set-up positions included.
TEST_F(ImportTest, StoredMovesAreCompactAndDecodeBackToTheSameBlob) {
  PGNBASE_REQUIRE_SHARED(kVariants);
  for (const fs::path& input : {fs::path(PGNBASE_SOURCE_DIR) / "tools" / "sample" / "lichess-drnykterstein-2000.pgn.zst", kVariants}) {
    const std::string db_path = path(input.stem().string() + ".db");
    import(db_path, input);
    store::Database db(db_path, store::Database::Mode::ReadOnly);
    store::Statement s = db.prepare("SELECT id, variant, start_fen, moves, plies FROM games ORDER BY id");
    uint64_t games = 0, plies = 0, bytes = 0, chess960 = 0, set_up = 0;
    std::vector<MoveCode> codes;
    while (s.step()) {
      const auto blob = s.column_blob(3);
      const std::string_view stored(reinterpret_cast<const char*>(blob.data()), blob.size());
      const auto start_fen = s.column_is_null(2) ? std::nullopt : std::optional<std::string_view>(s.column_text(2));
      Board start;
      ASSERT_TRUE(store::stored_start_position(store::Variant(s.column_int64(1)), start_fen, start)) << s.column_int64(0);
      ASSERT_TRUE(store::decode_moves(stored, start, codes)) << "game " << s.column_int64(0);
      EXPECT_EQ(int64_t(codes.size()), s.column_int64(4)) << "game " << s.column_int64(0);
      std::string again;
      ASSERT_TRUE(store::encode_moves(start, codes, again));
      EXPECT_EQ(again, stored) << "game " << s.column_int64(0);
      ++games;
      plies += codes.size();
      bytes += stored.size() - 1;
      chess960 += s.column_int64(1) == 1;
      set_up += start_fen.has_value();
    }
    EXPECT_GT(games, 100u) << input;
    EXPECT_LT(double(bytes) / double(plies), 1.1) << input;
    if (input == kVariants) {
      EXPECT_GT(chess960, 0u);
      EXPECT_GT(set_up, 0u);
    }
  }
}

// kind | reason of every reject, in game order.
std::vector<std::string> rejects_of(const std::string& db_path) {
  store::Database db(db_path, store::Database::Mode::ReadOnly);
  return rows(db, "SELECT game_number, line, kind, reason FROM rejects ORDER BY id");
}

TEST_F(ImportTest, RealMalformedGamesAreRejectedWithTheirReason) {
  PGNBASE_REQUIRE_SHARED("nasty", "annotated/pychess-learn-lichess-studies.pgn");
  struct Case {
    fs::path file;
    uint64_t found, imported;
    std::vector<std::string> rejects;  // game_number|line|kind|reason|
  };
  const fs::path nasty = test::shared_data("nasty");
  const std::vector<Case> cases = {
      {nasty / "pgn-extract-tests" / "nested-comment.pgn", 1, 0,
       {"1|1|unexpected token in movetext|unexpected token in movetext at line 2 near '}'|"}},
      {test::shared_data("annotated/pychess-learn-lichess-studies.pgn"), 1319, 1318,
       {"362|5746|illegal move|illegal move 'Nxg5' at ply 1 (1. Nxg5)|"}},
      {nasty / "python-chess" / "antichess-programfox.pgn", 2, 0,
       {"1|1|unsupported variant|unsupported variant: Antichess|",
        "2|5|unsupported variant|unsupported variant: Antichess|"}},
      {nasty / "python-chess" / "saturs-jannlee-zh-lichess.pgn", 1, 0,
       {"1|1|unsupported variant|unsupported variant: Crazyhouse|"}},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    const std::string db = path("real-" + std::to_string(i) + ".db");
    ImportOutcome o = import(db, cases[i].file);
    EXPECT_EQ(o.summary.games_found, cases[i].found) << cases[i].file;
    EXPECT_EQ(o.summary.imported, cases[i].imported) << cases[i].file;
    EXPECT_EQ(o.summary.rejected, cases[i].found - cases[i].imported) << cases[i].file;
    EXPECT_EQ(rejects_of(db), cases[i].rejects) << cases[i].file;
  }
}

// Hand-made edge cases for the reasons no real file in ../shared/data shows.
TEST_F(ImportTest, HandMadeGamesCoverTheOtherRejectReasons) {
  const std::string pgn =
      "[Event \"bad FEN tag\"]\n[SetUp \"1\"]\n"
      "[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1\"]\n\n1. e4 *\n\n"
      "[Event \"ambiguous: both knights reach f2\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/3NK2N w - - 0 1\"]\n\n"
      "1. Nf2 *\n\n"
      "[Event \"unparsable\"]\n\n1. e4 e5 2. Zz9 *\n\n"
      "[Event \"promotion without a piece\"]\n[SetUp \"1\"]\n[FEN \"4k3/P7/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. a8 *\n\n"
      "[Event \"a good game\"]\n\n1. e4 e5 *\n\n"
      "[Event \"unterminated comment\"]\n\n1. e4 { never closed\n";
  const fs::path file = dir_ / "hand-made-rejects.pgn";
  std::ofstream(file) << pgn;
  ImportOutcome o = import(path("h.db"), file);
  EXPECT_EQ(o.summary.games_found, 6u);
  EXPECT_EQ(o.summary.imported, 1u);
  const std::vector<std::string> expected = {
      "1|1|bad FEN|bad FEN tag: piece placement field 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN': rank 1 does "
      "not sum to 8 squares|",
      "2|7|ambiguous move|ambiguous move 'Nf2' at ply 1 (1. Nf2)|",
      "3|13|unparsable move|unparsable move 'Zz9' at ply 3 (2. Zz9)|",
      "4|17|promotion piece missing|promotion piece missing 'a8' at ply 1 (1. a8)|",
      "6|27|'{' comment not closed before the end of the input|'{' comment not closed before the end of the input "
      "at line 29 near '{'|",
  };
  EXPECT_EQ(rejects_of(path("h.db")), expected);
}

// Each game as "White|Black|result code|plies", in id order.
std::vector<std::string> players_results_plies(const std::string& db_path) {
  store::Database db(db_path, store::Database::Mode::ReadOnly);
  std::vector<std::string> games;
  for (std::string row : rows(db, "SELECT (SELECT name FROM names WHERE id = white_id), "
                                  "(SELECT name FROM names WHERE id = black_id), result, plies FROM games ORDER BY id")) {
    row.pop_back();  // the last '|'
    games.push_back(std::move(row));
  }
  return games;
}

// Fischer's 34 real tag sections with their moves taken out, one after the other as a
// broadcast's pairings list them: 34 games, each with the tags and result of the game
// it came from and no plies.
TEST_F(ImportTest, FischerTagSectionsWithoutMovesAreThirtyFourGames) {
  PGNBASE_REQUIRE_SHARED(kFischer);
  std::istringstream in(test::read_file(kFischer));
  std::string tags_only;
  for (std::string line; std::getline(in, line);)
    if (line.starts_with('[')) tags_only += line + "\n";
  const fs::path file = dir_ / "fischer-pairings.pgn";
  std::ofstream(file, std::ios::binary) << tags_only;
  const ImportOutcome with_moves = import(path("full.db"), kFischer);
  for (size_t chunk_bytes : {size_t{1}, size_t{4} << 20}) {
    const std::string db = path("pairings-" + std::to_string(chunk_bytes) + ".db");
    const ImportOutcome o = import(db, file, 2, chunk_bytes);
    EXPECT_EQ(o.summary.games_found, 34u);
    EXPECT_EQ(o.summary.imported, 34u);
    std::vector<std::string> expected = players_results_plies(path("full.db"));
    ASSERT_EQ(expected.size(), 34u);
    for (std::string& game : expected) game = game.substr(0, game.rfind('|')) + "|0";
    EXPECT_EQ(players_results_plies(db), expected);
  }
  EXPECT_EQ(with_moves.summary.imported, 34u);
}

// Hand-made games of tags alone, the issue's example and its variants; no outside data.
class TagOnlyGamesImportTest : public test::TempDirTest {
 protected:
  ImportOutcome import(const std::string& db, const std::string& text, unsigned threads, size_t chunk_bytes) {
    const fs::path file = dir_ / "pairings.pgn";
    std::ofstream(file, std::ios::binary) << text;
    DatabaseWriter writer(db, WriterOptions{});
    ImportOptions options;
    options.threads = threads;
    options.chunk_bytes = chunk_bytes;
    return import_file(file.string(), writer, options);
  }
};

TEST_F(TagOnlyGamesImportTest, EachGameOfTagsAloneIsStoredWithItsResultAndNoPlies) {
  const std::string issue =
      "[Event \"Club ch\"]\n[Round \"1\"]\n[White \"Smith, J\"]\n[Black \"Jones, K\"]\n[Result \"1-0\"]\n\n"
      "[Event \"Club ch\"]\n[Round \"1\"]\n[White \"Brown, A\"]\n[Black \"Green, B\"]\n[Result \"0-1\"]\n\n";
  const std::string more =
      "[Event \"Club ch\"]\r\n[Round \"2\"]\r\n[White \"Jones, K\"]\r\n[Black \"Brown, A\"]\r\n[Result \"1/2-1/2\"]\r\n"
      "[Event \"Club ch\"]\n\n[Round \"2\"]\n[White \"Green, B\"]\n[Black \"Smith, J\"]\n[Result \"1-0\"]\n\n*\n\n"
      "[Event \"Club ch\"]\n[Round \"3\"]\n[White \"Smith, J\"]\n[Black \"Brown, A\"]\n\n1. e4 e5 1-0\n\n"
      "[Event \"Club ch\"]\n[Round \"3\"]\n[White \"Green, B\"]\n[Black \"Jones, K\"]\n";
  const std::vector<std::string> expected = {"Smith, J|Jones, K|1|0", "Brown, A|Green, B|3|0", "Jones, K|Brown, A|2|0",
                                             "Green, B|Smith, J|1|0", "Smith, J|Brown, A|1|2", "Green, B|Jones, K|0|0"};
  for (size_t chunk_bytes : {size_t{1}, size_t{100}, size_t{4} << 20}) {
    for (unsigned threads : {1u, 2u}) {
      const std::string label = std::to_string(chunk_bytes) + " bytes, " + std::to_string(threads) + " threads";
      const std::string db = (dir_ / ("issue-" + std::to_string(chunk_bytes) + "-" + std::to_string(threads))).string();
      ImportOutcome o = import(db, issue, threads, chunk_bytes);
      EXPECT_EQ(o.summary.games_found, 2u) << label;
      EXPECT_EQ(o.summary.imported, 2u) << label;
      EXPECT_EQ(players_results_plies(db), std::vector<std::string>(expected.begin(), expected.begin() + 2)) << label;
      const std::string all = db + "-all";
      o = import(all, issue + more, threads, chunk_bytes);
      EXPECT_EQ(o.summary.games_found, 6u) << label;
      EXPECT_EQ(o.summary.imported, 6u) << label;
      EXPECT_EQ(o.summary.rejected, 0u) << label;
      EXPECT_EQ(players_results_plies(all), expected) << label;
    }
  }
}

TEST_F(ImportTest, MissingInputThrowsAndLeavesTheDatabaseUsable) {
  const std::string db_path = path("m.db");
  EXPECT_THROW(import(db_path, dir_ / "no-such-file.pgn"), InputError);
  EXPECT_EQ(import(db_path, kTestData / "notation" / "fide-appendix-e-sample.pgn").summary.imported, 1u);
}

}  // namespace
}  // namespace pgnbase::indexer
