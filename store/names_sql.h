// The statements of tables names, name_words and openings: every player, event and site
// name once, its folded words (store/name_words.h), and the computed opening names.
// docs/schema.md describes the tables.
#pragma once

#include <string_view>

namespace pgnbase::store::sql {

inline constexpr std::string_view kNames = "SELECT id, name FROM names";
inline constexpr std::string_view kMaxNameId = "SELECT COALESCE(MAX(id), 0) FROM names";
inline constexpr std::string_view kOpenings = "SELECT id, name FROM openings";
inline constexpr std::string_view kInsertName = "INSERT INTO names(id, name) VALUES (?1, ?2)";
// name_words is keyed (word, name_id), WITHOUT ROWID: sorted rows go in as appends.
inline constexpr std::string_view kInsertNameWord = "INSERT OR IGNORE INTO name_words(word, name_id) VALUES (?1, ?2)";
// A first import's name words, sorted, built beside the writer in a private database
// with this table as main defines it, and moved into the empty main table whole (as the
// games rows: store/games_sql.h, kStagedRows).
inline constexpr std::string_view kNameWordsDefinition =
    "SELECT sql FROM main.sqlite_master WHERE type = 'table' AND name = 'name_words'";
inline constexpr std::string_view kAnyNameWord = "SELECT EXISTS (SELECT 1 FROM main.name_words)";
inline constexpr std::string_view kMoveStagedNameWords =
    "INSERT INTO main.name_words SELECT * FROM staged_rows.name_words";
inline constexpr std::string_view kInsertOpening = "INSERT INTO openings(id, name) VALUES (?1, ?2)";

// One name exactly, from the names_by_name index.
inline constexpr std::string_view kNameByName = "SELECT id, name FROM names WHERE name = ?1";
// The names that may be prefixes of split sites (store/site_url.h), from two ranges of the
// names_by_name index (a GLOB with a fixed start is a range); the caller checks the shape.
inline constexpr std::string_view kSitePrefixCandidates =
    "SELECT id, name FROM names WHERE name GLOB 'http://*/' UNION ALL "
    "SELECT id, name FROM names WHERE name GLOB 'https://*/'";
// Names with no ASCII letter or digit: the candidates for an unknown name ("?", "-", "");
// the caller keeps those whose folded words are none.
inline constexpr std::string_view kWordlessNameCandidates = "SELECT id, name FROM names WHERE name NOT GLOB '*[A-Za-z0-9]*'";

// Names (every one, or those whose ids ?1 lists as a JSON array), each with its games as
// White and as Black and the first and last date_key of each colour, from the games_white
// and games_black indexes (name id, date_key) alone: a few index seeks per name, no game
// row read. Names used only for events or sites have no games and are left out by the
// caller.
#define PGNBASE_PLAYER_LIST_COLUMNS                                                                                      \
  "SELECT n.name, "                                                                                                      \
  "(SELECT count(*) FROM games WHERE white_id = n.id), (SELECT count(*) FROM games WHERE black_id = n.id), "             \
  "(SELECT min(date_key) FROM games WHERE white_id = n.id), (SELECT max(date_key) FROM games WHERE white_id = n.id), "   \
  "(SELECT min(date_key) FROM games WHERE black_id = n.id), (SELECT max(date_key) FROM games WHERE black_id = n.id) "    \
  "FROM names n"
inline constexpr std::string_view kPlayerList = PGNBASE_PLAYER_LIST_COLUMNS;
inline constexpr std::string_view kPlayerListOf =
    PGNBASE_PLAYER_LIST_COLUMNS " WHERE n.id IN (SELECT value FROM json_each(?1))";
#undef PGNBASE_PLAYER_LIST_COLUMNS
// The same for events: games_event (event_id) counts; the dates are read from the rows.
inline constexpr std::string_view kEventList =
    "SELECT n.name, count(*), 0, min(g.date_key), max(g.date_key), NULL, NULL "
    "FROM names n JOIN games g ON g.event_id = n.id GROUP BY n.id";
inline constexpr std::string_view kEventListOf =
    "SELECT n.name, count(*), 0, min(g.date_key), max(g.date_key), NULL, NULL "
    "FROM names n JOIN games g ON g.event_id = n.id WHERE n.id IN (SELECT value FROM json_each(?1)) GROUP BY n.id";

}  // namespace pgnbase::store::sql
