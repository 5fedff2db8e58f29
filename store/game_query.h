// Reading the games table: the games query assembled from GameConditions (the header
// filters as the SQL needs them; query/game_filter.h makes them from the user's text)
// with bound parameters, never user text pasted into SQL, and the fixed statements of
// stats, rejects and game look-ups. docs/schema.md describes the tables.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <optional>

#include "store/database.h"

namespace pgnbase::store {

// The header filters as SQL conditions. A name is a list of name-word GLOB patterns
// (store/name_words.h), every one of which the name must hold; an empty list matches no
// name.
struct GameConditions {
  std::optional<std::string> eco_low, eco_high_exclusive;  // games.eco in [low, high)
  std::optional<std::vector<std::string>> white, black, player, event, site;
  std::optional<int64_t> min_elo, max_elo;  // both players (either, with elo_either)
  bool elo_either = false;
  std::optional<int64_t> date_from_key, date_to_key;  // inclusive; see kLastPossibleDay
  std::optional<int> result;                          // games.result
  std::optional<int64_t> min_plies, max_plies;
};

enum class GameOrder : uint8_t { Id, Date, Elo };

// A statement's text and its parameters, bound in order as ?1, ?2, ...
class SqlQuery {
 public:
  // Placeholders ?1 .. ?(first_placeholder - 1) are left to the caller.
  explicit SqlQuery(int first_placeholder = 1) : first_placeholder_(first_placeholder) {}

  std::string sql;

  // Appends a parameter and returns its "?N" placeholder.
  std::string add(int64_t value);
  std::string add(std::string value);
  // Binds the parameters added with add() to a statement prepared from sql.
  void bind(Statement& statement) const;
  size_t parameter_count() const { return parameters_.size(); }

 private:
  std::vector<std::variant<int64_t, std::string>> parameters_;
  int first_placeholder_;
};

// SELECT <all game columns> FROM games ... WHERE <header filters> ORDER BY <order>.
// The position (fen) and time-control filters are not SQL: the caller applies them.
SqlQuery build_game_query(const GameConditions& conditions, GameOrder order);

// The same columns for one game: ?1 is the game id; the header filters follow from ?2.
// No row when the game fails a filter.
SqlQuery build_game_by_id_query(const GameConditions& conditions = {});

// Every game with an id above ?1, in id order, with the columns of build_game_query
// (the dataset export's appends: dataset/dataset_export.h).
SqlQuery build_games_after_id_query();

// SELECT count(*) over the header filters.
SqlQuery build_game_count_query(const GameConditions& conditions);

// id, white_elo, black_elo, date_key, time_control of the games that pass the header filters: what
// sorting and the explorer need, without the blobs. by_id: ?1 is one game's id (filters
// from ?2); otherwise every passing game, in no particular order (an ORDER BY id would
// tempt SQLite to walk the whole table in id order instead of using the filters' indexes).
// Columns not in `columns` are NULL, so that an index holding the filtered column (and
// the row id) answers alone, without visiting the rows.
struct GameKeyColumns {
  bool elo = true, date = true, time_control = true;
};
SqlQuery build_game_key_query(const GameConditions& conditions, bool by_id, GameKeyColumns columns = {});

namespace sql {

// Ordinary tables only: a virtual table of that name would run a module's code.
inline constexpr std::string_view kHasGamesTable =
    "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('games', 'names', 'sources', 'rejects', "
    "'meta') AND sql LIKE 'CREATE TABLE%'";

inline constexpr std::string_view kGameCount = "SELECT count(*) FROM games";
// What confirming a position candidate needs of game ?1, and nothing more (the row is
// small: annotations live in game_annotations).
inline constexpr std::string_view kGameMovesById =
    "SELECT moves, variant, start_fen, time_control FROM games WHERE id = ?1";
// Pattern search (pattern_search.h): the material runs of a range of games.
inline constexpr std::string_view kMaterialRunsInRange =
    "SELECT id, runs FROM game_material WHERE id BETWEEN ?1 AND ?2 ORDER BY id";
inline constexpr std::string_view kMaterialRunsById = "SELECT id, runs FROM game_material WHERE id = ?1";
inline constexpr std::string_view kMaxGameId = "SELECT coalesce(max(id), 0) FROM games";
inline constexpr std::string_view kGameResultById = "SELECT result FROM games WHERE id = ?1";
// Every rating with its game id, read from the rating indexes alone (no table pages).
inline constexpr std::string_view kWhiteElos = "SELECT id, white_elo FROM games WHERE white_elo IS NOT NULL";
inline constexpr std::string_view kBlackElos = "SELECT id, black_elo FROM games WHERE black_elo IS NOT NULL";
inline constexpr std::string_view kPlayerCount =
    "SELECT count(*) FROM (SELECT white_id AS id FROM games WHERE white_id IS NOT NULL "
    "UNION SELECT black_id FROM games WHERE black_id IS NOT NULL)";
inline constexpr std::string_view kDateRange =
    "SELECT (SELECT min(date_key) FROM games WHERE date_key IS NOT NULL), (SELECT max(date_key) FROM games)";
// variant = 1: Variant::Chess960; eco_source 1 and 2: EcoSource::Tag and ::Computed.
inline constexpr std::string_view kPlyTotals =
    "SELECT count(*), total(plies), total(length(moves)), total(length(tags)), "
    "(SELECT total(length(annotations)) FROM game_annotations), "
    "sum(variant = 1), sum(start_fen IS NOT NULL), sum(eco_source = 1), sum(eco_source = 2) FROM games";
inline constexpr std::string_view kLanguageCounts = "SELECT language, count(*) FROM games GROUP BY language ORDER BY 2 DESC";
inline constexpr std::string_view kSources =
    "SELECT id, path, size, content_hash, games_found, imported, rejected, duplicates, language_counts, "
    "imported_at, seconds FROM sources ORDER BY id";
// Copies of stored games that other sources held (skipped there as duplicates), and the
// games they are copies of.
inline constexpr std::string_view kCopyCounts = "SELECT count(*), count(DISTINCT game_id) FROM game_copies";
inline constexpr std::string_view kRejectKinds = "SELECT kind, count(*) FROM rejects GROUP BY kind ORDER BY 2 DESC, 1";
inline constexpr std::string_view kPageInfo = "SELECT page_count * page_size, freelist_count * page_size "
                                              "FROM pragma_page_count(), pragma_page_size(), pragma_freelist_count()";
// Fails (no such table) when SQLite was built without SQLITE_ENABLE_DBSTAT_VTAB.
inline constexpr std::string_view kObjectSizes =
    "SELECT name, sum(pgsize), count(*) FROM dbstat GROUP BY name ORDER BY 2 DESC";
inline constexpr std::string_view kObjectNames =
    "SELECT name, type, tbl_name FROM sqlite_master WHERE type IN ('table', 'index') ORDER BY name";

// Rejects: ?1 kind ('' = any), ?2 LIKE pattern on reason ('' = any).
inline constexpr std::string_view kRejects =
    "SELECT r.id, s.path, r.game_number, r.byte_offset, r.line, r.kind, r.reason, r.text "
    "FROM rejects r LEFT JOIN sources s ON s.id = r.source_id "
    "WHERE (?1 = '' OR r.kind = ?1) AND (?2 = '' OR r.reason LIKE ?2 ESCAPE '\\') ORDER BY r.id";

}  // namespace sql

}  // namespace pgnbase::store
