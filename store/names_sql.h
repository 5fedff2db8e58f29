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
inline constexpr std::string_view kInsertOpening = "INSERT INTO openings(id, name) VALUES (?1, ?2)";

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
