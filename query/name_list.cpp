// `pgn-query players` and `events`: names with their game counts and date spans.
#include <algorithm>

#include "query/csv_writer.h"
#include "query/json_object.h"
#include "query/player_report.h"
#include "store/read_snapshot.h"
#include "store/names_sql.h"
#include "query/text_table.h"

namespace pgnbase::query {

namespace {

std::optional<int64_t> optional_int(const store::Statement& s, int column) {
  if (s.column_is_null(column)) return std::nullopt;
  return s.column_int64(column);
}

// The earlier (or later) of two dates that may be unknown.
std::optional<int64_t> pick(std::optional<int64_t> a, std::optional<int64_t> b, bool later) {
  if (!a) return b;
  if (!b) return a;
  return later ? std::max(*a, *b) : std::min(*a, *b);
}

std::string date_or_empty(const std::optional<int64_t>& key) { return key ? date_text(*key) : ""; }

}  // namespace

std::vector<NameCount> list_names(store::Database& db, const NameListOptions& options) {
  store::ReadSnapshot snapshot(db);
  store::Statement s = db.prepare(options.events ? store::sql::kEventList : store::sql::kPlayerList);
  s.bind_text(1, options.like ? search::like_pattern(*options.like) : "%");
  std::vector<NameCount> names;
  while (s.step()) {
    NameCount n;
    n.as_white = s.column_int64(1);
    n.as_black = s.column_int64(2);
    n.games = n.as_white + n.as_black;
    if (n.games < std::max<int64_t>(1, options.min_games)) continue;  // names of sites, events or rare players
    n.name = std::string(s.column_text(0));
    n.first_date = pick(optional_int(s, 3), optional_int(s, 5), false);
    n.last_date = pick(optional_int(s, 4), optional_int(s, 6), true);
    names.push_back(std::move(n));
  }
  std::sort(names.begin(), names.end(), [](const NameCount& a, const NameCount& b) {
    return a.games != b.games ? a.games > b.games : a.name < b.name;
  });
  if (options.limit && names.size() > size_t(*options.limit)) names.resize(size_t(*options.limit));
  return names;
}

void print_name_list(const std::vector<NameCount>& names, bool events, OutputFormat format, bool wide,
                     io::OutputFile& out) {
  const char* what = events ? "event" : "player";
  switch (format) {
    case OutputFormat::Text:  // not offered: the table
    case OutputFormat::Pgn:
    case OutputFormat::Table: {
      std::vector<TextTable::Column> columns = {{what, false, 40}, {"games", true, 10}};
      if (!events) columns.insert(columns.end(), {{"white", true, 10}, {"black", true, 10}});
      columns.insert(columns.end(), {{"first", false, 10}, {"last", false, 10}});
      TextTable table(columns, out, wide);
      for (const NameCount& n : names) {
        std::vector<std::string> cells = {n.name, std::to_string(n.games)};
        if (!events) cells.insert(cells.end(), {std::to_string(n.as_white), std::to_string(n.as_black)});
        cells.insert(cells.end(), {date_or_empty(n.first_date), date_or_empty(n.last_date)});
        table.add_row(std::move(cells));
      }
      table.finish();
      return;
    }
    case OutputFormat::Json:
      for (const NameCount& n : names) {
        {
          JsonObject j(out.buffer());
          j.text("name", n.name).number("games", n.games);
          if (!events) j.number("as_white", n.as_white).number("as_black", n.as_black);
          if (n.first_date) j.text("first_date", date_text(*n.first_date)).text("last_date", date_text(*n.last_date));
          else j.number("first_date", std::nullopt).number("last_date", std::nullopt);
        }
        out.buffer() += '\n';
        out.maybe_flush();
      }
      return;
    case OutputFormat::Csv: {
      std::vector<std::string> header = {"name", "games"};
      if (!events) header.insert(header.end(), {"as_white", "as_black"});
      header.insert(header.end(), {"first_date", "last_date"});
      CsvWriter csv(header, out);
      for (const NameCount& n : names) {
        std::vector<std::string> fields = {n.name, std::to_string(n.games)};
        if (!events) fields.insert(fields.end(), {std::to_string(n.as_white), std::to_string(n.as_black)});
        fields.insert(fields.end(), {date_or_empty(n.first_date), date_or_empty(n.last_date)});
        csv.add_row(fields);
      }
      return;
    }
  }
}

}  // namespace pgnbase::query
