// The header and position filters of `pgn-query search/export/explore`, parsed from
// the user's text into the values the SQL needs. Every parser returns false with a
// one-line message naming the bad value; none of them asserts on user input.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/parsed.h"
#include "core/board.h"
#include "store/game_query.h"
#include "search/move_sequence.h"
#include "search/pattern.h"
#include "search/time_control.h"

namespace pgnbase::search {

// ECO codes from low (inclusive) to high_exclusive: "C60" -> [C60, C61), "C60-C99" ->
// [C60, C9:), "C" -> [C, D), a prefix "B2" -> [B2, B3) (B20-B29). Comparing strings this way also takes extended codes
// such as "C60a" into their parent code.
struct EcoRange {
  std::string low;
  std::string high_exclusive;
};

// A name pattern for --white/--black/--player/--event/--site, matched word by word,
// case- and accent-insensitively, '*' and '?' as wildcards (search/name_match.h).
struct NamePattern {
  std::string text;  // as the user wrote it
};

// --tag NAME=VALUE, or NAME alone (the game has the tag). The name is compared without
// regard to case; the value is the whole tag value, case-insensitive, '*' and '?' as
// wildcards (search/row_filter.h).
struct TagCondition {
  std::string name;
  std::optional<std::string> value;
};

using store::GameOrder;

struct GameFilter {
  std::optional<Board> position;  // --fen, parsed with core's parse_fen, or the end of --moves
  // --moves with --from-start-only: only games that start with exactly these moves
  // (position is then their final position).
  std::optional<MoveSequence> opening;
  std::optional<EcoRange> eco;
  std::optional<NamePattern> white, black, player, event, site;
  std::optional<NamePattern> opponent;  // with player: head to head, either colour
  // Filters on what SQL cannot read (the tags blob, the annotations): search/row_filter.h.
  std::vector<TagCondition> tags;           // --tag, every one must hold
  std::optional<NamePattern> opening_name;  // --opening: the Opening tag or the computed name, word rule
  std::optional<NamePattern> comment;       // --comment: a comment of the game, word rule
  // --min-eval/--max-eval: an evaluation ([%eval]) after some ply of eval_plies lies in
  // the range, as eval_score orders them (mates beyond every centipawn value).
  std::optional<int64_t> min_eval, max_eval;
  uint32_t eval_ply_from = 0, eval_ply_to = UINT32_MAX;  // --eval-plies
  std::optional<int64_t> min_elo, max_elo;           // both players (either, with elo_either)
  bool elo_either = false;                           // --elo-of either: one player in range is enough
  std::optional<int64_t> date_from_key, date_to_key; // from parse_date_bound, inclusive
  std::optional<int> result;                         // games.result: 0 unknown ... 3 Black won
  std::optional<TimeControlMatcher> time_control;
  std::optional<int64_t> min_plies, max_plies;
  std::optional<Pattern> pattern;  // --material, --pieces, ... (pattern_search.h)

  // Whether any filter other than the position is set.
  bool has_header_filters() const { return has_sql_filters() || time_control.has_value(); }
  // Whether any filter that the games query answers (all but position, time control and
  // patterns) is set.
  bool has_sql_filters() const;
  // Whether a filter needs each game's row read (tags, opening name, comments, evaluations).
  bool has_row_filters() const { return !tags.empty() || opening_name || comment || has_eval_filter(); }
  bool has_eval_filter() const { return min_eval || max_eval; }
  // Those filters as the games query takes them: names resolved to name ids
  // (search/name_match.h), and the row filters to the ids of the games they let pass, by
  // one scan of the games the other filters select. The caller holds a read snapshot.
  store::GameConditions sql_conditions(store::Database& db) const;
};

Parsed<EcoRange> parse_eco_range(std::string_view text);
// Partial dates: "2019", "2019.05", "2019.05.17" (also with '-' or '/', and "??" parts).
// A lower bound fills the unknown parts with 00, an upper bound with 99, so
// --date-from 2019.05 --date-to 2019.05 selects May 2019. A bound that covers whole months
// is written as their key: "2019.05.01" (lower) is 20190500, "2019.01.01" 20190000,
// "2019.05.31" (upper) 20190599, "2019.12.31" 20199999, so that games dated only
// "2019.05" or "2019" lie inside them (the rule is in game_sql.cpp).
// Returns the bound's date key.
Parsed<int64_t> parse_date_bound(std::string_view text, bool upper);
// "1-0", "0-1", "1/2-1/2" (or "draw", "½-½"), "*" -> games.result codes 1, 3, 2, 0.
// The last day a game with this date_key may have been played: its unknown parts as 99
// ("1959" 19590000 -> 19599999, "1959.05" 19590500 -> 19590599); the SQL filters' rule.
inline int64_t last_possible_day(int64_t date_key) {
  return date_key + (date_key % 10000 == 0 ? 9999 : date_key % 100 == 0 ? 99 : 0);
}

Parsed<int> parse_result(std::string_view text);
Parsed<GameOrder> parse_order(std::string_view text);

// The SQL LIKE pattern (escape character '\') of a name pattern.
std::string like_pattern(const NamePattern& pattern);
// "NAME=VALUE" or "NAME" (a tag name: letters, digits, '_').
Parsed<TagCondition> parse_tag_condition(std::string_view text);

}  // namespace pgnbase::search
