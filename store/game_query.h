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

// The names a name filter accepts, as ids of table names (search/ resolves the user's
// pattern to them); or_absent also takes games without the tag (an unknown name).
struct NameIds {
  std::vector<int64_t> ids;
  bool or_absent = false;
};

// The sites a --site filter accepts (search/site_match.h resolves the pattern). A game's
// Site is a name, whole, or a prefix name and a suffix (store/site_url.h). It passes when
// its site_id is one of `names` (with whole_only, only when it has no suffix: an exact
// pattern), or when its site_id is one of a suffix match's prefix_ids and its suffix is
// that match's text (exact) or matches it as a folded word ('*' and '?' wildcards,
// letters without case).
struct SiteSuffixMatch {
  std::vector<int64_t> prefix_ids;
  std::string suffix;
  bool exact = false;
};
struct SiteIds {
  NameIds names;
  bool whole_only = false;
  std::vector<SiteSuffixMatch> suffixes;
};

// The header filters as SQL conditions. An id list is bound as one JSON array and read
// with json_each, so its length costs no SQL text and SQLite seeks the index once per id.
struct GameConditions {
  std::optional<std::string> eco_low, eco_high_exclusive;  // games.eco in [low, high)
  std::optional<NameIds> white, black, player, event;
  std::optional<SiteIds> site;
  // With player: the other player of the game (head to head, either colour).
  std::optional<NameIds> opponent;
  // Only these games (what the filters that SQL cannot read, tags and comments, let pass).
  std::optional<std::vector<int64_t>> game_ids;
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

// The columns of build_game_query for a scan by the filters SQL cannot evaluate, in id
// order: the moves blob is left out (empty), and so are the names (Event, Site, White,
// Black), the opening name and the annotations unless asked for.
struct ScanColumns {
  bool names = false, opening = false, annotations = false;
};
SqlQuery build_game_scan_query(const GameConditions& conditions, ScanColumns columns);

// id, name of the names holding every word pattern of at least one of the sets (name_words,
// one index look-up per pattern word): the candidates a name pattern is then tested on.
SqlQuery build_name_candidates_query(const std::vector<std::vector<std::string>>& word_sets);

// The same list as JSON for json_each: "[1,2,3]".
std::string json_id_list(const std::vector<int64_t>& ids);

}  // namespace pgnbase::store
