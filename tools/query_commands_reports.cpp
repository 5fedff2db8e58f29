// pgn-query explore, stats, rejects, player, players and events: reports on a database.
#include <cstdio>
#include <string>

#include "core/fen.h"
#include "query/database_report.h"
#include "query/explorer_output.h"
#include "query/explorer_pgn.h"
#include "query/explorer_csv.h"
#include "query/player_report.h"
#include "core/plural.h"
#include "tools/query_commands.h"
#include "tools/query_filters.h"

namespace pgnbase::tools {

using namespace pgnbase::query;

namespace {

struct ExploreCommand {
  FilterText filter_text;
  std::string output = "-";
  search::ExplorerOptions explorer;
  ExplorerTreeOptions tree;

  void options(po::options_description& d) {
    add_filter_options(d, filter_text, true);
    d.add_options()
        ("json", "one JSON object instead of a table")
        ("format", po::value<std::string>()->default_value("table"),
         "table, json, csv, or pgn (the tree as one game: the most played move the main line, the others variations)")
        ("depth", po::value(&tree.depth)->default_value(tree.depth), "with --format pgn: plies of the tree")
        ("no-elo", "leave out average ratings")
        ("top", po::value(&explorer.top_games)->default_value(5), "highest-rated games reaching the position to list (0: none)")
        ("output,o", po::value(&output), "write here instead of stdout");
  }

  int run(QueryContext& ctx) {
    const bool pgn = ctx.vm()["format"].as<std::string>() == "pgn" && !ctx.given("json");
    const OutputFormat format = pgn ? OutputFormat::Pgn : report_format(ctx, ctx.vm()["format"].as<std::string>());
    if (!ctx.vm()["depth"].defaulted() && !pgn) throw UsageError{"--depth applies to --format pgn"};
    if (tree.depth < 1 || tree.depth > 40) throw UsageError{"--depth must be from 1 to 40"};
    if (filter_text.fen.empty() && filter_text.moves.empty()) filter_text.fen = std::string(kStartFen);
    // The positions on the way name the opening.
    explorer.filter = make_filter(filter_text, &explorer.path_keys);
    explorer.ratings = !ctx.given("no-elo");
    bool any_corrupt = false;
    explorer.on_corrupt = [&, report = ctx.corrupt_game_report()](int64_t id, const std::string& reason) {
      any_corrupt = true;
      report(id, reason);
    };
    ctx.open(output);
    io::OutputFile& out = ctx.output();
    if (format == OutputFormat::Pgn) {
      std::optional<search::MoveSequence> path;
      if (!filter_text.moves.empty()) path = parsed_or_usage_error(search::parse_move_sequence(filter_text.moves));
      print_explorer_pgn(ctx.snapshot(), explorer, path ? &*path : nullptr, tree, out);
      return any_corrupt ? kExitFailure : kExitOk;
    }
    const search::ExplorerResult result = search::explore(ctx.snapshot(), explorer);
    switch (format) {
      case OutputFormat::Table: print_explorer_table(result, out); break;
      case OutputFormat::Json: print_explorer_json(result, out); break;
      case OutputFormat::Csv: print_explorer_csv(result, out); break;
      case OutputFormat::Pgn:  // above
      case OutputFormat::Text: break;
    }
    return any_corrupt ? kExitFailure : kExitOk;
  }
};

struct StatsCommand {
  ReportFormatOptions report;

  void options(po::options_description& d) { report.add(d); }

  int run(QueryContext& ctx) {
    StatsOptions stats{report_format(ctx, report.format), ctx.given("wide")};
    store::Database& db = ctx.open(report.output);
    print_stats(db, stats, ctx.output());
    return kExitOk;
  }
};

struct RejectsCommand {
  RejectsOptions rejects;

  void options(po::options_description& d) {
    d.add_options()
        ("kind", po::value(&rejects.kind), "only this kind (exact, as stats lists them: \"illegal move\", ...)")
        ("reason", po::value(&rejects.reason), "only reasons containing this text (case-insensitive; * wildcards)")
        ("output,o", po::value(&rejects.text_path),
         "write the rejected games' original text to this file and print only their count")
        ("json", "JSON lines instead of a table")
        ("wide", "table: show every column in full");
  }

