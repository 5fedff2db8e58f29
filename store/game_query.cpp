#include "store/game_query.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>

#include "store/games_sql.h"

namespace pgnbase::store {

namespace {

constexpr std::string_view kGameColumns =
    "SELECT g.id, ev.name, " PGNBASE_WHOLE_SITE ", g.date, g.date_key, g.round, wh.name, bl.name, g.result_tag, g.result, "
    "g.white_elo, g.black_elo, g.eco, g.eco_source, op.name, g.time_control, g.plies, g.variant, g.start_fen, "
    "g.language, g.moves, g.tags, ga.annotations, g.source_id, g.game_number "
    "FROM games g LEFT JOIN game_annotations ga ON ga.id = g.id LEFT JOIN openings op ON op.id = g.opening_id "
    "LEFT JOIN names ev ON ev.id = g.event_id LEFT JOIN names si ON si.id = g.site_id "
    "LEFT JOIN names wh ON wh.id = g.white_id LEFT JOIN names bl ON bl.id = g.black_id";

// A game's date_key with its unknown parts as 99: "1959" 19599999, "1959.05" 19590599.
constexpr std::string_view kLastPossibleDay =
    "(g.date_key + CASE WHEN g.date_key % 10000 = 0 THEN 9999 WHEN g.date_key % 100 = 0 THEN 99 ELSE 0 END)";

// The ids of the names holding every word pattern, from the name_words index: one
// look-up per pattern word, intersected; never a scan of the games.
std::string names_with_words(const std::vector<std::string>& globs, SqlQuery& q) {
  std::string sql;
  for (const std::string& glob : globs) {
    if (!sql.empty()) sql += " INTERSECT ";
    const bool wildcard = glob.find_first_of("*?") != std::string::npos;
    sql += "SELECT name_id FROM name_words WHERE word " + std::string(wildcard ? "GLOB " : "= ") + q.add(glob);
  }
  return sql;
}

std::string id_set(const std::vector<int64_t>& ids, SqlQuery& q) {
  return "(SELECT value FROM json_each(" + q.add(json_id_list(ids)) + "))";
}

std::string name_condition(std::string_view column, const NameIds& names, SqlQuery& q) {
  std::string term = std::string(column) + " IN " + id_set(names.ids, q);
  if (names.or_absent) term = "(" + term + " OR " + std::string(column) + " IS NULL)";
  return term;
}

// For a pattern of ASCII letters and digits then '*' alone, the bounds [low, high) that
// hold exactly the values it matches under NOCASE: the letters folded to lower case, and
// high the same but its last character one higher (never an upper-case letter, which
// NOCASE would fold back into the range).
std::optional<std::pair<std::string, std::string>> prefix_range(std::string_view pattern) {
  const size_t star = pattern.find('*');
  if (star == 0 || star == std::string_view::npos || pattern.find_first_not_of('*', star) != std::string_view::npos)
    return std::nullopt;
  std::string low(pattern.substr(0, star));
  for (char& c : low) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) return std::nullopt;
  }
  std::string high = low;
  ++high.back();
  return std::pair{std::move(low), std::move(high)};
}

// A site filter's term: an index-free test of site_id (and site_suffix) per game, as the
// other name filters are when no index on their column exists. The suffix is compared
// first (cheap, and rarely equal) and without allocating: NOCASE's and LIKE's
// case-insensitivity is ASCII's, which is the folding of a suffix of ASCII letters and digits.
std::string site_condition(const SiteIds& sites, SqlQuery& q) {
  std::vector<std::string> alternatives;
  if (!sites.names.ids.empty() || sites.names.or_absent) {
    std::string term = name_condition("g.site_id", sites.names, q);
    if (sites.whole_only) term = "(" + term + " AND g.site_suffix IS NULL)";
    alternatives.push_back(term);
  }
  for (const SiteSuffixMatch& m : sites.suffixes) {
    std::string test;
    if (m.exact) {
      test = "g.site_suffix = " + q.add(m.suffix);
    } else if (m.suffix.find_first_of("*?") == std::string::npos) {
      test = "g.site_suffix = " + q.add(m.suffix) + " COLLATE NOCASE";
    } else if (const auto range = prefix_range(m.suffix)) {
      // A word then '*' ("l8gc*"): a range, about a quarter cheaper per game than LIKE.
      test = "g.site_suffix >= " + q.add(range->first) + " COLLATE NOCASE AND g.site_suffix < " + q.add(range->second) +
             " COLLATE NOCASE";
    } else {
      std::string like = m.suffix;
      std::replace(like.begin(), like.end(), '*', '%');
      std::replace(like.begin(), like.end(), '?', '_');
      test = "g.site_suffix LIKE " + q.add(like);
    }
    alternatives.push_back("(" + test + " AND g.site_id IN " + id_set(m.prefix_ids, q) + ")");
  }
  if (alternatives.empty()) return "0";
  std::string term;
  for (const std::string& a : alternatives) term += (term.empty() ? "(" : " OR ") + a;
  return term + ")";
}

