// pgn-query book (a Polyglot opening book from the games the filters select) and event
// (an event's standings and crosstable).
#include <cstdio>
#include <string>

#include "core/plural.h"
#include "query/event_report.h"
#include "query/polyglot_book.h"
#include "tools/query_commands.h"
#include "tools/query_filters.h"

namespace pgnbase::tools {

using namespace pgnbase::query;

namespace {

struct BookCommand {
  FilterText filter_text;
  std::string output;
  int64_t max_ply = 20, min_games = 3;

  void options(po::options_description& d) {
    add_filter_options(d, filter_text, false);
    d.add_options()
        ("output,o", po::value(&output), "the book file to write (- for stdout)")
        ("max-ply", po::value(&max_ply)->default_value(max_ply), "moves from the first N plies of each game")
        ("min-games", po::value(&min_games)->default_value(min_games), "only moves played in at least N games");
  }

  int run(QueryContext& ctx) {
    if (output.empty()) throw UsageError{"book needs -o FILE (the Polyglot book to write)"};
    if (max_ply < 1 || max_ply > 1000) throw UsageError{"--max-ply must be from 1 to 1000"};
    if (min_games < 1) throw UsageError{"--min-games must be at least 1"};
    BookOptions options;
    options.search.filter = make_filter(filter_text);
    options.max_ply = uint32_t(max_ply);
    options.min_games = uint32_t(min_games);
    store::Database& db = ctx.open(output);
    int64_t games = 0;
    const std::vector<BookEntry> entries = build_book(db, options, games);
    write_book(entries, ctx.output());
    ctx.close_output();
    if (output != "-")
      std::fprintf(stderr, "pgn-query: %s from %s written to %s\n", plural(int64_t(entries.size()), "book entry", "book entries").c_str(),
                   plural(games, "game").c_str(), output.c_str());
    return kExitOk;
  }
};

struct EventCommand {
  std::string format = "table";

  void options(po::options_description& d) {
    d.add_options()("format", po::value(&format)->default_value(format), "table (standings and crosstable) or csv (standings)");
  }

  int run(QueryContext& ctx) {
    if (!ctx.given("name") || ctx.vm()["name"].as<std::string>().empty()) throw UsageError{"missing the event's name"};
    if (format != "table" && format != "csv") throw UsageError{"bad --format '" + format + "': expected table or csv"};
    const search::NamePattern name{ctx.vm()["name"].as<std::string>()};
    EventReport report;
    try {
      report = build_event_report(ctx.open(), name);
    } catch (const std::runtime_error& several) {
      throw UsageError{several.what()};
    }
    if (report.players.empty()) throw CommandFailure{"no event '" + name.text + "' (pgn-query events DB --like NAME lists them)"};
    print_event_report(report, format == "csv" ? OutputFormat::Csv : OutputFormat::Table, ctx.output());
    return kExitOk;
  }
};

}  // namespace

int run_event(QueryContext& ctx) { return run_as<EventCommand>(ctx); }

int run_book(QueryContext& ctx) { return run_as<BookCommand>(ctx); }

}  // namespace pgnbase::tools
