// GET /api/explorer in the shape of the lichess opening explorer (lila-openingexplorer's
// src/api/response.rs), answered by search::explore() with the filters of `explore`.
#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "search/explorer.h"
#include "query/json_object.h"
#include "serve/api.h"
#include "serve/facets_cache.h"
#include "store/read_snapshot.h"

namespace pgnbase::serve {

namespace {

using query::JsonObject;

// lichess's rating buckets: a bucket runs from its value to the next one's.
constexpr int kRatingBuckets[] = {0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500};

// A comma-separated list's items ("" items skipped).
std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> items;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    if (comma > start) items.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return items;
}

// lichess's ratings=1600,1800 as the band of both players' ratings: from the lowest
// bucket to below the bucket after the highest (2500 has no top).
void apply_rating_buckets(const std::string& text, search::GameFilter& filter) {
  int low = INT32_MAX, high = -1;
  for (const std::string& item : split_list(text)) {
    int index = -1;
    for (int i = 0; i < int(std::size(kRatingBuckets)); ++i)
      if (std::to_string(kRatingBuckets[i]) == item) index = i;
    if (index < 0) throw RequestError{"ratings: '" + item + "' is not a bucket (0,1000,1200,...,2200,2500)"};
    low = std::min(low, index);
    high = std::max(high, index);
  }
  if (high < 0) return;
  if (low > 0) filter.min_elo = std::max<int64_t>(filter.min_elo.value_or(0), kRatingBuckets[low]);
  if (high + 1 < int(std::size(kRatingBuckets))) filter.max_elo = kRatingBuckets[high + 1] - 1;
}

// lichess's since/until ("2019" or "2019-05") as date bounds.
void apply_month(const std::string& text, bool upper, search::GameFilter& filter) {
  if (text.empty()) return;
  std::string date = text;
  std::replace(date.begin(), date.end(), '-', '.');
  Parsed<int64_t> key = search::parse_date_bound(date, upper);
  if (!key) throw RequestError{std::string(upper ? "until" : "since") + ": " + key.error()};
  (upper ? filter.date_to_key : filter.date_from_key) = *key;
}

// Adds the answer for one more speed (speeds partition the games) into total.
void add_answer(search::ExplorerResult& total, search::ExplorerResult part, size_t top_games) {
  if (total.fen.empty()) {
    total = std::move(part);
    return;
  }
  total.games += part.games;
  total.ended_here += part.ended_here;
  for (search::ExplorerMove& m : part.moves) {
    auto same = std::find_if(total.moves.begin(), total.moves.end(),
                             [&](const search::ExplorerMove& t) { return t.uci == m.uci; });
    if (same == total.moves.end()) {
      total.moves.push_back(std::move(m));
      continue;
    }
    same->games += m.games;
    same->white_wins += m.white_wins;
    same->draws += m.draws;
    same->black_wins += m.black_wins;
    same->rated_games += m.rated_games;
    same->rating_sum += m.rating_sum;
  }
  std::stable_sort(total.moves.begin(), total.moves.end(),
                   [](const search::ExplorerMove& a, const search::ExplorerMove& b) { return a.games > b.games; });
  for (search::TopGame& g : part.top_games) total.top_games.push_back(std::move(g));
  std::stable_sort(total.top_games.begin(), total.top_games.end(), [](const search::TopGame& a, const search::TopGame& b) {
    return a.white_elo + a.black_elo > b.white_elo + b.black_elo;
  });
  if (total.top_games.size() > top_games) total.top_games.resize(top_games);
}

void append_opening(const search::OpeningName& opening, std::string& out) {
  if (opening.eco.empty() && opening.name.empty()) {
    out += "null";
    return;
  }
  JsonObject o(out);
  o.text("eco", opening.eco).text("name", opening.name);
}

const char* winner_of(std::string_view result) {
  return result == "1-0" ? "white" : result == "0-1" ? "black" : nullptr;
}

void append_player(std::string_view name, int elo, std::string& out) {
  JsonObject o(out);
  o.text("name", name).number("rating", elo ? std::optional<int64_t>(elo) : std::nullopt);
}

void append_top_game(const search::TopGame& g, std::string_view uci, std::string& out) {
  JsonObject o(out);
  if (uci.empty()) o.key("uci") += "null";
  else o.text("uci", uci);
  o.text("id", std::to_string(g.id));
  const char* winner = winner_of(g.result);
  if (winner) o.text("winner", winner);
  else o.key("winner") += "null";
  append_player(g.white, g.white_elo, o.key("white"));
  append_player(g.black, g.black_elo, o.key("black"));
  auto part = [&](size_t at, size_t length) -> std::optional<int64_t> {
    if (g.date.size() < at + length) return std::nullopt;
    int64_t n = 0;
    for (char c : g.date.substr(at, length)) {
      if (c < '0' || c > '9') return std::nullopt;
      n = n * 10 + (c - '0');
    }
    return n;
  };
  o.number("year", part(0, 4));
  std::optional<int64_t> month = part(5, 2);
  if (month) o.text("month", g.date.substr(0, 4) + "-" + g.date.substr(5, 2));
  else o.key("month") += "null";
  o.text("result", g.result).text("date", g.date);
}

// The answer with at most max_moves moves (the totals count them all).
std::string to_json(const search::ExplorerResult& r, size_t max_moves) {
  std::string out;
  JsonObject top(out);
  uint64_t white = 0, draws = 0, black = 0;
  for (const search::ExplorerMove& m : r.moves) {
    white += m.white_wins;
    draws += m.draws;
    black += m.black_wins;
  }
  top.number("white", int64_t(white)).number("draws", int64_t(draws)).number("black", int64_t(black));
  std::string& moves = top.key("moves");
  moves += '[';
  for (const search::ExplorerMove& m : r.moves) {
    if (max_moves-- == 0) break;
    if (moves.back() != '[') moves += ',';
    JsonObject o(moves);
    o.text("uci", m.uci).text("san", m.san);
    o.number("averageRating", m.rated_games ? std::optional<int64_t>(std::llround(m.average_rating())) : std::nullopt);
    o.number("white", int64_t(m.white_wins)).number("draws", int64_t(m.draws)).number("black", int64_t(m.black_wins));
    // lichess names the game when exactly one played the move; pgnbase can when it is a top game.
    const search::TopGame* only = nullptr;
    if (m.games == 1)
      for (const search::TopGame& g : r.top_games)
        if (g.san == m.san) only = &g;
    if (only) append_top_game(*only, m.uci, o.key("game"));
    else o.key("game") += "null";
    append_opening(m.opening, o.key("opening"));
    o.number("games", int64_t(m.games)).text("fen", m.fen);
  }
  moves += ']';
  std::string& games = top.key("topGames");
  games += '[';
  for (const search::TopGame& g : r.top_games) {
    if (games.back() != '[') games += ',';
    std::string_view uci;
    for (const search::ExplorerMove& m : r.moves)
      if (m.san == g.san) uci = m.uci;
    append_top_game(g, uci, games);
  }
  games += ']';
  top.key("recentGames") += "[]";
  append_opening(r.opening, top.key("opening"));
  top.text("fen", r.fen).number("games", int64_t(r.games)).number("endedHere", int64_t(r.ended_here));
  return out;
}

}  // namespace

