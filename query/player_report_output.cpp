// The table, JSON and CSV forms of a player report.
#include <cstdio>

#include "query/csv_writer.h"
#include "query/json_object.h"
#include "query/player_report.h"
#include "core/plural.h"
#include "query/text_encoding.h"
#include "query/text_table.h"

namespace pgnbase::query {

namespace {

std::string percent(double fraction) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "%.1f%%", 100 * fraction);
  return buffer;
}

std::string number(const std::optional<int64_t>& n) { return n ? std::to_string(*n) : ""; }

std::string date_or_empty(const std::optional<int64_t>& key) { return key ? date_text(*key) : ""; }

const char* colour(bool as_white) { return as_white ? "white" : "black"; }

// The results columns of every table: games, +, =, -, score.
std::vector<TextTable::Column> with_results(std::vector<TextTable::Column> columns) {
  for (const char* h : {"games", "+", "=", "-"}) columns.push_back({h, true, 10});
  columns.push_back({"score", true, 7});
  return columns;
}

std::vector<std::string> with_results(std::vector<std::string> cells, const ResultCounts& c) {
  for (int64_t n : {c.games, c.wins, c.draws, c.losses}) cells.push_back(std::to_string(n));
  cells.push_back(c.wins + c.draws + c.losses ? percent(c.score()) : "-");
  return cells;
}

void print_table(const PlayerReport& r, bool wide, io::OutputFile& out) {
  std::string& o = out.buffer();
  o += "player  ";
  for (size_t i = 0; i < r.names.size(); ++i) o += (i ? ", " : "") + printable(r.names[i]);
  o += "\ngames   " + std::to_string(r.total.games);
  if (r.first_date) o += " (" + date_text(*r.first_date) + " .. " + date_text(*r.last_date) + ")";
  if (r.total.unknown) o += ", " + std::to_string(r.total.unknown) + " with no result";
  o += "\n\n";
  {
    TextTable t(with_results({{"as", false, 8}}), out, wide);
    t.add_row(with_results({"White"}, r.as_white));
    t.add_row(with_results({"Black"}, r.as_black));
    t.add_row(with_results({"total"}, r.total));
    t.finish();
  }
  out.buffer() += "\nby year\n";
  {
    auto columns = with_results({{"year", false, 6}});
    for (const char* h : {"first elo", "last elo", "peak elo"}) columns.push_back({h, true, 10});
    TextTable t(columns, out, wide);
    for (const auto& y : r.years) {
      auto cells = with_results({y.year ? std::to_string(*y.year) : "?"}, y.results);
      for (const auto& e : {y.first_elo, y.last_elo, y.peak_elo}) cells.push_back(e ? std::to_string(*e) : "-");
      t.add_row(cells);
    }
    t.finish();
  }
  out.buffer() += "\nopenings (most played first)\n";
  {
    TextTable t(with_results({{"as", false, 6}, {"ECO", false, 4}, {"opening", false, 48}}), out, wide);
    for (const auto& op : r.openings)
      t.add_row(with_results({colour(op.as_white), op.eco.empty() ? "?" : op.eco, op.name}, op.results));
    t.finish();
  }
  out.buffer() += "\nopponents (most games first)\n";
  {
    TextTable t(with_results({{"opponent", false, 32}}), out, wide);
    for (const auto& op : r.opponents) t.add_row(with_results({op.name}, op.results));
    t.finish();
  }
  for (const auto* list : {&r.longest_wins, &r.shortest_wins}) {
    out.buffer() += list == &r.longest_wins ? "\nlongest wins\n" : "\nshortest wins\n";
    TextTable t({{"id", true, 12}, {"plies", true, 6}, {"as", false, 6}, {"opponent", false, 32}, {"date", false, 10},
                 {"ECO", false, 4}, {"event", false, 32}},
                out, wide);
    for (const PlayerGame& g : *list)
      t.add_row({std::to_string(g.id), std::to_string(g.plies), colour(g.as_white), g.opponent, date_or_empty(g.date_key),
                 g.eco, g.event});
    t.finish();
  }
}

void append_results_json(const ResultCounts& c, std::string& o) {
  JsonObject j(o);
  j.number("games", c.games).number("wins", c.wins).number("draws", c.draws).number("losses", c.losses);
  j.number("unknown", c.unknown);
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "%.4f", c.score());
  j.key("score") += buffer;
}

void date_json(JsonObject& j, std::string_view name, const std::optional<int64_t>& key) {
  if (key) j.text(name, date_text(*key));
  else j.number(name, std::nullopt);
}

