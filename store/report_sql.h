// The fixed SQL statements of `show`, `player`, `players` and `events` (the games
// query itself is assembled in game_query.h). docs/schema.md describes the tables.
#pragma once

#include <string_view>

namespace pgnbase::store::sql {

inline constexpr std::string_view kSourcePathById = "SELECT path FROM sources WHERE id = ?1";

// What a player report needs of game ?1: no blobs, one primary-key look-up.
inline constexpr std::string_view kReportGameById =
    "SELECT g.id, g.white_id, wh.name, g.black_id, bl.name, g.result, g.date_key, g.date, g.white_elo, "
    "g.black_elo, g.eco, op.name, g.plies, ev.name FROM games g LEFT JOIN openings op ON op.id = g.opening_id "
    "LEFT JOIN names wh ON wh.id = g.white_id LEFT JOIN names bl ON bl.id = g.black_id "
    "LEFT JOIN names ev ON ev.id = g.event_id WHERE g.id = ?1";

// Names matching a LIKE pattern (?1), each with its games as White and as Black and the
// first and last date_key of each colour, from the games_white and games_black indexes
// (name id, date_key) alone: a few index seeks per name, no game row read. Names used
// only for events or sites have no games and are left out by the caller.
inline constexpr std::string_view kPlayerList =
    "SELECT n.name, "
    "(SELECT count(*) FROM games WHERE white_id = n.id), (SELECT count(*) FROM games WHERE black_id = n.id), "
    "(SELECT min(date_key) FROM games WHERE white_id = n.id), (SELECT max(date_key) FROM games WHERE white_id = n.id), "
    "(SELECT min(date_key) FROM games WHERE black_id = n.id), (SELECT max(date_key) FROM games WHERE black_id = n.id) "
    "FROM names n WHERE n.name LIKE ?1 ESCAPE '\\'";
// The same for events: games_event (event_id) counts; the dates are read from the rows.
inline constexpr std::string_view kEventList =
    "SELECT n.name, count(*), 0, min(g.date_key), max(g.date_key), NULL, NULL "
    "FROM names n JOIN games g ON g.event_id = n.id WHERE n.name LIKE ?1 ESCAPE '\\' GROUP BY n.id";

}  // namespace pgnbase::store::sql
