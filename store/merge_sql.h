// The statements that read another pgnbase database to merge it into this one
// (indexer/database_merge.h): every row an import would have written for its sources,
// read in id order. The database is opened read-only and read as untrusted.
// docs/schema.md describes the tables.
#pragma once

#include <string_view>

#include "store/games_sql.h"  // PGNBASE_MATERIAL_BLOCK_OF_GAME

namespace pgnbase::store::sql {

inline constexpr std::string_view kMergeSources =
    "SELECT id, path, size, content_hash, duplicates FROM sources ORDER BY id";
// Which source holds each game: the merge reads a source's games as runs of ids.
inline constexpr std::string_view kMergeGameSources = "SELECT id, source_id FROM games ORDER BY id";
// The games of ids ?1 to ?2 with their annotations and their material block (whose entry
// for the game read_stored_game finds: store/material_blocks.h). A new column of games
// goes at the end of this list and is read in indexer/stored_game.cpp's read_stored_game.
inline constexpr std::string_view kMergeGamesInRange =
    "SELECT g.id, g.source_id, g.game_number, g.byte_offset, g.line, g.event_id, g.site_id, g.date, g.date_key, "
    "g.round, g.white_id, g.black_id, g.result_tag, g.result, g.white_elo, g.black_elo, g.eco, g.eco_source, "
    "g.opening_id, g.time_control, g.plies, g.variant, g.start_fen, g.language, g.moves, g.tags, a.annotations, "
    "m.runs, g.site_suffix FROM games g LEFT JOIN game_annotations a ON a.id = g.id "
    "LEFT JOIN material_blocks m ON m.block = " PGNBASE_MATERIAL_BLOCK_OF_GAME " "
    "WHERE g.id BETWEEN ?1 AND ?2 ORDER BY g.id";
// Its columns, in order.
enum MergeGameColumn : int {
  MERGE_ID, MERGE_SOURCE_ID, MERGE_GAME_NUMBER, MERGE_BYTE_OFFSET, MERGE_LINE, MERGE_EVENT, MERGE_SITE, MERGE_DATE,
  MERGE_DATE_KEY, MERGE_ROUND, MERGE_WHITE, MERGE_BLACK, MERGE_RESULT_TAG, MERGE_RESULT, MERGE_WHITE_ELO,
  MERGE_BLACK_ELO, MERGE_ECO, MERGE_ECO_SOURCE, MERGE_OPENING, MERGE_TIME_CONTROL, MERGE_PLIES, MERGE_VARIANT,
  MERGE_START_FEN, MERGE_LANGUAGE, MERGE_MOVES, MERGE_TAGS, MERGE_ANNOTATIONS, MERGE_MATERIAL, MERGE_SITE_SUFFIX
};
// Every reject, by source, in the order the import met them.
inline constexpr std::string_view kMergeRejects =
    "SELECT source_id, game_number, byte_offset, line, kind, reason, text FROM rejects ORDER BY source_id, id";
// The other sources that held a stored game (schema 5; a version 4 file has no table).
inline constexpr std::string_view kMergeCopies = "SELECT game_id, source_id FROM game_copies ORDER BY source_id, game_id";

// The position index segment a source wrote (its id is the source's), and its blocks in
// block order, which is key order (docs/position_index.md). A source that also holds
// segments of games moved to it (moved_segments, schema 5) is indexed by replay.
inline constexpr std::string_view kMergeSegment =
    "SELECT format, key_bits FROM position_segments WHERE segment_id = ?1";
inline constexpr std::string_view kMergeSegmentBlocks =
    "SELECT data FROM position_blocks WHERE segment_id = ?1 ORDER BY block_id";
inline constexpr std::string_view kMergeMovedSegments = "SELECT count(*) FROM moved_segments WHERE source_id = ?1";

}  // namespace pgnbase::store::sql
