// GET /api/search: one page of the games a GameSearch selects, the page bounded, whether
// more follow, and how many games match in all where that is cheap to count.
#include <optional>
#include <string>

#include "search/game_search.h"
#include "query/json_object.h"
#include "serve/api.h"
#include "store/read_snapshot.h"

namespace pgnbase::serve {

namespace {

using query::JsonObject;

constexpr int64_t kMaxPageSize = 100;
constexpr int64_t kMaxOffset = 1000000;

void append_optional_text(JsonObject& o, std::string_view name, const std::optional<std::string_view>& value) {
  if (value) o.text(name, *value);
  else o.key(name) += "null";
}

void append_row(search::GameSearch& search, std::string& out) {
  const store::GameRow& row = search.row();
  JsonObject o(out);
  o.number("id", row.id);
  append_optional_text(o, "white", row.white);
  o.number("whiteElo", row.white_elo);
  append_optional_text(o, "black", row.black);
  o.number("blackElo", row.black_elo);
  o.text("result", store::result_token(row.result));
  append_optional_text(o, "date", row.date);
  append_optional_text(o, "eco", row.eco);
  append_optional_text(o, "opening", row.opening);
  append_optional_text(o, "event", row.event);
  append_optional_text(o, "site", row.site);
  append_optional_text(o, "timeControl", row.time_control);
  o.number("plies", row.plies);
  const std::span<const uint32_t> plies = search.plies();
  o.number("atPly", plies.empty() ? std::nullopt : std::optional<int64_t>(plies.front()));
  const std::optional<uint32_t> match = search.pattern_ply();
  o.number("matchPly", match ? std::optional<int64_t>(*match) : std::nullopt);
}

}  // namespace

std::string search_json(store::Database& db, const ApiRequest& request, uint64_t count_max_games) {
  std::vector<std::string_view> allowed = filter_parameter_names();
  for (std::string_view name : pattern_parameter_names()) allowed.push_back(name);
  for (std::string_view name : {"moves", "from-start-only", "order", "desc", "offset", "limit"}) allowed.push_back(name);
  request.check_names(allowed);
  search::SearchOptions options;
  options.filter = request.filter(ApiRequest::Use::Search);
  if (request.has("fen") || request.has("play")) {
    if (options.filter.position) throw RequestError{"fen and moves both name a position: give one"};
    options.filter.position = request.position();
  }
  if (request.has("order")) {
    Parsed<search::GameOrder> order = search::parse_order(request.text("order"));
    if (!order) throw RequestError{"order: " + order.error()};
    options.order = *order;
  }
  options.descending = request.flag("desc");
  options.offset = request.integer("offset", 0, 0, kMaxOffset);
  const int64_t limit = request.integer("limit", 25, 1, kMaxPageSize);
  // One game past the page: whether another page follows, counted or not.
  options.limit = limit + 1;
  // One connection per request: the pattern scan and counting run on this thread, inside
  // the request's deadline.
  options.count_threads = 1;

  store::ReadSnapshot snapshot(db);
  std::string games = "[";
  int64_t shown = 0;
  bool more = false;
  search::GameSearch search(db, options);
  while (search.next()) {
    if (shown == limit) {
      more = true;
      break;
    }
    if (shown++ > 0) games += ',';
    append_row(search, games);
  }
  games += ']';
  // The total where counting it is cheap: counting every game of a common position on
  // 1.48M games replayed 600,000 of them for each page, and a pattern's scan of them all
  // ran past the request's bound of 10 s.
  const std::optional<int64_t> total = !more && (shown > 0 || options.offset == 0)
                                           ? options.offset + shown  // the page holds the last match
                                           : search.count_all_examining_at_most(count_max_games);
  std::string out;
  {
    JsonObject top(out);
    top.number("total", total).number("offset", options.offset).number("limit", limit);
    top.key("more") += more ? "true" : "false";
    top.key("games") += games;
  }
  return out;
}

}  // namespace pgnbase::serve
