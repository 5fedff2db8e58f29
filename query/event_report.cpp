#include "query/event_report.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <stdexcept>

#include "query/csv_writer.h"
#include "query/text_table.h"
#include "search/game_search.h"
#include "store/read_snapshot.h"

namespace pgnbase::query {

namespace {

std::string points_text(double points) {
  const int64_t whole = int64_t(points);
  const bool half = points - double(whole) > 0.25;
  if (whole == 0 && half) return "\u00BD";
  return std::to_string(whole) + (half ? "\u00BD" : "");
}

// The player's result of one game: '1', '½', '0', or '*' without a result.
std::string result_mark(int result, bool as_white) {
  switch (result) {
    case 1: return as_white ? "1" : "0";
    case 2: return "\u00BD";
    case 3: return as_white ? "0" : "1";
    default: return "*";
  }
}

size_t player_index(std::map<std::string, size_t>& index, std::vector<EventPlayer>& players, std::string_view name) {
  auto [it, added] = index.try_emplace(std::string(name), players.size());
  if (added) {
    EventPlayer player;
    player.name = std::string(name);
    players.push_back(std::move(player));
  }
  return it->second;
}

void score(EventPlayer& p, int result, bool as_white, std::optional<int64_t> opponent_elo, int64_t& opponent_sum) {
  ++p.games;
  const bool win = (result == 1 && as_white) || (result == 3 && !as_white);
  const bool loss = (result == 3 && as_white) || (result == 1 && !as_white);
  if (win) ++p.wins, p.points += 1;
  if (loss) ++p.losses;
  if (result == 2) ++p.draws, p.points += 0.5;
  if (opponent_elo && result != 0) {
    ++p.rated_games;
    opponent_sum += *opponent_elo + (win ? 400 : loss ? -400 : 0);
  }
}

}  // namespace

EventReport build_event_report(store::Database& db, const search::NamePattern& event) {
  store::ReadSnapshot snapshot(db);
  search::SearchOptions options;
  options.filter.event = event;
  search::GameSearch games(db, options);
  EventReport report;
  std::set<std::string> names;
  std::map<std::string, size_t> index;
  struct Rated {
    std::optional<int64_t> white, black;
  };
  std::vector<Rated> ratings;
  while (games.next()) {
    const store::GameRow& row = games.row();
    const std::string name(row.event.value_or("?"));
    names.insert(name);
    if (names.size() > 1) continue;  // reported below
    report.event = name;
    EventGame g;
    g.white = player_index(index, report.players, row.white.value_or("?"));
    g.black = player_index(index, report.players, row.black.value_or("?"));
    g.result = row.result;
    g.round = std::string(row.round.value_or(""));
    report.games.push_back(std::move(g));
    ratings.push_back({row.white_elo, row.black_elo});
  }
  if (names.size() > 1) {
    std::string list;
    for (const std::string& n : names) list += (list.empty() ? "" : "; ") + n;
    throw std::runtime_error(std::to_string(names.size()) + " events match: " + list + " (give one as =NAME)");
  }
  std::vector<int64_t> opponent_sums(report.players.size(), 0);
  for (size_t i = 0; i < report.games.size(); ++i) {
    const EventGame& g = report.games[i];
    for (auto [who, elo] : {std::pair{g.white, ratings[i].white}, std::pair{g.black, ratings[i].black}})
      if (elo) report.players[who].elo = std::max(report.players[who].elo.value_or(*elo), *elo);
    score(report.players[g.white], g.result, true, ratings[i].black, opponent_sums[g.white]);
    score(report.players[g.black], g.result, false, ratings[i].white, opponent_sums[g.black]);
  }
  for (size_t i = 0; i < report.players.size(); ++i) {
    EventPlayer& p = report.players[i];
    if (p.rated_games) p.performance = (opponent_sums[i] * 2 + p.rated_games) / (2 * p.rated_games);  // rounded
  }
  // Rank, and renumber the games' players by rank.
  std::vector<size_t> order(report.players.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const EventPlayer &x = report.players[a], &y = report.players[b];
    if (x.points != y.points) return x.points > y.points;
    if (x.performance.value_or(0) != y.performance.value_or(0)) return x.performance.value_or(0) > y.performance.value_or(0);
    return x.name < y.name;
  });
  std::vector<size_t> rank_of(order.size());
  std::vector<EventPlayer> ranked;
  for (size_t r = 0; r < order.size(); ++r) {
    rank_of[order[r]] = r;
    ranked.push_back(std::move(report.players[order[r]]));
  }
  report.players = std::move(ranked);
  for (EventGame& g : report.games) g.white = rank_of[g.white], g.black = rank_of[g.black];
  return report;
}

