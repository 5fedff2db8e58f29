#include "query/player_report.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <unordered_map>

#include "store/game_query.h"
#include "store/read_snapshot.h"
#include "store/games_sql.h"

namespace pgnbase::query {

namespace {

void count(ResultCounts& c, int outcome) {
  ++c.games;
  switch (outcome) {
    case 1: ++c.wins; break;
    case 0: ++c.draws; break;
    case -1: ++c.losses; break;
    default: ++c.unknown; break;
  }
}

// The player's outcome of a games.result code (1 White won, 2 draw, 3 Black won).
int outcome_for(int result, bool as_white) {
  switch (result) {
    case 1: return as_white ? 1 : -1;
    case 2: return 0;
    case 3: return as_white ? -1 : 1;
    default: return 2;
  }
}

std::optional<int64_t> optional_int(const store::Statement& s, int column) {
  if (s.column_is_null(column)) return std::nullopt;
  return s.column_int64(column);
}

std::string text_or_empty(const store::Statement& s, int column) {
  return s.column_is_null(column) ? std::string() : std::string(s.column_text(column));
}

// Ids of the games where the pattern names one side, through the name filter.
std::vector<int64_t> game_ids(store::Database& db, const search::NamePattern& name, bool as_white) {
  search::GameFilter filter;
  (as_white ? filter.white : filter.black) = name;
  store::SqlQuery q = store::build_game_key_query(filter.sql_conditions(), false, store::GameKeyColumns{false, false, false});
  store::Statement s = db.prepare(q.sql);
  q.bind(s);
  std::vector<int64_t> ids;
  while (s.step()) ids.push_back(s.column_int64(0));
  return ids;
}

// Reads the games by id; names counts the games of each matched name.
std::vector<PlayerGame> read_games(store::Database& db, const search::NamePattern& name,
                                   std::unordered_map<std::string, int64_t>& names) {
  std::vector<PlayerGame> games;
  store::Statement s = db.prepare(store::sql::kReportGameById);
  for (bool as_white : {true, false}) {
    for (int64_t id : game_ids(db, name, as_white)) {
      s.reset();
      s.bind_int64(1, id);
      if (!s.step()) continue;
      PlayerGame g;
      g.id = id;
      g.as_white = as_white;
      // Columns: id, white_id, white, black_id, black, result, date_key, date, white_elo,
      // black_elo, eco, opening, plies, event.
      ++names[text_or_empty(s, as_white ? 2 : 4)];
      g.opponent = s.column_is_null(as_white ? 4 : 2) ? "?" : text_or_empty(s, as_white ? 4 : 2);
      g.outcome = outcome_for(int(s.column_int64(5)), as_white);
      g.date_key = optional_int(s, 6);
      g.elo = optional_int(s, as_white ? 8 : 9);
      g.opponent_elo = optional_int(s, as_white ? 9 : 8);
      g.eco = text_or_empty(s, 10);
      g.opening = text_or_empty(s, 11);
      g.plies = s.column_int64(12);
      g.event = text_or_empty(s, 13);
      games.push_back(std::move(g));
    }
  }
  // Oldest first (unknown dates last), then input order: the order ratings are read in.
  std::sort(games.begin(), games.end(), [](const PlayerGame& a, const PlayerGame& b) {
    const int64_t da = a.date_key.value_or(INT64_MAX), db = b.date_key.value_or(INT64_MAX);
    return da != db ? da < db : a.id < b.id;
  });
  return games;
}

template <typename Line>
void keep_top(std::vector<Line>& lines, size_t top) {
  if (top && lines.size() > top) lines.resize(top);
}

}  // namespace

std::string date_text(int64_t key) {
  char buffer[32];
  const long long year = key / 10000, month = key / 100 % 100, day = key % 100;
  if (month == 0) std::snprintf(buffer, sizeof buffer, "%04lld", year);
  else if (day == 0) std::snprintf(buffer, sizeof buffer, "%04lld.%02lld", year, month);
  else std::snprintf(buffer, sizeof buffer, "%04lld.%02lld.%02lld", year, month, day);
  return buffer;
}

PlayerReport build_player_report(store::Database& db, const PlayerReportOptions& options) {
  store::ReadSnapshot snapshot(db);
  std::unordered_map<std::string, int64_t> name_games;
  const std::vector<PlayerGame> games = read_games(db, options.name, name_games);
  PlayerReport r;
  std::vector<std::pair<std::string, int64_t>> names(name_games.begin(), name_games.end());
  std::sort(names.begin(), names.end(),
            [](const auto& a, const auto& b) { return a.second != b.second ? a.second > b.second : a.first < b.first; });
  for (auto& [name, n] : names) r.names.push_back(name);

  std::map<int64_t, PlayerReport::Year> years;  // unknown dates under INT64_MAX
  std::map<std::pair<bool, std::string>, PlayerReport::Opening> openings;
  std::map<std::pair<bool, std::string>, std::map<std::string, int64_t>> opening_names;
  std::map<std::string, ResultCounts> opponents;
  std::vector<PlayerGame> wins;
  for (const PlayerGame& g : games) {
    count(g.as_white ? r.as_white : r.as_black, g.outcome);
    count(r.total, g.outcome);
    if (g.date_key) {
      if (!r.first_date) r.first_date = g.date_key;
      r.last_date = g.date_key;
    }
    const int64_t year_key = g.date_key ? *g.date_key / 10000 : INT64_MAX;
    PlayerReport::Year& y = years[year_key];
    if (g.date_key) y.year = year_key;
    count(y.results, g.outcome);
    if (g.elo) {
      if (!y.first_elo) y.first_elo = g.elo;
      y.last_elo = g.elo;
      y.peak_elo = std::max(y.peak_elo.value_or(*g.elo), *g.elo);
    }
    const std::pair<bool, std::string> opening_key{!g.as_white, g.eco};  // White's first
    PlayerReport::Opening& o = openings[opening_key];
    o.as_white = g.as_white;
    o.eco = g.eco;
    count(o.results, g.outcome);
    if (!g.opening.empty()) ++opening_names[opening_key][g.opening];
    count(opponents[g.opponent], g.outcome);
    if (g.outcome == 1) wins.push_back(g);
  }
  for (auto& [key, y] : years) r.years.push_back(y);
  for (auto& [key, o] : openings) {
    int64_t best = 0;
    for (const auto& [name, n] : opening_names[key])
      if (n > best) best = n, o.name = name;
    r.openings.push_back(std::move(o));
  }
  std::stable_sort(r.openings.begin(), r.openings.end(), [](const auto& a, const auto& b) {
    return a.results.games > b.results.games;
  });
  keep_top(r.openings, options.top);
  for (auto& [name, results] : opponents) r.opponents.push_back({name, results});
  std::stable_sort(r.opponents.begin(), r.opponents.end(), [](const auto& a, const auto& b) {
    return a.results.games > b.results.games;
  });
  keep_top(r.opponents, options.top);
  std::stable_sort(wins.begin(), wins.end(), [](const PlayerGame& a, const PlayerGame& b) { return a.plies > b.plies; });
  r.longest_wins.assign(wins.begin(), wins.begin() + std::min(options.wins_shown, wins.size()));
  std::stable_sort(wins.begin(), wins.end(), [](const PlayerGame& a, const PlayerGame& b) { return a.plies < b.plies; });
  r.shortest_wins.assign(wins.begin(), wins.begin() + std::min(options.wins_shown, wins.size()));
  return r;
}

}  // namespace pgnbase::query
