// The statements of tables sources, rejects, game_copies, moved_segments and game_changes:
// what one imported file is, and what removing it changes. docs/schema.md describes the
// tables.
#pragma once

#include <string_view>

namespace pgnbase::store::sql {

// The import (indexer/database_writer.cpp). A source's row exists from the start (games
// reference it) with a pending hash that no content has; finishing fills it in.
inline constexpr std::string_view kInsertPendingSource =
    "INSERT INTO sources(id, path, size, content_hash, games_found, imported, rejected, imported_at, seconds) "
    "VALUES (?4, ?1, ?2, 'pending:' || hex(randomblob(8)), 0, 0, 0, ?3, 0)";
inline constexpr std::string_view kFinishSource =
    "UPDATE sources SET content_hash = ?2, games_found = ?3, imported = ?4, rejected = ?5, seconds = ?6, "
    "language_counts = ?7, duplicates = ?8 WHERE id = ?1";
inline constexpr std::string_view kSourceByContentHash = "SELECT id FROM sources WHERE content_hash = ?1";
// Whether a source's content hash ends with ?1, the byte count part of the hash
// (indexer/content_hash.h): only such a source can hold the same content.
inline constexpr std::string_view kSourceWithHashEnding =
    "SELECT 1 FROM sources WHERE substr(content_hash, -length(?1)) = ?1 LIMIT 1";
// --replace: the older sources of path ?1 or content ?2, but the one being imported (?3).
inline constexpr std::string_view kSourcesToReplace =
    "SELECT id FROM sources WHERE (path = ?1 OR content_hash = ?2) AND id != ?3 ORDER BY id";
inline constexpr std::string_view kInsertReject =
    "INSERT INTO rejects(source_id, game_number, byte_offset, line, kind, reason, text) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)";
inline constexpr std::string_view kInsertCopy = "INSERT OR IGNORE INTO game_copies(game_id, source_id) VALUES (?1, ?2)";

// A source's removal (indexer/source_removal.cpp).
inline constexpr std::string_view kSourcesNamed = "SELECT id FROM sources WHERE path = ?1 OR id = ?2 ORDER BY id";
inline constexpr std::string_view kSourceIdsAndPaths = "SELECT id, path FROM sources ORDER BY id";
inline constexpr std::string_view kSourcePathById = "SELECT path FROM sources WHERE id = ?1";
// The source's own segment (its id) and those written for games that moved to it.
inline constexpr std::string_view kSegmentsOfSource =
    "SELECT segment_id, first_game_id, last_game_id, postings FROM position_segments "
    "WHERE segment_id = ?1 OR segment_id IN (SELECT segment_id FROM moved_segments WHERE source_id = ?1)";
// Each game of source ?1 that another source also holds, with the oldest of those.
inline constexpr std::string_view kNewOwners =
    "SELECT c.game_id, min(c.source_id) FROM game_copies c JOIN games g ON g.id = c.game_id "
    "WHERE g.source_id = ?1 AND c.source_id != ?1 GROUP BY c.game_id";
inline constexpr std::string_view kInsertMovedSegment = "INSERT INTO moved_segments(segment_id, source_id) VALUES (?1, ?2)";
inline constexpr std::string_view kDeleteCopy = "DELETE FROM game_copies WHERE game_id = ?1 AND source_id = ?2";
// A game that moved to source ?2, or (kLogGameRemoved) that went: the dataset export
// follows this log (dataset/dataset_export.h).
inline constexpr std::string_view kLogGameMoved = "INSERT INTO game_changes(game_id, source_id) VALUES (?1, ?2)";
inline constexpr std::string_view kLogGameRemoved = "INSERT INTO game_changes(game_id, source_id) VALUES (?1, NULL)";
inline constexpr std::string_view kRejectCountOfSource = "SELECT count(*) FROM rejects WHERE source_id = ?1";
inline constexpr std::string_view kCopyCountOfSource = "SELECT count(*) FROM game_copies WHERE source_id = ?1";
inline constexpr std::string_view kDeleteRejectsOfSource = "DELETE FROM rejects WHERE source_id = ?1";
inline constexpr std::string_view kDeleteCopiesOfSource = "DELETE FROM game_copies WHERE source_id = ?1";
inline constexpr std::string_view kDeleteSource = "DELETE FROM sources WHERE id = ?1";
inline constexpr std::string_view kDeleteMovedSegmentsOfSource = "DELETE FROM moved_segments WHERE source_id = ?1";

// Reading.
inline constexpr std::string_view kSources =
    "SELECT id, path, size, content_hash, games_found, imported, rejected, duplicates, language_counts, "
    "imported_at, seconds FROM sources ORDER BY id";
inline constexpr std::string_view kSourceIds = "SELECT id FROM sources ORDER BY id";
// Copies of stored games that other sources held (skipped there as duplicates), and the
// games they are copies of.
inline constexpr std::string_view kCopyCounts = "SELECT count(*), count(DISTINCT game_id) FROM game_copies";
inline constexpr std::string_view kRejectKinds = "SELECT kind, count(*) FROM rejects GROUP BY kind ORDER BY 2 DESC, 1";
// Rejects: ?1 kind ('' = any), ?2 LIKE pattern on reason ('' = any).
inline constexpr std::string_view kRejects =
    "SELECT r.id, s.path, r.game_number, r.byte_offset, r.line, r.kind, r.reason, r.text "
    "FROM rejects r LEFT JOIN sources s ON s.id = r.source_id "
    "WHERE (?1 = '' OR r.kind = ?1) AND (?2 = '' OR r.reason LIKE ?2 ESCAPE '\\') ORDER BY r.id";
inline constexpr std::string_view kLastGameChange = "SELECT coalesce(max(seq), 0) FROM game_changes";
// The games the log names after change ?1, up to id ?2, with their source now (NULL:
// removed).
inline constexpr std::string_view kGamesChangedSince =
    "SELECT DISTINCT c.game_id, g.source_id FROM game_changes c LEFT JOIN games g ON g.id = c.game_id "
    "WHERE c.seq > ?1 AND c.game_id <= ?2";

}  // namespace pgnbase::store::sql
