// The games query assembled from GameConditions (the header filters as the SQL needs
// them; query/game_filter.h makes them from the user's text) with bound parameters,
// never user text pasted into SQL. The fixed statements are in store/*_sql.h;
// docs/schema.md describes the tables.
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

}  // namespace pgnbase::store
