#include "query/search_output.h"

#include <memory>

#include "query/json_writer.h"
#include "query/text_table.h"

namespace pgnbase::query {

namespace {

std::string optional_number(const std::optional<int64_t>& n) { return n ? std::to_string(*n) : ""; }

std::string plies_text(std::span<const uint32_t> plies) {
  std::string s;
  for (size_t i = 0; i < plies.size(); ++i) {
    if (i) s += ',';
    s += std::to_string(plies[i]);
  }
  return s;
}

}  // namespace

SearchSummary run_search(store::Database& db, const SearchOptions& options, const SearchOutputOptions& output,
                         OutputFile& out) {
  SearchSummary summary;
  db.exec("BEGIN");  // one snapshot for the whole search, even while an import writes
  GameSearch search(db, options);
  if (output.count_only) {
    summary.games = search.count();
    out.buffer() += std::to_string(summary.games) + "\n";
    db.exec("COMMIT");
    return summary;
  }
  const bool with_position = options.filter.position.has_value();
  std::unique_ptr<TextTable> table;
  if (output.format == SearchFormat::Table) {
    std::vector<TextTable::Column> columns = {
        {"id", true, 10},    {"White", false, 28}, {"Elo", true, 5},    {"Black", false, 28},
        {"Elo", true, 5},    {"Result", false, 7}, {"Date", false, 10}, {"ECO", false, 4},
        {"Event", false, 32}, {"Plies", true, 6}};
    if (with_position) columns.push_back({"At ply", false, 24});
    table = std::make_unique<TextTable>(std::move(columns), out);
  }
  PgnWriter pgn(output.pgn);
  JsonGameWriter json;
  while (search.next()) {
    const GameRow& row = search.row();
    bool ok = true;
    switch (output.format) {
      case SearchFormat::Table: {
        std::vector<std::string> cells = {std::to_string(row.id),
                                          std::string(row.white.value_or("?")),
                                          optional_number(row.white_elo),
                                          std::string(row.black.value_or("?")),
                                          optional_number(row.black_elo),
                                          std::string(result_token(row.result)),
                                          std::string(row.date.value_or("")),
                                          std::string(row.eco.value_or("")),
                                          std::string(row.event.value_or("")),
                                          std::to_string(row.plies)};
        if (with_position) cells.push_back(plies_text(search.plies()));
        table->add_row(std::move(cells));
        break;
      }
      case SearchFormat::Jsonl: {
        std::span<const MoveCode> codes = search.codes();
        ok = codes.size() == size_t(row.plies) && json.write(row, codes, search.plies(), out.buffer());
        break;
      }
      case SearchFormat::Pgn: {
        std::span<const MoveCode> codes = search.codes();
        ok = codes.size() == size_t(row.plies) && pgn.write(row, codes, out.buffer());
        break;
      }
    }
    if (ok) ++summary.games;
    else ++summary.corrupt;
    out.maybe_flush();
  }
  if (table) table->finish();
  db.exec("COMMIT");
  return summary;
}

}  // namespace pgnbase::query
