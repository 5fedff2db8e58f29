// pgn-query search, export and show: games as a table, CSV, JSON lines, PGN or text.
#include <cstdio>
#include <string>

#include "query/game_view.h"
#include "core/plural.h"
#include "query/search_output.h"
#include "tools/query_commands.h"
#include "tools/query_filters.h"

namespace pgnbase::tools {

using namespace pgnbase::query;

namespace {

struct SearchCommand {
  explicit SearchCommand(bool export_mode) : export_mode(export_mode), format(export_mode ? "pgn" : "table") {}

  bool export_mode;
  FilterText filter_text;
  search::PatternText pattern_text;
  std::string format, output = "-", order = "id", notation = "san";
  int64_t offset = 0, limit = -1;
  unsigned threads = 0;

  void options(po::options_description& d) {
    add_filter_options(d, filter_text, false);
    add_pattern_options(d, pattern_text);
    if (!export_mode) d.add_options()("format", po::value(&format)->default_value(format), "table, csv, jsonl or pgn");
    d.add_options()
        ("output,o", po::value(&output), export_mode ? "PGN file to write (- for stdout); required" : "write here instead of stdout")
        ("limit", po::value(&limit), "at most this many games")
        ("offset", po::value(&offset)->default_value(0), "skip this many matching games first")
        ("order", po::value(&order)->default_value(order), "id (input order), date, or elo (strongest first)")
        ("desc", "reverse the order (--order date --desc: newest first); unknown dates and ratings stay last")
        ("notation", po::value(&notation)->default_value(notation),
         "PGN moves: san, long, uci, figurine, or SAN in a language: de, nl, fr, it, es, pt, cs, pl, hu")
        ("no-annotations", "PGN without comments, NAGs and variations")
        ("threads,j", po::value(&threads)->default_value(0), "threads formatting PGN/JSON, confirming a counted position search and scanning a pattern search "
         "(0: one per core, up to 8)");
    if (!export_mode)
      d.add_options()("count", "print only the number of matching games")("wide", "table: show every column in full");
  }

  int run(QueryContext& ctx) {
    static constexpr FormatName kOffered[] = {{"table", OutputFormat::Table},
                                              {"csv", OutputFormat::Csv},
                                              {"jsonl", OutputFormat::Json},
                                              {"pgn", OutputFormat::Pgn}};
    search::SearchOptions search;
    search.filter = make_filter(filter_text);
    search.filter.pattern = parsed_or_usage_error(search::build_pattern(pattern_text));
    search.order = parsed_or_usage_error(search::parse_order(order));
    search.descending = ctx.given("desc");
    if (offset < 0) throw UsageError{"--offset must not be negative"};
    search.offset = offset;
    if (ctx.given("limit")) {
      if (limit < 0) throw UsageError{"--limit must not be negative"};
      search.limit = limit;
    }
    SearchOutputOptions out_options;
    out_options.format = parsed_or_usage_error(parse_format(format, kOffered));
    const bool listing = out_options.format == OutputFormat::Table || out_options.format == OutputFormat::Csv;
    if (ctx.given("count") && out_options.format != OutputFormat::Table)
      throw UsageError{"--count prints a number: it takes no --format " + format};
    if (listing && !ctx.vm()["notation"].defaulted()) throw UsageError{"--notation applies to PGN output (--format pgn)"};
    if (listing && ctx.given("no-annotations")) throw UsageError{"--no-annotations applies to PGN output (--format pgn)"};
    if (ctx.given("wide") && out_options.format != OutputFormat::Table) throw UsageError{"--wide applies to the table"};
    out_options.wide = ctx.given("wide");
    out_options.pgn.notation = parsed_or_usage_error(parse_notation(notation));
    out_options.pgn.annotations = !ctx.given("no-annotations");
    out_options.count_only = ctx.given("count");
    out_options.threads = threads;
    search.count_threads = threads;
    if (export_mode && !ctx.given("output")) throw UsageError{"export needs -o FILE (- for stdout)"};

    out_options.on_corrupt = ctx.corrupt_game_report();
    store::Database& db = ctx.open(output);
    io::OutputFile& out = ctx.output();
    SearchSummary summary = run_search(db, search, out_options, out);
    ctx.close_output();
    if (ctx.given("timing") && search.filter.pattern)
      std::fprintf(stderr, "pgn-query: pattern: %llu games scanned, %llu replayed\n",
                   (unsigned long long)summary.pattern.games, (unsigned long long)summary.pattern.replayed);
    if (export_mode && !out.is_stdout())
      std::fprintf(stderr, "pgn-query: %s written to %s\n", plural(summary.games, "game").c_str(), output.c_str());
    return summary.corrupt ? kExitFailure : kExitOk;
  }
};

struct ShowCommand {
  ShowOptions show;
  std::string format = "text", notation = "san", output = "-";

  void options(po::options_description& d) {
    d.add_options()
        ("ply", po::value<int64_t>()->notifier([this](int64_t v) { show.ply = v; }),
         "the position after this many half-moves (0: the start) as a board with its FEN")
        ("format", po::value(&format)->default_value(format), "text, pgn or jsonl")
        ("notation", po::value(&notation)->default_value(notation), "moves: san, long, uci, figurine, de, nl, fr, ...")
        ("no-annotations", "leave out comments, NAGs and variations")
        ("output,o", po::value(&output), "write here instead of stdout");
  }

  int run(QueryContext& ctx) {
    static constexpr FormatName kOffered[] = {
        {"text", OutputFormat::Text}, {"pgn", OutputFormat::Pgn}, {"jsonl", OutputFormat::Json}};
    if (!ctx.given("id")) throw UsageError{"missing the game id (search lists them)"};
    show.id = ctx.vm()["id"].as<int64_t>();
    show.format = parsed_or_usage_error(parse_format(format, kOffered));
    show.pgn.notation = parsed_or_usage_error(parse_notation(notation));
    if (show.format == OutputFormat::Json && !ctx.vm()["notation"].defaulted())
      throw UsageError{"--notation applies to the text and PGN views (JSON moves are SAN)"};
    if (show.ply && show.format == OutputFormat::Pgn)
      throw UsageError{"--ply shows a position: use the text view or --format jsonl"};
    if (show.ply && *show.ply < 0) throw UsageError{"--ply must not be negative"};
    show.pgn.annotations = !ctx.given("no-annotations");
    store::Database& db = ctx.open(output);
    const ShowResult shown = show_game(db, show, ctx.output());
    switch (shown.status) {
      case ShowStatus::Shown: return kExitOk;
      case ShowStatus::NoSuchGame:
        throw CommandFailure{"no game " + std::to_string(show.id) + " (the ids run from 1 to " +
                             std::to_string(shown.max_id) + ")"};
      case ShowStatus::PlyOutOfRange:
        throw UsageError{"--ply " + std::to_string(*show.ply) + " is past the end: game " + std::to_string(show.id) +
                         " has " + plural(shown.plies, "ply", "plies")};
      case ShowStatus::Corrupt:
        throw CommandFailure{"game " + std::to_string(show.id) +
                             " is corrupt: its stored moves or tags do not decode"};
    }
    return kExitOk;
  }
};

}  // namespace

int run_search(QueryContext& ctx) { return run_as<SearchCommand>(ctx, false); }
int run_export(QueryContext& ctx) { return run_as<SearchCommand>(ctx, true); }
int run_show(QueryContext& ctx) { return run_as<ShowCommand>(ctx); }

}  // namespace pgnbase::tools
