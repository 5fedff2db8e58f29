// The database schema (documented column by column in docs/schema.md).
#pragma once

#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>

namespace pgnbase::store {

// Bumped when a change would make an older pgnbase misread the file.
inline constexpr int kSchemaVersion = 8;
// The oldest version this build reads; an older file must be rebuilt (pgn-index): it has
// no material_blocks (store/material_blocks.h), which the import writes and a material
// search reads (nor, before 7, games.site_suffix, which every reader of games selects).
inline constexpr int kOldestReadableSchemaVersion = 8;

// The one line for a database made by an older pgnbase: what to do about it.
inline std::string older_schema_message(const std::string& path, const std::string& version) {
  return path + ": made by an older pgnbase (schema version " + version + "; this build reads version " +
         std::to_string(kSchemaVersion) + "): rebuild it from its PGN files with pgn-index -o NEW.db FILE...";
}

inline constexpr std::string_view kSchemaSql = R"sql(
CREATE TABLE IF NOT EXISTS meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS sources (
  id           INTEGER PRIMARY KEY,
  path         TEXT NOT NULL,
  size         INTEGER,
  content_hash TEXT NOT NULL UNIQUE,
  games_found  INTEGER NOT NULL,
  imported     INTEGER NOT NULL,
  rejected     INTEGER NOT NULL,
  duplicates   INTEGER NOT NULL DEFAULT 0,
  language_counts TEXT,
  imported_at  TEXT NOT NULL,
  seconds      REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS names (
  id   INTEGER PRIMARY KEY,
  name TEXT NOT NULL
);
-- A named index rather than a UNIQUE constraint, so that a bulk load drops it and builds
-- it once at the end (the writer keeps names unique: one id per name).
CREATE UNIQUE INDEX IF NOT EXISTS names_by_name ON names(name);
-- The opening names the import computes (games.opening_id), each stored once rather than
-- as text in every game's row.
CREATE TABLE IF NOT EXISTS openings (
  id   INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE
);
CREATE TABLE IF NOT EXISTS games (
  id           INTEGER PRIMARY KEY,
  source_id    INTEGER NOT NULL REFERENCES sources(id),
  game_number  INTEGER NOT NULL,
  byte_offset  INTEGER NOT NULL,
  line         INTEGER NOT NULL,
  event_id     INTEGER REFERENCES names(id),
  site_id      INTEGER REFERENCES names(id),
  -- A Site that is one game's URL: site_id names its shared prefix, this holds the rest
  -- (store/site_url.h); NULL when site_id names the whole value.
  site_suffix  TEXT,
  date         TEXT,
  date_key     INTEGER,
  round        TEXT,
  white_id     INTEGER REFERENCES names(id),
  black_id     INTEGER REFERENCES names(id),
  result_tag   TEXT,
  result       INTEGER NOT NULL,
  white_elo    INTEGER,
  black_elo    INTEGER,
  eco          TEXT,
  eco_source   INTEGER NOT NULL DEFAULT 0,
  opening_id   INTEGER REFERENCES openings(id),
  time_control TEXT,
  plies        INTEGER NOT NULL,
  variant      INTEGER NOT NULL DEFAULT 0,
  start_fen    TEXT,
  language     TEXT NOT NULL DEFAULT 'en',
  moves        BLOB NOT NULL,
  tags         BLOB,
  dedupe_key   INTEGER NOT NULL DEFAULT 0
);
-- Comments, NAGs and variations live apart: they are most of a commented game's bytes,
-- and without them a games row is small, so replaying many games reads few pages.
CREATE TABLE IF NOT EXISTS game_annotations (
  id          INTEGER PRIMARY KEY REFERENCES games(id),
  annotations BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS rejects (
  id          INTEGER PRIMARY KEY,
  source_id   INTEGER NOT NULL REFERENCES sources(id),
  game_number INTEGER NOT NULL,
  byte_offset INTEGER NOT NULL,
  line        INTEGER NOT NULL,
  kind        TEXT NOT NULL,
  reason      TEXT NOT NULL,
  text        BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS rejects_kind ON rejects(kind);
-- Names as people type them: the folded words of every name (store/name_words.h), so
-- that a name filter looks words up instead of scanning.
CREATE TABLE IF NOT EXISTS name_words (
  word    TEXT NOT NULL,
  name_id INTEGER NOT NULL REFERENCES names(id),
  PRIMARY KEY (word, name_id)
) WITHOUT ROWID;
-- The explorer's game facets (store/game_facets.h): per-game ratings,
-- date and time control as arrays indexed by game id, one blob per column, so that the
-- explorer filters and ranks a million games without reading a million rows.
CREATE TABLE IF NOT EXISTS game_facets (
  name TEXT PRIMARY KEY,
  data BLOB NOT NULL
);
-- The explorer's stored answers for common positions (store/explorer_summaries.h),
-- valid while the content version and the posting count are what `stamp` says.
CREATE TABLE IF NOT EXISTS explorer_summaries (
  key   INTEGER PRIMARY KEY,
  stamp INTEGER NOT NULL,
  data  BLOB NOT NULL
);
-- The ECO table's positions by Polyglot key, for naming explored positions.
CREATE TABLE IF NOT EXISTS eco_positions (
  key  INTEGER PRIMARY KEY,
  eco  TEXT NOT NULL,
  name TEXT NOT NULL
);
-- Material and pattern search: the material of every ply, as the
-- plies where it changes (store/material_runs.h), 16 games of consecutive ids a row
-- (store/material_blocks.h), so a material search scans this table and reads no moves.
-- New in schema 8 (schema 7 had a row a game, game_material).
CREATE TABLE IF NOT EXISTS material_blocks (
  block INTEGER PRIMARY KEY,
  games INTEGER NOT NULL,
  runs  BLOB NOT NULL
);
-- Every other source that held a stored game and was not stored for it (a duplicate or
-- a truncated copy). Removing the game's source moves the game to one of them instead of
-- deleting it. This and the next two tables are new in schema 5: readers of a schema 4
-- database find them missing.
CREATE TABLE IF NOT EXISTS game_copies (
  game_id   INTEGER NOT NULL,
  source_id INTEGER NOT NULL,
  PRIMARY KEY (game_id, source_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS game_copies_by_source ON game_copies(source_id);
-- The position-index segments of games that moved to another source when
-- their own was removed (a source's first segment has the source's id; these are extra).
CREATE TABLE IF NOT EXISTS moved_segments (
  segment_id INTEGER PRIMARY KEY,
  source_id  INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS moved_segments_by_source ON moved_segments(source_id);
-- What removals did to stored games, in order, for readers that keep a copy
-- (the Parquet dataset): source_id NULL when the game was removed, else the source the
-- game moved to.
CREATE TABLE IF NOT EXISTS game_changes (
  seq       INTEGER PRIMARY KEY,
  game_id   INTEGER NOT NULL,
  source_id INTEGER
);
)sql";

// The secondary indexes of games, part of the schema (create the schema with both). A
// new database's import with 4 threads or more builds them after its writer, on threads
// of their own (store/index_bulk_build.h): each statement keeps the form that it reads.
inline constexpr std::string_view kGamesIndexesSql = R"sql(
-- With the date, a player's games come sorted by date from the index alone.
CREATE INDEX IF NOT EXISTS games_white ON games(white_id, date_key);
CREATE INDEX IF NOT EXISTS games_black ON games(black_id, date_key);
-- Without the games whose column is NULL, which no filter looks for: a single NULL makes
-- SQLite's sorter compare every pair of a build in its slow, general way, and a file
-- without Elo tags would index every game under NULL. A filter on the column (eco >= ?,
-- date_key <= ?, white_elo >= ?) implies NOT NULL, so the planner uses these as before.
-- The name indexes stay whole: a name pattern that matches absent names asks IS NULL.
CREATE INDEX IF NOT EXISTS games_eco ON games(eco) WHERE eco IS NOT NULL;
CREATE INDEX IF NOT EXISTS games_date ON games(date_key) WHERE date_key IS NOT NULL;
CREATE INDEX IF NOT EXISTS games_white_elo ON games(white_elo) WHERE white_elo IS NOT NULL;
CREATE INDEX IF NOT EXISTS games_black_elo ON games(black_elo) WHERE black_elo IS NOT NULL;
CREATE INDEX IF NOT EXISTS games_event ON games(event_id);
)sql";

// The secondary indexes of games and names, dropped for a bulk load into an empty table,
// but for kPartialGamesIndexes.
inline constexpr std::string_view kDropGameIndexesSql = R"sql(
DROP INDEX IF EXISTS names_by_name;
DROP INDEX IF EXISTS games_white;
DROP INDEX IF EXISTS games_black;
DROP INDEX IF EXISTS games_event;
)sql";

// The partial indexes of games, on columns that whole archives lack (the ratings of older
// games, say). A bulk load into an empty table keeps each in place while no game written
// has its column: an index that stays empty costs nothing per row, where building it at
// the end reads the whole table for nothing (the two ratings indexes were 2.8% of the
// writer's instructions on the master-style file, which has no ratings). The first game
// with the column has the index dropped, empty, before its row goes in; the end of the
// load builds it with the others.
enum class PartialIndexColumn { Eco, DateKey, WhiteElo, BlackElo };
struct PartialGamesIndex {
  std::string_view name;
  PartialIndexColumn column;
  std::string_view drop_sql;
};
inline constexpr PartialGamesIndex kPartialGamesIndexes[] = {
    {"games_eco", PartialIndexColumn::Eco, "DROP INDEX IF EXISTS games_eco"},
    {"games_date", PartialIndexColumn::DateKey, "DROP INDEX IF EXISTS games_date"},
    {"games_white_elo", PartialIndexColumn::WhiteElo, "DROP INDEX IF EXISTS games_white_elo"},
    {"games_black_elo", PartialIndexColumn::BlackElo, "DROP INDEX IF EXISTS games_black_elo"},
};
// A set of kPartialGamesIndexes: bit i for the i-th.
using PartialIndexSet = uint32_t;
inline constexpr PartialIndexSet kAllPartialGamesIndexes = (1u << std::size(kPartialGamesIndexes)) - 1;

}  // namespace pgnbase::store