// Appends " WHERE a AND b ..." (or " AND a ..." when where_started) for the header filters.
void append_conditions(const GameConditions& f, SqlQuery& q, bool where_started) {
  std::vector<std::string> terms;
  if (f.eco_low) terms.push_back("g.eco >= " + q.add(*f.eco_low));
  if (f.eco_high_exclusive) terms.push_back("g.eco < " + q.add(*f.eco_high_exclusive));
  if (f.game_ids) terms.push_back("g.id IN " + id_set(*f.game_ids, q));
  if (f.white) terms.push_back(name_condition("g.white_id", *f.white, q));
  if (f.black) terms.push_back(name_condition("g.black_id", *f.black, q));
  if (f.player && f.opponent) {
    terms.push_back("((" + name_condition("g.white_id", *f.player, q) + " AND " + name_condition("g.black_id", *f.opponent, q) +
                    ") OR (" + name_condition("g.white_id", *f.opponent, q) + " AND " +
                    name_condition("g.black_id", *f.player, q) + "))");
  } else if (f.player) {
    terms.push_back("(" + name_condition("g.white_id", *f.player, q) + " OR " + name_condition("g.black_id", *f.player, q) + ")");
  }
  if (f.event) terms.push_back(name_condition("g.event_id", *f.event, q));
  if (f.site) terms.push_back(site_condition(*f.site, q));
  if (f.min_elo || f.max_elo) {
    // One player's rating in range; both players' unless --elo-of either.
    auto in_range = [&](const char* column) {
      std::string term;
      if (f.min_elo) term = std::string(column) + " >= " + q.add(*f.min_elo);
      if (f.max_elo) term += (term.empty() ? "" : " AND ") + std::string(column) + " <= " + q.add(*f.max_elo);
      return term;
    };
    terms.push_back(f.elo_either ? "((" + in_range("g.white_elo") + ") OR (" + in_range("g.black_elo") + "))"
                                 : in_range("g.white_elo") + " AND " + in_range("g.black_elo"));
  }
  // A game matches a date range when every day it may have been played lies inside: its
  // date_key (unknown parts 00) is its first possible day, kLastPossibleDay its last.
  // The plain date_key <= bound lets the date index answer the range.
  if (f.date_from_key) terms.push_back("g.date_key >= " + q.add(*f.date_from_key));
  if (f.date_to_key) {
    std::string p = q.add(*f.date_to_key);
    terms.push_back("g.date_key <= " + p + " AND " + std::string(kLastPossibleDay) + " <= " + p);
  }
  if (f.result) terms.push_back("g.result = " + q.add(int64_t(*f.result)));
  if (f.min_plies) terms.push_back("g.plies >= " + q.add(*f.min_plies));
  if (f.max_plies) terms.push_back("g.plies <= " + q.add(*f.max_plies));
  for (size_t i = 0; i < terms.size(); ++i) {
    q.sql += (i == 0 && !where_started) ? " WHERE " : " AND ";
    q.sql += terms[i];
  }
}

}  // namespace

std::string SqlQuery::add(int64_t value) {
  parameters_.emplace_back(value);
  return "?" + std::to_string(first_placeholder_ + int(parameters_.size()) - 1);
}

std::string SqlQuery::add(std::string value) {
  parameters_.emplace_back(std::move(value));
  return "?" + std::to_string(first_placeholder_ + int(parameters_.size()) - 1);
}

void SqlQuery::bind(Statement& statement) const {
  int index = first_placeholder_;
  for (const auto& p : parameters_) {
    if (const int64_t* n = std::get_if<int64_t>(&p)) statement.bind_int64(index, *n);
    else statement.bind_text(index, std::get<std::string>(p));
    ++index;
  }
}