std::string explorer_json(store::Database& db, const ApiRequest& request) {
  std::vector<std::string_view> allowed = filter_parameter_names();
  for (std::string_view lichess : {"moves", "speeds", "ratings", "since", "until", "topGames", "color", "recentGames"})
    allowed.push_back(lichess);
  request.check_names(allowed);
  if (request.has("moves") && request.text("moves").find_first_not_of("0123456789") != std::string::npos)
    throw RequestError{"moves: the explorer takes the position as fen and play (moves is lichess's count of moves)"};
  search::ExplorerOptions options;
  options.filter = request.filter(ApiRequest::Use::Explorer);
  options.filter.position = request.position(&options.path_keys);
  options.top_games = size_t(request.integer("topGames", 5, 0, 15));
  if (request.has("color")) {
    if (!request.has("player")) throw RequestError{"color needs player"};
    if (request.has("as")) throw RequestError{"give color or as, not both"};
    const std::string& color = request.text("color");
    if (color != "white" && color != "black") throw RequestError{"color: '" + color + "': expected white or black"};
    std::optional<search::NamePattern>& side = color == "white" ? options.filter.white : options.filter.black;
    if (side) throw RequestError{"player with color " + color + " and " + color + " name the same player: give one"};
    side = std::exchange(options.filter.player, std::nullopt);
  }
  apply_rating_buckets(request.text("ratings"), options.filter);
  if (options.filter.min_elo && options.filter.max_elo && *options.filter.min_elo > *options.filter.max_elo)
    throw RequestError{"ratings: the band is below min-elo"};
  apply_month(request.text("since"), false, options.filter);
  apply_month(request.text("until"), true, options.filter);
  std::vector<std::string> speeds = split_list(request.text("speeds"));
  if (!speeds.empty() && request.has("time-control")) throw RequestError{"give speeds or time-control, not both"};
  if (speeds.size() > 7) throw RequestError{"speeds: at most 7"};
  const size_t max_moves = size_t(request.integer("moves", 100, 0, 500));

  store::ReadSnapshot snapshot(db);
  const std::shared_ptr<const store::GameFacets> facets = shared_facets(db);
  options.facets = facets.get();
  search::ExplorerResult result;
  if (speeds.empty()) {
    result = search::explore(db, options);
  } else {
    for (std::string& speed : speeds) {
      std::transform(speed.begin(), speed.end(), speed.begin(), [](char c) { return char(std::tolower(c)); });
      Parsed<search::TimeControlMatcher> matcher = search::TimeControlMatcher::parse(speed);
      if (!matcher) throw RequestError{"speeds: '" + speed + "': " + matcher.error()};
      options.filter.time_control = *matcher;
      add_answer(result, search::explore(db, options), options.top_games);
    }
  }
  return to_json(result, max_moves);
}

}  // namespace pgnbase::serve
