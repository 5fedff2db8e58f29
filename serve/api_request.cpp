#include "serve/api_request.h"

#include <charconv>

#include "core/fen.h"
#include "core/san.h"
#include "search/pattern.h"
#include "tools/query_command.h"
#include "tools/query_filters.h"

namespace pgnbase::serve {

namespace {

const std::string kEmpty;

}  // namespace

const std::vector<std::string_view>& filter_parameter_names() {
  static const std::vector<std::string_view> names = {
      "fen", "play", "eco", "white", "black", "player", "as", "min-elo", "max-elo",
      "elo-of", "date-from", "date-to", "result", "event", "site", "time-control", "min-plies", "max-plies"};
  return names;
}

const std::vector<std::string_view>& pattern_parameter_names() {
  static const std::vector<std::string_view> names = {
      "material", "material-either-colour", "imbalance", "pieces", "pawns", "side-to-move", "ply-range", "for", "last"};
  return names;
}

ApiRequest::ApiRequest(const std::multimap<std::string, std::string>& params) {
  if (params.size() > kMaxParameters)
    throw RequestError{"too many parameters (" + std::to_string(params.size()) + ", at most " +
                       std::to_string(kMaxParameters) + ")"};
  for (const auto& [name, value] : params) {
    if (name.size() > 64 || value.size() > kMaxParameterBytes)
      throw RequestError{"parameter '" + name.substr(0, 64) + "' is longer than " + std::to_string(kMaxParameterBytes) +
                         " bytes"};
    values_[name] = value;
  }
}

const std::string& ApiRequest::text(std::string_view name) const {
  auto it = values_.find(name);
  return it == values_.end() ? kEmpty : it->second;
}

int64_t ApiRequest::integer(std::string_view name, int64_t fallback, int64_t min, int64_t max) const {
  const std::string& value = text(name);
  if (value.empty()) return fallback;
  int64_t n = 0;
  auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), n);
  if (error != std::errc() || end != value.data() + value.size())
    throw RequestError{"parameter " + std::string(name) + ": '" + value + "' is not a whole number"};
  if (n < min || n > max)
    throw RequestError{"parameter " + std::string(name) + ": " + value + " is outside " + std::to_string(min) + ".." +
                       std::to_string(max)};
  return n;
}

bool ApiRequest::flag(std::string_view name) const {
  const std::string& value = text(name);
  if (value.empty() || value == "false" || value == "0") return false;
  if (value == "true" || value == "1") return true;
  throw RequestError{"parameter " + std::string(name) + ": '" + value + "': expected true or false"};
}

void ApiRequest::check_names(const std::vector<std::string_view>& allowed) const {
  for (const auto& [name, value] : values_) {
    bool known = false;
    for (std::string_view a : allowed) known |= a == name;
    if (!known) throw RequestError{"unknown parameter '" + name + "'"};
  }
}

Board ApiRequest::position(std::vector<uint64_t>* path_keys, std::vector<std::string>* played_san) const {
  const std::string& fen = text("fen");
  Parsed<Board> parsed = parse_fen(fen.empty() ? std::string(kStartFen) : fen);
  if (!parsed) throw RequestError{"bad fen: " + parsed.error()};
  Board board = *parsed;
  if (path_keys) path_keys->push_back(board.key());
  const std::string& line = text("play");
  size_t start = 0;
  while (start < line.size()) {
    size_t comma = line.find(',', start);
    if (comma == std::string::npos) comma = line.size();
    const std::string_view token = std::string_view(line).substr(start, comma - start);
    start = comma + 1;
    if (token.empty()) continue;
    Move m;
    const SanError error = parse_move(board, token, english(), m);
    if (error != SanError::None || m.is_null())
      throw RequestError{"play: move '" + std::string(token) + "' is not legal in " + write_fen(board) +
                         (error != SanError::None ? std::string(" (") + describe(error) + ")" : std::string())};
    if (played_san) played_san->push_back(to_san(board, m));
    UndoInfo undo;
    play(board, m, undo);
    if (path_keys) path_keys->push_back(board.key());
  }
  return board;
}

search::GameFilter ApiRequest::filter(Use use) const {
  tools::FilterText t;
  t.eco = text("eco");
  t.white = text("white");
  t.black = text("black");
  if (!text("player").empty()) t.players.push_back(text("player"));
  t.as = text("as");
  if (has("elo-of")) t.elo_of = text("elo-of");
  t.event = text("event");
  t.site = text("site");
  t.result = text("result");
  t.date_from = text("date-from");
  t.date_to = text("date-to");
  t.time_control = text("time-control");
  if (use == Use::Search) {
    t.moves = text("moves");
    t.from_start_only = flag("from-start-only");
  }
  constexpr int64_t kAny = INT64_MAX;
  auto optional_integer = [&](std::string_view name) -> std::optional<int64_t> {
    if (!has(name)) return std::nullopt;
    return integer(name, 0, -kAny, kAny);
  };
  t.min_elo = optional_integer("min-elo");
  t.max_elo = optional_integer("max-elo");
  t.min_plies = optional_integer("min-plies");
  t.max_plies = optional_integer("max-plies");
  search::GameFilter filter;
  try {
    filter = tools::make_filter(t);
    if (use == Use::Search) {
      search::PatternText p;
      p.material = text("material");
      p.imbalance = text("imbalance");
      p.pieces = text("pieces");
      p.pawns = text("pawns");
      p.side_to_move = text("side-to-move");
      p.ply_range = text("ply-range");
      p.either_colour = flag("material-either-colour");
      p.last = flag("last");
      if (has("for")) p.streak = integer("for", 1, 1, 10000);
      filter.pattern = tools::parsed_or_usage_error(search::build_pattern(p));
    }
  } catch (const tools::UsageError& e) {
    throw RequestError{e.message};
  }
  return filter;
}

}  // namespace pgnbase::serve