void print_event_report(const EventReport& r, OutputFormat format, io::OutputFile& out) {
  const size_t n = r.players.size();
  auto optional_number = [](const std::optional<int64_t>& v) { return v ? std::to_string(*v) : std::string(); };
  if (format == OutputFormat::Csv) {
    CsvWriter csv({"rank", "player", "elo", "points", "games", "wins", "draws", "losses", "performance"}, out);
    for (size_t i = 0; i < n; ++i) {
      const EventPlayer& p = r.players[i];
      char points[16];
      std::snprintf(points, sizeof points, "%.1f", p.points);
      csv.add_row({std::to_string(i + 1), p.name, optional_number(p.elo), points, std::to_string(p.games),
                   std::to_string(p.wins), std::to_string(p.draws), std::to_string(p.losses), optional_number(p.performance)});
    }
    return;
  }
  out.buffer() += "event  " + r.event + "\n" + "games  " + std::to_string(r.games.size()) + ", players " +
                  std::to_string(n) + "\n\n";
  // Crosstable cells: by opponent for a small event, else by round.
  const bool by_opponent = n <= 24;
  std::vector<std::string> rounds;
  if (!by_opponent) {
    std::set<std::pair<size_t, std::string>> seen;  // rounds ordered by their number's length, then text
    for (const EventGame& g : r.games) seen.insert({g.round.size(), g.round});
    for (const auto& [length, round] : seen) rounds.push_back(round);
    if (rounds.size() > 30) rounds.clear();  // no usable rounds: standings alone
  }
  std::vector<TextTable::Column> columns = {{"#", true, 4}, {"player", false, 30}, {"Elo", true, 5}};
  const size_t fixed = columns.size();
  if (by_opponent) {
    for (size_t i = 0; i < n; ++i) columns.push_back({std::to_string(i + 1), false, 8});
  } else {
    for (const std::string& round : rounds) columns.push_back({"r" + round, false, 8});
  }
  for (const char* header : {"points", "games", "perf"}) columns.push_back({header, true, 7});
  TextTable table(columns, out);
  for (size_t i = 0; i < n; ++i) {
    const EventPlayer& p = r.players[i];
    std::vector<std::string> cells = {std::to_string(i + 1), p.name, optional_number(p.elo)};
    cells.resize(columns.size() - 3);
    if (by_opponent) cells[fixed + i] = "x";
    for (const EventGame& g : r.games) {
      if (g.white != i && g.black != i) continue;
      const bool white = g.white == i;
      const size_t opponent = white ? g.black : g.white;
      if (by_opponent) {
        cells[fixed + opponent] += result_mark(g.result, white);
      } else {
        const auto at = std::find(rounds.begin(), rounds.end(), g.round);
        if (at == rounds.end()) continue;
        const std::string mark = result_mark(g.result, white);
        std::string& cell = cells[fixed + size_t(at - rounds.begin())];
        cell += (mark == "1" ? "+" : mark == "0" ? "-" : mark == "*" ? "*" : "=") + std::to_string(opponent + 1) +
                (white ? "w" : "b");
      }
    }
    cells.insert(cells.end(), {points_text(p.points), std::to_string(p.games), optional_number(p.performance)});
    table.add_row(std::move(cells));
  }
  table.finish();
}

}  // namespace pgnbase::query
