// GET /api/player and /api/stats: the JSON of `pgn-query player --json` and `stats
// --json`, written by the same functions into memory; the player's also carries the
// rating of each of the player's games, for the page's plot.
#include "io/output_file.h"
#include "query/database_report.h"
#include "search/game_search.h"
#include "query/json_object.h"
#include "search/name_match.h"
#include "query/player_report.h"
#include "serve/api.h"
#include "store/read_snapshot.h"

namespace pgnbase::serve {

namespace {

constexpr int64_t kMaxRatingPoints = 5000;

// [[date_key, rating], ...] of the player's rated, dated games, oldest first, at most
// kMaxRatingPoints (evenly spread over the games when there are more).
std::string rating_points(store::Database& db, const search::NamePattern& name) {
  search::SearchOptions options;
  options.filter.player = name;
  options.order = store::GameOrder::Date;
  search::GameSearch search(db, options);
  std::vector<std::pair<int64_t, int64_t>> points;
  while (search.next()) {
    const store::GameRow& row = search.row();
    if (!row.date_key) continue;
    const bool as_white = row.white && search::name_matches(name, *row.white);
    const std::optional<int64_t> elo = as_white ? row.white_elo : row.black_elo;
    if (elo) points.emplace_back(*row.date_key, *elo);
  }
  std::string out = "[";
  const size_t step = points.size() > size_t(kMaxRatingPoints) ? (points.size() + kMaxRatingPoints - 1) / kMaxRatingPoints : 1;
  for (size_t i = 0; i < points.size(); i += step) {
    if (out.size() > 1) out += ',';
    out += '[' + std::to_string(points[i].first) + ',' + std::to_string(points[i].second) + ']';
  }
  out += ']';
  return out;
}

}  // namespace

std::string player_json(store::Database& db, const ApiRequest& request) {
  request.check_names({"name", "top"});
  if (!request.has("name")) throw RequestError{"missing name"};
  query::PlayerReportOptions options;
  options.name = search::NamePattern{request.text("name")};
  options.top = size_t(request.integer("top", 10, 0, 100));
  const query::PlayerReport report = query::build_player_report(db, options);
  if (report.total.games == 0) throw NotFound{"no games of '" + options.name.text + "'"};
  std::string report_json;
  io::OutputFile out(&report_json);
  query::print_player_report(report, query::OutputFormat::Json, false, out);
  out.close();
  while (!report_json.empty() && (report_json.back() == '\n' || report_json.back() == '}')) {
    const bool brace = report_json.back() == '}';
    report_json.pop_back();
    if (brace) break;
  }
  store::ReadSnapshot snapshot(db);  // build_player_report took its own
  report_json += ",\"ratings\":" + rating_points(db, options.name) + "}";
  return report_json;
}

std::string stats_json(store::Database& db) {
  std::string json;  // print_stats takes its own snapshot
  io::OutputFile out(&json);
  query::print_stats(db, query::StatsOptions{query::OutputFormat::Json, false}, out);
  out.close();
  return json;
}

}  // namespace pgnbase::serve