  int run(QueryContext& ctx) {
    rejects.format = ctx.given("json") ? OutputFormat::Json : OutputFormat::Table;
    rejects.wide = ctx.given("wide");
    if (rejects.wide && rejects.format == OutputFormat::Json) throw UsageError{"--wide applies to the table"};
    const bool text_to_file = !rejects.text_path.empty() && rejects.text_path != "-";
    if (text_to_file && (ctx.given("json") || rejects.wide))
      throw UsageError{"-o FILE writes the games and prints only their count: no --json or --wide"};
    std::vector<std::string> texts;
    if (!rejects.text_path.empty()) texts.push_back(rejects.text_path);
    ctx.open("-", texts);
    rejects.list = !text_to_file;
    io::OutputFile& out = ctx.output();
    const int64_t n = print_rejects(ctx.snapshot(), rejects, out);
    if (text_to_file) out.buffer() += plural(n, "rejected game") + " written to " + rejects.text_path + "\n";
    return kExitOk;
  }
};

struct PlayerCommand {
  PlayerReportOptions player;
  ReportFormatOptions report;
  int64_t top = 10;
  std::string vs;

  void options(po::options_description& d) {
    d.add_options()
        ("top", po::value(&top)->default_value(top), "lines of the openings and opponents lists (0: all)")
        ("vs", po::value(&vs), "only the games against this player (head to head; names as --player)");
    report.add(d);
  }

  int run(QueryContext& ctx) {
    if (!ctx.given("name") || ctx.vm()["name"].as<std::string>().empty())
      throw UsageError{"missing the player's name"};
    if (top < 0) throw UsageError{"--top must not be negative"};
    player.name = search::NamePattern{ctx.vm()["name"].as<std::string>()};
    player.top = size_t(top);
    if (!vs.empty()) player.opponent = search::NamePattern{vs};
    const OutputFormat format = report_format(ctx, report.format);
    const PlayerReport built = build_player_report(ctx.open(report.output), player);
    if (built.total.games == 0)
      throw CommandFailure{"no games of '" + player.name.text + "'" + (vs.empty() ? "" : " against '" + vs + "'") +
                           " (pgn-query players DB --like NAME lists names)"};
    print_player_report(built, format, ctx.given("wide"), ctx.output());
    return kExitOk;
  }
};

struct NamesCommand {
  explicit NamesCommand(bool events) { names.events = events; }

  NameListOptions names;
  ReportFormatOptions report;
  std::string like;
  int64_t limit = 0;

  void options(po::options_description& d) {
    d.add_options()
        ("like", po::value(&like), names.events ? "only events matching this pattern (word by word, as --event)"
                                                : "only names matching this pattern (word by word, as --player)")
        ("min-games", po::value(&names.min_games)->default_value(1), "only names with at least this many games")
        ("limit", po::value(&limit), "at most this many names");
    report.add(d);
  }

  int run(QueryContext& ctx) {
    if (!like.empty()) names.like = search::NamePattern{like};
    if (names.min_games < 0) throw UsageError{"--min-games must not be negative"};
    if (ctx.given("limit")) {
      if (limit < 0) throw UsageError{"--limit must not be negative"};
      names.limit = limit;
    }
    const OutputFormat format = report_format(ctx, report.format);
    store::Database& db = ctx.open(report.output);
    print_name_list(list_names(db, names), names.events, format, ctx.given("wide"), ctx.output());
    return kExitOk;
  }
};

}  // namespace

int run_explore(QueryContext& ctx) { return run_as<ExploreCommand>(ctx); }
int run_stats(QueryContext& ctx) { return run_as<StatsCommand>(ctx); }
int run_rejects(QueryContext& ctx) { return run_as<RejectsCommand>(ctx); }
int run_player(QueryContext& ctx) { return run_as<PlayerCommand>(ctx); }
int run_players(QueryContext& ctx) { return run_as<NamesCommand>(ctx, false); }
int run_events(QueryContext& ctx) { return run_as<NamesCommand>(ctx, true); }

}  // namespace pgnbase::tools
