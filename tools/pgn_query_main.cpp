// pgn-query: searches, explores and exports a pgnbase database (read-only).
#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "core/fen.h"
#include "indexer/store/database.h"
#include "query/database_report.h"
#include "query/explorer.h"
#include "query/game_filter.h"
#include "query/output_file.h"
#include "query/search_output.h"

namespace po = boost::program_options;
using namespace pgnbase;
using namespace pgnbase::query;

namespace {

constexpr int kExitOk = 0, kExitFailure = 1, kExitUsage = 2;

// --timing: how long the command took from opening the database, on stderr.
class Stopwatch {
 public:
  explicit Stopwatch(bool enabled) : enabled_(enabled), start_(std::chrono::steady_clock::now()) {}
  ~Stopwatch() {
    if (!enabled_) return;
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
    std::fprintf(stderr, "pgn-query: %.2f ms\n", ms);
  }

 private:
  bool enabled_;
  std::chrono::steady_clock::time_point start_;
};

// A bad option value: printed as one line, exit status 2.
struct UsageError {
  std::string message;
};

constexpr const char* kOverview =
    "pgn-query COMMAND DB [options]   (pgn-query COMMAND --help for each)\n"
    "  search   games matching filters, as a table, JSON lines or PGN\n"
    "  export   matching games as PGN (-o FILE, - for stdout)\n"
    "  explore  the opening explorer: next moves from a position with results\n"
    "  stats    what the database holds and how big each part is\n"
    "  rejects  games the import rejected, and their original text\n";

struct FilterText {
  std::string fen, eco, white, black, player, event, site, result, date_from, date_to, time_control;
  std::optional<int64_t> min_elo, max_elo, min_plies, max_plies;
};

void add_filter_options(po::options_description& d, FilterText& f, bool fen_defaults_to_start) {
  d.add_options()
      ("fen", po::value(&f.fen), fen_defaults_to_start ? "position to explore (default: the start position)"
                                                       : "games reaching this position at any ply (FEN; move counters ignored)")
      ("eco", po::value(&f.eco), "ECO code C60, range C60-C99, or volume C")
      ("white", po::value(&f.white), "White player: exact, case-insensitive; * is a wildcard")
      ("black", po::value(&f.black), "Black player (as --white)")
      ("player", po::value(&f.player), "either player (as --white)")
      ("min-elo", po::value<int64_t>()->notifier([&](int64_t v) { f.min_elo = v; }), "both players rated at least this")
      ("max-elo", po::value<int64_t>()->notifier([&](int64_t v) { f.max_elo = v; }), "both players rated at most this")
      ("date-from", po::value(&f.date_from), "played on or after: 2019, 2019.05 or 2019.05.17 (a game dated "
                                             "\"2019\" or \"2019.05\" must lie wholly inside the range)")
      ("date-to", po::value(&f.date_to), "played on or before (partial dates include the whole year/month)")
      ("result", po::value(&f.result), "1-0, 0-1, 1/2-1/2 or *")
      ("event", po::value(&f.event), "Event tag (as --white)")
      ("site", po::value(&f.site), "Site tag (as --white)")
      ("time-control", po::value(&f.time_control),
       "bullet|blitz|rapid|classical|correspondence|ultrabullet|unknown, a TimeControl value (180+2), or 180+* / *+0")
      ("min-plies", po::value<int64_t>()->notifier([&](int64_t v) { f.min_plies = v; }), "at least this many half-moves")
      ("max-plies", po::value<int64_t>()->notifier([&](int64_t v) { f.max_plies = v; }), "at most this many half-moves");
}

GameFilter make_filter(const FilterText& t) {
  GameFilter f;
  std::string error;
  if (!t.fen.empty()) {
    Board board;
    if (auto e = parse_fen(t.fen, board)) throw UsageError{"bad FEN: " + e->message};
    f.position = board;
  }
  if (!t.eco.empty()) {
    EcoRange eco;
    if (!parse_eco_range(t.eco, eco, error)) throw UsageError{error};
    f.eco = eco;
  }
  auto name = [](const std::string& s) { return s.empty() ? std::nullopt : std::optional<NamePattern>(NamePattern{s}); };
  f.white = name(t.white);
  f.black = name(t.black);
  f.player = name(t.player);
  f.event = name(t.event);
  f.site = name(t.site);
  f.min_elo = t.min_elo;
  f.max_elo = t.max_elo;
  f.min_plies = t.min_plies;
  f.max_plies = t.max_plies;
  if (!t.date_from.empty()) {
    int64_t key;
    if (!parse_date_bound(t.date_from, false, key, error)) throw UsageError{error};
    f.date_from_key = key;
  }
  if (!t.date_to.empty()) {
    int64_t key;
    if (!parse_date_bound(t.date_to, true, key, error)) throw UsageError{error};
    f.date_to_key = key;
  }
  if (!t.result.empty()) {
    int result;
    if (!parse_result(t.result, result, error)) throw UsageError{error};
    f.result = result;
  }
  if (!t.time_control.empty()) {
    f.time_control = TimeControlMatcher::parse(t.time_control, &error);
    if (!f.time_control) throw UsageError{"bad --time-control '" + t.time_control + "': " + error};
  }
  return f;
}

// Parses the command's options (argv[2..]) with DB as the first positional argument.
// Returns false when --help was shown.
bool parse_command_line(int argc, char** argv, const po::options_description& visible, const char* usage,
                        std::string& db_path, po::variables_map& vm) {
  po::options_description hidden;
  hidden.add_options()("db", po::value(&db_path))("timing", "print the time taken to stderr");
  po::options_description all;
  all.add(visible).add(hidden);
  po::positional_options_description positional;
  positional.add("db", 1);
  try {
    po::store(po::command_line_parser(argc - 1, argv + 1).options(all).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw UsageError{e.what()};
  }
  if (vm.count("help")) {
    std::cout << usage << "\n" << visible;
    return false;
  }
  if (db_path.empty()) throw UsageError{"missing the database path"};
  return true;
}

void add_pattern_options(po::options_description& d, PatternText& p) {
  d.add_options()
      ("material", po::value(&p.material), "material at some ply: KRPvKR, KR2PvKR, KR*PvKR*P (* any number)")
      ("material-either-colour", po::bool_switch(&p.either_colour), "--material/--imbalance also with colours swapped")
      ("imbalance", po::value(&p.imbalance), "material difference: QvRR, BvN, vPP, Pawn+2")
      ("pieces", po::value(&p.pieces), "men on squares, the rest free: \"wKg1 wBg2 bKg8 -e4\" (-e4: e4 empty), or a "
                                       "mask of 8 ranks as in a FEN: ? any square, . or a digit empty")
      ("pawns", po::value(&p.pawns), "exact pawns: 8/pp3ppp/4p3/3p4/3P4/8/PP3PPP/8; w: or b: for one colour")
      ("side-to-move", po::value(&p.side_to_move), "the pattern's first ply has w or b to move")
      ("ply-range", po::value(&p.ply_range), "the pattern holds within these plies: 20-60, 20-, -60")
      ("for", po::value<int64_t>()->notifier([&](int64_t v) { p.streak = v; }), "for at least N consecutive plies")
      ("last", po::bool_switch(&p.last), "at the final position");
}

int search_command(int argc, char** argv, bool export_mode) {
  FilterText filter_text;
  PatternText pattern_text;
  std::string format = export_mode ? "pgn" : "table", output = "-", order = "id", notation = "san";
  int64_t offset = 0, limit = -1;
  unsigned threads = 0;
  po::options_description d(export_mode ? "export options" : "search options");
  d.add_options()("help,h", "show this help");
  add_filter_options(d, filter_text, false);
  add_pattern_options(d, pattern_text);
  if (!export_mode) d.add_options()("format", po::value(&format)->default_value(format), "table, jsonl or pgn");
  d.add_options()
      ("output,o", po::value(&output), export_mode ? "PGN file to write (- for stdout); required" : "write here instead of stdout")
      ("limit", po::value(&limit), "at most this many games")
      ("offset", po::value(&offset)->default_value(0), "skip this many matching games first")
      ("order", po::value(&order)->default_value(order), "id (input order), date, or elo (strongest first)")
      ("notation", po::value(&notation)->default_value(notation),
       "PGN moves: san, long, uci, figurine, or SAN in a language: de, nl, fr, it, es, pt, cs, pl, hu")
      ("no-annotations", "PGN without comments, NAGs and variations")
      ("threads,j", po::value(&threads)->default_value(0), "threads formatting PGN/JSON, confirming a counted position search and scanning a pattern search "
       "(0: one per core, up to 8)");
  if (!export_mode) d.add_options()("count", "print only the number of matching games");
  std::string db_path;
  po::variables_map vm;
  const char* usage = export_mode ? "pgn-query export DB [filters] -o FILE" : "pgn-query search DB [filters] [options]";
  if (!parse_command_line(argc, argv, d, usage, db_path, vm)) return kExitOk;

  SearchOptions search;
  search.filter = make_filter(filter_text);
  std::string error;
  if (!build_pattern(pattern_text, search.filter.pattern, error)) throw UsageError{error};
  if (!parse_order(order, search.order, error)) throw UsageError{error};
  if (offset < 0) throw UsageError{"--offset must not be negative"};
  search.offset = offset;
  if (vm.count("limit")) {
    if (limit < 0) throw UsageError{"--limit must not be negative"};
    search.limit = limit;
  }
  SearchOutputOptions out_options;
  if (format == "table") out_options.format = SearchFormat::Table;
  else if (format == "jsonl" || format == "json") out_options.format = SearchFormat::Jsonl;
  else if (format == "pgn") out_options.format = SearchFormat::Pgn;
  else throw UsageError{"bad --format '" + format + "': expected table, jsonl or pgn"};
  if (!parse_notation(notation, out_options.pgn.notation, error)) throw UsageError{error};
  out_options.pgn.annotations = !vm.count("no-annotations");
  out_options.count_only = vm.count("count") > 0;
  out_options.threads = threads;
  search.count_threads = threads;
  if (export_mode && !vm.count("output")) throw UsageError{"export needs -o FILE (- for stdout)"};

  Stopwatch stopwatch(vm.count("timing") > 0);
  store::Database db = open_database(db_path);
  OutputFile out(output);
  SearchSummary summary = run_search(db, search, out_options, out);
  out.close();
  if (summary.corrupt)
    std::fprintf(stderr, "pgn-query: %lld games skipped: their stored moves or tags are corrupt\n",
                 (long long)summary.corrupt);
  if (vm.count("timing") && search.filter.pattern)
    std::fprintf(stderr, "pgn-query: pattern: %llu games scanned, %llu replayed\n",
                 (unsigned long long)summary.pattern.games, (unsigned long long)summary.pattern.replayed);
  if (export_mode && !out.is_stdout())
    std::fprintf(stderr, "pgn-query: %lld games written to %s\n", (long long)summary.games, output.c_str());
  return summary.corrupt ? kExitFailure : kExitOk;
}

int explore_command(int argc, char** argv) {
  FilterText filter_text;
  std::string output = "-";
  po::options_description d("explore options");
  d.add_options()("help,h", "show this help");
  add_filter_options(d, filter_text, true);
  d.add_options()
      ("json", "one JSON object instead of a table")
      ("no-elo", "leave out average ratings (answered from the position index alone when no filter is given)")
      ("output,o", po::value(&output), "write here instead of stdout");
  std::string db_path;
  po::variables_map vm;
  if (!parse_command_line(argc, argv, d, "pgn-query explore DB [--fen FEN] [filters]", db_path, vm)) return kExitOk;
  ExplorerOptions options;
  if (filter_text.fen.empty()) filter_text.fen = std::string(kStartFen);
  options.filter = make_filter(filter_text);
  options.ratings = !vm.count("no-elo");
  Stopwatch stopwatch(vm.count("timing") > 0);
  store::Database db = open_database(db_path);
  OutputFile out(output);
  db.exec("BEGIN");
  ExplorerResult result = explore(db, options);
  db.exec("COMMIT");
  if (vm.count("json")) print_explorer_json(result, out);
  else print_explorer_table(result, out);
  out.close();
  return kExitOk;
}

int stats_command(int argc, char** argv) {
  std::string output = "-";
  po::options_description d("stats options");
  d.add_options()
      ("help,h", "show this help")
      ("json", "one JSON object instead of text")
      ("output,o", po::value(&output), "write here instead of stdout");
  std::string db_path;
  po::variables_map vm;
  if (!parse_command_line(argc, argv, d, "pgn-query stats DB", db_path, vm)) return kExitOk;
  Stopwatch stopwatch(vm.count("timing") > 0);
  store::Database db = open_database(db_path);
  OutputFile out(output);
  print_stats(db, vm.count("json") > 0, out);
  out.close();
  return kExitOk;
}

int rejects_command(int argc, char** argv) {
  RejectsOptions options;
  po::options_description d("rejects options");
  d.add_options()
      ("help,h", "show this help")
      ("kind", po::value(&options.kind), "only this kind (exact, as stats lists them: \"illegal move\", ...)")
      ("reason", po::value(&options.reason), "only reasons containing this text (case-insensitive; * wildcards)")
      ("output,o", po::value(&options.text_path), "write the rejected games' original text to this file")
      ("json", "JSON lines instead of a table");
  std::string db_path;
  po::variables_map vm;
  if (!parse_command_line(argc, argv, d, "pgn-query rejects DB [--kind K] [--reason R] [-o FILE]", db_path, vm))
    return kExitOk;
  options.json = vm.count("json") > 0;
  store::Database db = open_database(db_path);
  OutputFile out("-");
  db.exec("BEGIN");
  int64_t n = print_rejects(db, options, out);
  db.exec("COMMIT");
  out.close();
  if (!options.text_path.empty())
    std::fprintf(stderr, "pgn-query: %lld rejected games written to %s\n", (long long)n, options.text_path.c_str());
  return kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fputs(kOverview, stderr);
    return kExitUsage;
  }
  const std::string command = argv[1];
  if (command == "--help" || command == "-h" || command == "help") {
    std::fputs(kOverview, stdout);
    return kExitOk;
  }
  if (command == "--version") {
    std::puts("pgn-query " PGNBASE_VERSION);
    return kExitOk;
  }
  try {
    if (command == "search") return search_command(argc, argv, false);
    if (command == "export") return search_command(argc, argv, true);
    if (command == "explore") return explore_command(argc, argv);
    if (command == "stats") return stats_command(argc, argv);
    if (command == "rejects") return rejects_command(argc, argv);
    std::fprintf(stderr, "pgn-query: unknown command '%s'\n%s", command.c_str(), kOverview);
    return kExitUsage;
  } catch (const UsageError& e) {
    std::fprintf(stderr, "pgn-query %s: %s (see pgn-query %s --help)\n", command.c_str(), e.message.c_str(),
                 command.c_str());
    return kExitUsage;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pgn-query %s: %s\n", command.c_str(), e.what());
    return kExitFailure;
  }
}