// Appends "[item, item, ...]" with write(item, out) for each.
template <typename List, typename Write>
void append_array(const List& list, std::string& o, Write write) {
  o += '[';
  for (size_t i = 0; i < list.size(); ++i) {
    if (i) o += ',';
    write(list[i], o);
  }
  o += ']';
}

void append_game_json(const PlayerGame& g, std::string& o) {
  JsonObject j(o);
  j.number("id", g.id).text("as", colour(g.as_white)).text("opponent", g.opponent).number("plies", g.plies);
  date_json(j, "date", g.date_key);
  j.text("eco", g.eco).text("event", g.event);
}

void print_json(const PlayerReport& r, io::OutputFile& out) {
  std::string& o = out.buffer();
  {
    JsonObject j(o);
    append_array(r.names, j.key("names"), [](const std::string& n, std::string& s) { append_json_string(n, s); });
    date_json(j, "first_date", r.first_date);
    date_json(j, "last_date", r.last_date);
    append_results_json(r.total, j.key("total"));
    append_results_json(r.as_white, j.key("as_white"));
    append_results_json(r.as_black, j.key("as_black"));
    append_array(r.years, j.key("years"), [](const PlayerReport::Year& y, std::string& s) {
      JsonObject year(s);
      year.number("year", y.year);
      append_results_json(y.results, year.key("results"));
      year.number("first_elo", y.first_elo).number("last_elo", y.last_elo).number("peak_elo", y.peak_elo);
    });
    append_array(r.openings, j.key("openings"), [](const PlayerReport::Opening& op, std::string& s) {
      JsonObject opening(s);
      opening.text("as", colour(op.as_white)).text("eco", op.eco).text("opening", op.name);
      append_results_json(op.results, opening.key("results"));
    });
    append_array(r.opponents, j.key("opponents"), [](const PlayerReport::Opponent& op, std::string& s) {
      JsonObject opponent(s);
      opponent.text("name", op.name);
      append_results_json(op.results, opponent.key("results"));
    });
    append_array(r.longest_wins, j.key("longest_wins"), append_game_json);
    append_array(r.shortest_wins, j.key("shortest_wins"), append_game_json);
  }
  o += '\n';
}

// One CSV with a section column; fields a section does not use are empty.
void print_csv(const PlayerReport& r, io::OutputFile& out) {
  CsvWriter csv({"section", "key", "name", "games", "wins", "draws", "losses", "unknown", "score", "first_elo",
                 "last_elo", "peak_elo", "game_id", "plies", "date"},
                out);
  auto row = [&](std::string section, std::string key, std::string name, const ResultCounts& c,
                 std::vector<std::string> rest) {
    char score[16];
    std::snprintf(score, sizeof score, "%.4f", c.score());
    std::vector<std::string> fields = {std::move(section),        std::move(key),           std::move(name),
                                       std::to_string(c.games),   std::to_string(c.wins),   std::to_string(c.draws),
                                       std::to_string(c.losses),  std::to_string(c.unknown), score};
    rest.resize(6);
    fields.insert(fields.end(), rest.begin(), rest.end());
    csv.add_row(fields);
  };
  row("total", "", r.names.empty() ? "" : r.names[0], r.total, {});
  row("colour", "white", "", r.as_white, {});
  row("colour", "black", "", r.as_black, {});
  for (const auto& y : r.years) row("year", y.year ? std::to_string(*y.year) : "", "", y.results,
                                    {number(y.first_elo), number(y.last_elo), number(y.peak_elo)});
  for (const auto& op : r.openings)
    row(std::string("opening_") + colour(op.as_white), op.eco, op.name, op.results, {});
  for (const auto& op : r.opponents) row("opponent", "", op.name, op.results, {});
  for (const auto* list : {&r.longest_wins, &r.shortest_wins})
    for (const PlayerGame& g : *list)
      csv.add_row({list == &r.longest_wins ? "longest_win" : "shortest_win", colour(g.as_white), g.opponent, "", "",
                   "", "", "", "", "", "", "", std::to_string(g.id), std::to_string(g.plies), date_or_empty(g.date_key)});
}

}  // namespace

void print_player_report(const PlayerReport& report, OutputFormat format, bool wide, io::OutputFile& out) {
  switch (format) {
    case OutputFormat::Text:  // not offered: the table
    case OutputFormat::Pgn:
    case OutputFormat::Table: print_table(report, wide, out); return;
    case OutputFormat::Json: print_json(report, out); return;
    case OutputFormat::Csv: print_csv(report, out); return;
  }
}

}  // namespace pgnbase::query
