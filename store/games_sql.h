// The fixed statements of tables games, game_annotations and material_blocks (the
// assembled games query is store/game_query.h; the schema, store/schema.h).
// docs/schema.md describes the tables.
#pragma once

#include <string_view>

namespace pgnbase::store::sql {

// The import (indexer/database_writer.cpp): one row per game, in id order.
inline constexpr std::string_view kInsertGame =
    "INSERT INTO games(id, source_id, game_number, byte_offset, line, event_id, site_id, date, date_key, round, "
    "white_id, black_id, result_tag, result, white_elo, black_elo, eco, eco_source, opening_id, time_control, plies, "
    "variant, start_fen, language, moves, tags, dedupe_key, site_suffix) VALUES "
    "(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, "
    "?24, ?25, ?26, ?27, ?28)";
// A game's whole Site: its name (the whole value, or the prefix of a split URL) and its
// suffix (store/site_url.h); NULL when the game has none. For a statement that joins
// names as `si` on games `g`'s site_id (here and in store/game_query.cpp).
#define PGNBASE_WHOLE_SITE "si.name || coalesce(g.site_suffix, '')"

inline constexpr std::string_view kInsertAnnotations = "INSERT INTO game_annotations(id, annotations) VALUES (?1, ?2)";
inline constexpr std::string_view kAnyGame = "SELECT EXISTS (SELECT 1 FROM games)";
// Rows built beside the writer (indexer/row_staging.h): the tables of a row per game, as
// this database defines them, made again in a private database whose image the writer
// loads as schema kStagedRows; then each table's rows moved over whole. A statement of
// exactly this form, between tables whose columns agree, is run by SQLite's transfer
// optimisation: each record is copied as it is stored, none is decoded or built again.
inline constexpr std::string_view kStagedRows = "staged_rows";
inline constexpr std::string_view kStagedTableDefinitions =
    "SELECT sql FROM main.sqlite_master WHERE type = 'table' AND name IN ('games', 'game_annotations', "
    "'material_blocks') ORDER BY name";
// The definition of an index (?1: its name), for a staged table to have the indexes
// that the target keeps (store/schema.h, kPartialGamesIndexes): the transfer needs each of
// the target's indexes in the source.
inline constexpr std::string_view kIndexDefinition =
    "SELECT sql FROM main.sqlite_master WHERE type = 'index' AND name = ?1";
inline constexpr std::string_view kMoveStagedGames = "INSERT INTO main.games SELECT * FROM staged_rows.games";
inline constexpr std::string_view kMoveStagedAnnotations =
    "INSERT INTO main.game_annotations SELECT * FROM staged_rows.game_annotations";
inline constexpr std::string_view kMoveStagedMaterialBlocks =
    "INSERT INTO main.material_blocks SELECT * FROM staged_rows.material_blocks";
// A staging database: auto_vacuum gives back the pages of the rows deleted for the next
// part, so that an image holds only the part's own.
inline constexpr std::string_view kStagingSettings = "PRAGMA auto_vacuum=FULL";
inline constexpr std::string_view kEmptyStagedTables =
    "DELETE FROM games; DELETE FROM game_annotations; DELETE FROM material_blocks";
// With the result: the scan also tells the truncated-copy finder which games are unfinished.
inline constexpr std::string_view kDedupeKeys = "SELECT dedupe_key, id, result FROM games";
// The truncated-copy check (indexer/truncated_copies.h): the headers it hashes, of every
// stored game, of those without a result (the only ones a finished new game can be
// compared with: two finished games are never copies), of the finished ones up to an id,
// or of one game; then one candidate's moves.
#define PGNBASE_COPY_CHECK_HEADERS                                                                    \
  "SELECT g.id, wh.name, bl.name, ev.name, g.date, g.round, g.start_fen, g.result, substr(g.moves, 2, 4) " \
  "FROM games g LEFT JOIN names wh ON wh.id = g.white_id LEFT JOIN names bl ON bl.id = g.black_id "        \
  "LEFT JOIN names ev ON ev.id = g.event_id"
inline constexpr std::string_view kCopyCheckHeaders = PGNBASE_COPY_CHECK_HEADERS;
inline constexpr std::string_view kCopyCheckHeadersUnfinished = PGNBASE_COPY_CHECK_HEADERS " WHERE g.result = 0";
inline constexpr std::string_view kCopyCheckHeadersFinishedThrough =
    PGNBASE_COPY_CHECK_HEADERS " WHERE g.result != 0 AND g.id <= ?1";
inline constexpr std::string_view kCopyCheckHeadersById = PGNBASE_COPY_CHECK_HEADERS " WHERE g.id = ?1";
inline constexpr std::string_view kCopyCheckGame =
    "SELECT g.moves, g.result, g.plies, " PGNBASE_WHOLE_SITE ", g.tags FROM games g "
    "LEFT JOIN names si ON si.id = g.site_id "
    "WHERE g.id = ?1";

// A source's removal (indexer/source_removal.cpp).
inline constexpr std::string_view kGamesOfSourceInRange =
    "SELECT id FROM games WHERE id BETWEEN ?2 AND ?3 AND source_id = ?1 ORDER BY id";
inline constexpr std::string_view kGameForReindex = "SELECT variant, start_fen, moves, result FROM games WHERE id = ?1";
inline constexpr std::string_view kMoveGameToSource = "UPDATE games SET source_id = ?2 WHERE id = ?1";
// Every row of game ?1, in this order (its material runs: store::remove_material_runs).
inline constexpr std::string_view kDeleteGameRows[] = {"DELETE FROM game_annotations WHERE id = ?1",
                                                       "DELETE FROM game_copies WHERE game_id = ?1",
                                                       "DELETE FROM games WHERE id = ?1"};

// Reading.
inline constexpr std::string_view kGameCount = "SELECT count(*) FROM games";
inline constexpr std::string_view kFirstGameAbove = "SELECT min(id) FROM games WHERE id > ?1";
// What confirming a position candidate needs of game ?1, and nothing more (the row is
// small: annotations live in game_annotations).
inline constexpr std::string_view kGameMovesById =
    "SELECT moves, variant, start_fen, time_control FROM games WHERE id = ?1";
// The material blocks (store/material_blocks.h); a pattern search (search/pattern_search.h)
// reads a range of them. The block of games row g (kMaterialBlockGames ids a block):
#define PGNBASE_MATERIAL_BLOCK_OF_GAME "((g.id - 1) / 16)"
inline constexpr std::string_view kInsertMaterialBlock =
    "INSERT INTO material_blocks(block, games, runs) VALUES (?1, ?2, ?3)";
inline constexpr std::string_view kReplaceMaterialBlock =
    "INSERT OR REPLACE INTO material_blocks(block, games, runs) VALUES (?1, ?2, ?3)";
inline constexpr std::string_view kMaterialBlock = "SELECT games, runs FROM material_blocks WHERE block = ?1";
inline constexpr std::string_view kDeleteMaterialBlock = "DELETE FROM material_blocks WHERE block = ?1";
inline constexpr std::string_view kMaterialBlocksInRange =
    "SELECT block, games, runs FROM material_blocks WHERE block BETWEEN ?1 AND ?2 ORDER BY block";
inline constexpr std::string_view kCountMaterialRuns = "SELECT coalesce(sum(games), 0) FROM material_blocks";
inline constexpr std::string_view kMaxGameId = "SELECT coalesce(max(id), 0) FROM games";
inline constexpr std::string_view kGameResultById = "SELECT result FROM games WHERE id = ?1";
// Every rating with its game id, read from the rating indexes alone (no table pages).
inline constexpr std::string_view kWhiteElos = "SELECT id, white_elo FROM games WHERE white_elo IS NOT NULL";
inline constexpr std::string_view kBlackElos = "SELECT id, black_elo FROM games WHERE black_elo IS NOT NULL";
inline constexpr std::string_view kPlayerCount =
    "SELECT count(*) FROM (SELECT white_id AS id FROM games WHERE white_id IS NOT NULL "
    "UNION SELECT black_id FROM games WHERE black_id IS NOT NULL)";
inline constexpr std::string_view kDateRange =
    "SELECT (SELECT min(date_key) FROM games WHERE date_key IS NOT NULL), "
    "(SELECT max(date_key) FROM games WHERE date_key IS NOT NULL)";
// variant = 1: Variant::Chess960; eco_source 1 and 2: EcoSource::Tag and ::Computed.
inline constexpr std::string_view kPlyTotals =
    "SELECT count(*), total(plies), total(length(moves)), total(length(tags)), "
    "(SELECT total(length(annotations)) FROM game_annotations), "
    "sum(variant = 1), sum(start_fen IS NOT NULL), sum(eco_source = 1), sum(eco_source = 2) FROM games";
inline constexpr std::string_view kLanguageCounts = "SELECT language, count(*) FROM games GROUP BY language ORDER BY 2 DESC";
// What a player report needs of game ?1: no blobs, one primary-key look-up.
inline constexpr std::string_view kReportGameById =
    "SELECT g.id, g.white_id, wh.name, g.black_id, bl.name, g.result, g.date_key, g.date, g.white_elo, "
    "g.black_elo, g.eco, op.name, g.plies, ev.name FROM games g LEFT JOIN openings op ON op.id = g.opening_id "
    "LEFT JOIN names wh ON wh.id = g.white_id LEFT JOIN names bl ON bl.id = g.black_id "
    "LEFT JOIN names ev ON ev.id = g.event_id WHERE g.id = ?1";

}  // namespace pgnbase::store::sql
