// The explorer's two outputs: an aligned table (the position, its opening, one row per
// move, then the top games) and one JSON object.
#include <cstdio>

#include "query/explorer_output.h"
#include "query/json_writer.h"
#include "query/text_table.h"

namespace pgnbase::query {

namespace {

std::string percent(uint64_t part, uint64_t whole) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "%.1f%%", whole ? 100.0 * double(part) / double(whole) : 0.0);
  return buffer;
}

std::string describe(const search::OpeningName& o) { return o.eco.empty() ? std::string() : o.eco + " " + o.name; }

// The year of a stored date ("1959.??.??" -> "1959"), "?" when unknown.
std::string year_of(const std::string& date) {
  if (date.size() < 4) return "?";
  for (int i = 0; i < 4; ++i)
    if (date[size_t(i)] < '0' || date[size_t(i)] > '9') return "?";
  return std::to_string(std::stoi(date.substr(0, 4)));
}

void print_top_games(const search::ExplorerResult& r, io::OutputFile& out) {
  out.buffer() += "\ntop games (highest rated first)\n";
  TextTable table({{"id", true, 10}, {"white", false, 24}, {"elo", true, 5}, {"black", false, 24}, {"elo", true, 5},
                   {"result", false, 7}, {"year", false, 4}, {"move", false, 8}},
                  out);
  for (const search::TopGame& g : r.top_games)
    table.add_row({std::to_string(g.id), g.white, std::to_string(g.white_elo), g.black, std::to_string(g.black_elo),
                   g.result, year_of(g.date), g.san.empty() ? "-" : g.san});
  table.finish();
}

}  // namespace

void print_explorer_table(const search::ExplorerResult& r, io::OutputFile& out) {
  std::string& text = out.buffer();
  text += "position  " + r.fen + "\n";
  if (!r.opening.eco.empty()) text += "opening   " + describe(r.opening) + "\n";
  text += "games     " + std::to_string(r.games);
  if (r.ended_here) text += " (" + std::to_string(r.ended_here) + " end here)";
  text += "\n\n";
  bool any_unknown = false;
  for (const search::ExplorerMove& m : r.moves) any_unknown |= m.unknown_results() > 0;
  std::vector<TextTable::Column> columns = {{"move", false, 12}, {"games", true, 12}, {"share", true, 8},
                                            {"white", true, 8},  {"draw", true, 8},   {"black", true, 8}};
  if (any_unknown) columns.push_back({"unknown", true, 8});
  if (r.ratings) columns.push_back({"avg elo", true, 8});
  columns.push_back({"opening (when it changes)", false, 60});
  TextTable table(columns, out);
  uint64_t with_moves = 0;
  for (const search::ExplorerMove& m : r.moves) with_moves += m.games;
  for (const search::ExplorerMove& m : r.moves) {
    std::vector<std::string> cells = {m.san, std::to_string(m.games), percent(m.games, with_moves),
                                      percent(m.white_wins, m.games), percent(m.draws, m.games),
                                      percent(m.black_wins, m.games)};
    if (any_unknown) cells.push_back(percent(m.unknown_results(), m.games));
    if (r.ratings) cells.push_back(m.rated_games ? std::to_string(int64_t(m.average_rating() + 0.5)) : "-");
    cells.push_back(m.opening.name != r.opening.name || m.opening.eco != r.opening.eco ? describe(m.opening) : "");
    table.add_row(std::move(cells));
  }
  table.finish();
  if (!r.top_games.empty()) print_top_games(r, out);
}

void print_explorer_json(const search::ExplorerResult& r, io::OutputFile& out) {
  std::string& text = out.buffer();
  char buffer[64];
  auto fraction = [&](uint64_t part, uint64_t whole) {
    std::snprintf(buffer, sizeof buffer, "%.4f", whole ? double(part) / double(whole) : 0.0);
    return std::string(buffer);
  };
  auto opening = [&](const search::OpeningName& o) {
    if (o.eco.empty()) {
      text += "null";
      return;
    }
    text += "{\"eco\":";
    append_json_string(o.eco, text);
    text += ",\"name\":";
    append_json_string(o.name, text);
    text += '}';
  };
  text += "{\"fen\":";
  append_json_string(r.fen, text);
  text += ",\"opening\":";
  opening(r.opening);
  text += ",\"games\":" + std::to_string(r.games) + ",\"ended_here\":" + std::to_string(r.ended_here) + ",\"moves\":[";
  for (size_t i = 0; i < r.moves.size(); ++i) {
    const search::ExplorerMove& m = r.moves[i];
    if (i) text += ',';
    text += "{\"san\":";
    append_json_string(m.san, text);
    text += ",\"uci\":";
    append_json_string(m.uci, text);
    text += ",\"fen\":";
    append_json_string(m.fen, text);
    text += ",\"opening\":";
    opening(m.opening);
    text += ",\"games\":" + std::to_string(m.games) + ",\"white_wins\":" + std::to_string(m.white_wins) +
            ",\"draws\":" + std::to_string(m.draws) + ",\"black_wins\":" + std::to_string(m.black_wins) +
            ",\"unknown\":" + std::to_string(m.unknown_results()) + ",\"white\":" + fraction(m.white_wins, m.games) +
            ",\"draw\":" + fraction(m.draws, m.games) + ",\"black\":" + fraction(m.black_wins, m.games);
    if (r.ratings) {
      text += ",\"average_elo\":";
      if (m.rated_games) {
        std::snprintf(buffer, sizeof buffer, "%.1f", m.average_rating());
        text += buffer;
      } else {
        text += "null";
      }
      text += ",\"rated_games\":" + std::to_string(m.rated_games);
    }
    text += '}';
  }
  text += "],\"top_games\":[";
  for (size_t i = 0; i < r.top_games.size(); ++i) {
    const search::TopGame& g = r.top_games[i];
    if (i) text += ',';
    text += "{\"id\":" + std::to_string(g.id) + ",\"white\":";
    append_json_string(g.white, text);
    text += ",\"white_elo\":" + std::to_string(g.white_elo) + ",\"black\":";
    append_json_string(g.black, text);
    text += ",\"black_elo\":" + std::to_string(g.black_elo) + ",\"result\":";
    append_json_string(g.result, text);
    const std::string year = year_of(g.date);
    text += ",\"year\":" + (year == "?" ? std::string("null") : year) + ",\"move\":";
    if (g.san.empty()) text += "null";
    else append_json_string(g.san, text);
    text += '}';
  }
  text += "]}\n";
}

}  // namespace pgnbase::query