SqlQuery build_game_query(const GameConditions& filter, GameOrder order) {
  SqlQuery q;
  q.sql = kGameColumns;
  append_conditions(filter, q, false);
  switch (order) {
    case GameOrder::Id: q.sql += " ORDER BY g.id"; break;
    case GameOrder::Date: q.sql += " ORDER BY g.date_key IS NULL, g.date_key, g.id"; break;
    case GameOrder::Elo:
      q.sql += " ORDER BY coalesce(g.white_elo, g.black_elo, 0) + coalesce(g.black_elo, g.white_elo, 0) DESC, g.id";
      break;
  }
  return q;
}

SqlQuery build_games_after_id_query() {
  SqlQuery q(2);
  q.sql = std::string(kGameColumns) + " WHERE g.id > ?1 ORDER BY g.id";
  return q;
}

SqlQuery build_game_by_id_query(const GameConditions& filter) {
  SqlQuery q(2);
  q.sql = kGameColumns;
  q.sql += " WHERE g.id = ?1";
  append_conditions(filter, q, true);
  return q;
}

SqlQuery build_game_count_query(const GameConditions& filter) {
  SqlQuery q;
  q.sql = "SELECT count(*) FROM games g";
  append_conditions(filter, q, false);
  return q;
}

SqlQuery build_game_key_query(const GameConditions& filter, bool by_id, GameKeyColumns columns) {
  SqlQuery q(by_id ? 2 : 1);
  q.sql = "SELECT g.id, ";
  q.sql += columns.elo ? "g.white_elo, g.black_elo, " : "NULL, NULL, ";
  q.sql += columns.date ? "g.date_key, " : "NULL, ";
  q.sql += columns.time_control ? "g.time_control FROM games g" : "NULL FROM games g";
  if (by_id) q.sql += " WHERE g.id = ?1";
  append_conditions(filter, q, by_id);
  return q;
}

SqlQuery build_game_scan_query(const GameConditions& filter, ScanColumns columns) {
  // kGameColumns' order; what is not asked for is NULL, and its join left out (the name
  // joins are most of a scan's time).
  SqlQuery q;
  q.sql = "SELECT g.id, ";
  q.sql += columns.names ? "ev.name, " PGNBASE_WHOLE_SITE ", " : "NULL, NULL, ";
  q.sql += "g.date, g.date_key, g.round, ";
  q.sql += columns.names ? "wh.name, bl.name, " : "NULL, NULL, ";
  q.sql += "g.result_tag, g.result, g.white_elo, g.black_elo, g.eco, g.eco_source, ";
  q.sql += columns.opening ? "op.name, " : "NULL, ";
  q.sql += "g.time_control, g.plies, g.variant, g.start_fen, g.language, NULL, g.tags, ";
  q.sql += columns.annotations ? "ga.annotations, " : "NULL, ";
  q.sql += "g.source_id, g.game_number FROM games g";
  if (columns.names)
    q.sql += " LEFT JOIN names ev ON ev.id = g.event_id LEFT JOIN names si ON si.id = g.site_id "
             "LEFT JOIN names wh ON wh.id = g.white_id LEFT JOIN names bl ON bl.id = g.black_id";
  if (columns.opening) q.sql += " LEFT JOIN openings op ON op.id = g.opening_id";
  if (columns.annotations) q.sql += " LEFT JOIN game_annotations ga ON ga.id = g.id";
  append_conditions(filter, q, false);
  q.sql += " ORDER BY g.id";
  return q;
}

SqlQuery build_name_candidates_query(const std::vector<std::vector<std::string>>& word_sets) {
  SqlQuery q;
  std::string ids;
  for (const std::vector<std::string>& words : word_sets) {
    if (words.empty()) continue;
    if (!ids.empty()) ids += " UNION ";
    ids += names_with_words(words, q);
  }
  q.sql = "SELECT id, name FROM names WHERE id IN (" + (ids.empty() ? std::string("SELECT NULL WHERE 0") : ids) + ")";
  return q;
}

std::string json_id_list(const std::vector<int64_t>& ids) {
  std::string out = "[";
  for (int64_t id : ids) {
    if (out.size() > 1) out += ',';
    out += std::to_string(id);
  }
  out += ']';
  return out;
}

}  // namespace pgnbase::store
