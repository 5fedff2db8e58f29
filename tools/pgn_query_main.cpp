// pgn-query: searches, explores and exports a pgnbase database (read-only).
#include <boost/program_options.hpp>
#include <chrono>
#include <csignal>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/fen.h"
#include "dataset/dataset_export.h"
#include "dataset/dataset_key.h"
#include "store/database.h"
#include "query/database_report.h"
#include "query/explorer.h"
#include "query/explorer_csv.h"
#include "io/file_identity.h"
#include "query/game_filter.h"
#include "query/game_view.h"
#include "io/output_file.h"
#include "query/player_report.h"
#include "query/plural.h"
#include "query/search_output.h"
#include "query/text_encoding.h"
#include "store/schema_version.h"

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

// An output that would overwrite the database: one line, exit status 2, nothing written.
struct RefusedOutput {
  std::string message;
};

// Throws RefusedOutput when an output of the command (a path, or "-" for stdout, which
// the shell may have pointed at the database with >>) is the database or its WAL.
void refuse_writing_into_database(const std::string& db_path, const std::vector<std::string>& outputs) {
  io::InputFiles inputs;
  inputs.add_database(db_path);
  for (const std::string& output : outputs)
    if (auto clash = inputs.clash(output)) throw RefusedOutput{*clash + "; refusing to write into it"};
}

// Prints `pgn-query COMMAND: corrupt game ID: REASON` for each game a command skips
// (a database may come from anyone); the command goes on and exits 1 at the end.
CorruptGameReport report_corrupt_game(const char* command) {
  return [command](int64_t id, const std::string& reason) {
    std::fprintf(stderr, "pgn-query %s: corrupt game %lld: %s\n", command, (long long)id, reason.c_str());
  };
}

constexpr const char* kOverview =
    "pgn-query COMMAND DB [options]   (pgn-query COMMAND --help for each)\n"
    "  search   games matching filters, as a table, JSON lines or PGN\n"
    "  export   matching games as PGN (-o FILE, - for stdout)\n"
    "  explore  the opening explorer: next moves from a position with results\n"
    "  show     one game (by the id search lists), or the position at one of its plies\n"
    "  player   one player's report: results by colour, year, opening, opponent; ratings; wins\n"
    "  players  player names with game counts and date spans (events: the same for events)\n"
    "  stats    what the database holds and how big each part is\n"
    "  rejects  games the import rejected, and their original text\n"
    "  export-dataset  DB DIR: the games, positions and explorer as a Parquet dataset (appends)\n"
    "  key      FEN: the position's Polyglot key in hex, and as the dataset's signed key column\n";

struct FilterText {
  std::string fen, moves, eco, white, black, player, as, elo_of = "both", event, site, result, date_from, date_to,
      time_control;
  bool from_start_only = false;
  std::optional<int64_t> min_elo, max_elo, min_plies, max_plies;
};

void add_filter_options(po::options_description& d, FilterText& f, bool fen_defaults_to_start) {
  d.add_options()
      ("fen", po::value(&f.fen), fen_defaults_to_start ? "position to explore (default: the start position)"
                                                       : "games reaching this position at any ply (FEN; move counters ignored)")
      ("moves", po::value(&f.moves), "games reaching the position after these moves, by any move order "
                                     "(\"1.e4 e5 2.Nf3\"; SAN in any notation, move numbers optional)")
      ("from-start-only", po::bool_switch(&f.from_start_only), "with --moves: only games that start with exactly those moves")
      ("eco", po::value(&f.eco), "ECO code C60, range C60-C99, or volume C")
      ("white", po::value(&f.white), "White player: exact, case-insensitive; * is a wildcard")
      ("black", po::value(&f.black), "Black player (as --white)")
      ("player", po::value(&f.player), "either player (as --white)")
      ("as", po::value(&f.as), "with --player: white or black, only the games where the player has that colour")
      ("min-elo", po::value<int64_t>()->notifier([&](int64_t v) { f.min_elo = v; }), "both players rated at least this")
      ("max-elo", po::value<int64_t>()->notifier([&](int64_t v) { f.max_elo = v; }), "both players rated at most this")
      ("elo-of", po::value(&f.elo_of)->default_value(f.elo_of), "whose rating --min-elo/--max-elo test: both or either")
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
  if (!t.fen.empty() && !t.moves.empty()) throw UsageError{"--fen and --moves both name a position: give one"};
  if (t.from_start_only && t.moves.empty()) throw UsageError{"--from-start-only needs --moves"};
  if (!t.moves.empty()) {
    MoveSequence sequence;
    if (!parse_move_sequence(t.moves, sequence, error)) throw UsageError{error};
    f.position = sequence.final_position();
    if (t.from_start_only) f.opening = std::move(sequence);
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
  if (!t.as.empty()) {
    if (!f.player) throw UsageError{"--as needs --player"};
    if (t.as != "white" && t.as != "black") throw UsageError{"bad --as '" + t.as + "': expected white or black"};
    std::optional<NamePattern>& side = t.as == "white" ? f.white : f.black;
    if (side) throw UsageError{"--player with --as " + t.as + " and --" + t.as + " name the same player: give one"};
    side = std::exchange(f.player, std::nullopt);
  }
  if (t.elo_of != "both" && t.elo_of != "either") throw UsageError{"bad --elo-of '" + t.elo_of + "': expected both or either"};
  f.elo_either = t.elo_of == "either";
  f.event = name(t.event);
  f.site = name(t.site);
  f.min_elo = t.min_elo;
  f.max_elo = t.max_elo;
  if (f.min_elo && f.max_elo && *f.min_elo > *f.max_elo)
    throw UsageError{"--min-elo " + std::to_string(*f.min_elo) + " is above --max-elo " + std::to_string(*f.max_elo)};
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
  if (f.date_from_key && f.date_to_key && *f.date_from_key > *f.date_to_key)
    throw UsageError{"--date-from " + t.date_from + " is after --date-to " + t.date_to};
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
// second_argument: the name of a second positional argument (show's game id, player's
// name), or nullptr.
bool parse_command_line(int argc, char** argv, const po::options_description& visible, const char* usage,
                        std::string& db_path, po::variables_map& vm, const char* second_argument = nullptr,
                        bool first_is_fen = false) {
  po::options_description hidden;
  hidden.add_options()("db", po::value(&db_path))("timing", "print the time taken to stderr");
  if (second_argument && std::string_view(second_argument) == "id") hidden.add_options()("id", po::value<int64_t>());
  else if (second_argument) hidden.add_options()(second_argument, po::value<std::string>());
  po::options_description all;
  all.add(visible).add(hidden);
  po::positional_options_description positional;
  positional.add("db", 1);
  if (second_argument) positional.add(second_argument, 1);
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
  if (db_path.empty()) throw UsageError{std::string(first_is_fen ? "missing the FEN" : "missing the database path")};
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
  std::string db_path;
  po::variables_map vm;
  const char* usage = export_mode ? "pgn-query export DB [filters] -o FILE" : "pgn-query search DB [filters] [options]";
  if (!parse_command_line(argc, argv, d, usage, db_path, vm)) return kExitOk;

  SearchOptions search;
  search.filter = make_filter(filter_text);
  std::string error;
  if (!build_pattern(pattern_text, search.filter.pattern, error)) throw UsageError{error};
  if (!parse_order(order, search.order, error)) throw UsageError{error};
  search.descending = vm.count("desc") > 0;
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
  else if (format == "csv") out_options.format = SearchFormat::Csv;
  else throw UsageError{"bad --format '" + format + "': expected table, csv, jsonl or pgn"};
  const bool listing = out_options.format == SearchFormat::Table || out_options.format == SearchFormat::Csv;
  if (vm.count("count") && out_options.format != SearchFormat::Table)
    throw UsageError{"--count prints a number: it takes no --format " + format};
  if (listing && !vm["notation"].defaulted()) throw UsageError{"--notation applies to PGN output (--format pgn)"};
  if (listing && vm.count("no-annotations")) throw UsageError{"--no-annotations applies to PGN output (--format pgn)"};
  if (vm.count("wide") && out_options.format != SearchFormat::Table) throw UsageError{"--wide applies to the table"};
  out_options.wide = vm.count("wide") > 0;
  if (!parse_notation(notation, out_options.pgn.notation, error)) throw UsageError{error};
  out_options.pgn.annotations = !vm.count("no-annotations");
  out_options.count_only = vm.count("count") > 0;
  out_options.threads = threads;
  search.count_threads = threads;
  if (export_mode && !vm.count("output")) throw UsageError{"export needs -o FILE (- for stdout)"};

  out_options.on_corrupt = report_corrupt_game(argv[1]);
  refuse_writing_into_database(db_path, {output, "-"});
  Stopwatch stopwatch(vm.count("timing") > 0);
  store::Database db = store::open_for_reading(db_path);
  io::OutputFile out(output);
  SearchSummary summary = run_search(db, search, out_options, out);
  out.close();
  if (vm.count("timing") && search.filter.pattern)
    std::fprintf(stderr, "pgn-query: pattern: %llu games scanned, %llu replayed\n",
                 (unsigned long long)summary.pattern.games, (unsigned long long)summary.pattern.replayed);
  if (export_mode && !out.is_stdout())
    std::fprintf(stderr, "pgn-query: %s written to %s\n", plural(summary.games, "game").c_str(), output.c_str());
  return summary.corrupt ? kExitFailure : kExitOk;
}

// --format table|json|csv (--json too) of the report commands.
ReportFormat report_format(const po::variables_map& vm, const std::string& format) {
  ReportFormat f;
  if (format == "table") f = ReportFormat::Table;
  else if (format == "json" || format == "jsonl") f = ReportFormat::Json;
  else if (format == "csv") f = ReportFormat::Csv;
  else throw UsageError{"bad --format '" + format + "': expected table, json or csv"};
  if (vm.count("json")) {
    if (!vm["format"].defaulted() && f != ReportFormat::Json) throw UsageError{"--json contradicts --format " + format};
    f = ReportFormat::Json;
  }
  if (vm.count("wide") && f != ReportFormat::Table) throw UsageError{"--wide applies to the table"};
  return f;
}

void add_report_format_options(po::options_description& d, std::string& format, std::string& output) {
  d.add_options()
      ("format", po::value(&format)->default_value("table"), "table, json or csv")
      ("json", "the same as --format json")
      ("wide", "table: show every column in full")
      ("output,o", po::value(&output), "write here instead of stdout");
}

int explore_command(int argc, char** argv) {
  FilterText filter_text;
  std::string output = "-";
  ExplorerOptions options;
  po::options_description d("explore options");
  d.add_options()("help,h", "show this help");
  add_filter_options(d, filter_text, true);
  d.add_options()
      ("json", "one JSON object instead of a table")
      ("format", po::value<std::string>()->default_value("table"), "table, json or csv")
      ("no-elo", "leave out average ratings")
      ("top", po::value(&options.top_games)->default_value(5), "highest-rated games reaching the position to list (0: none)")
      ("output,o", po::value(&output), "write here instead of stdout");
  std::string db_path;
  po::variables_map vm;
  if (!parse_command_line(argc, argv, d, "pgn-query explore DB [--fen FEN] [filters]", db_path, vm)) return kExitOk;
  const ReportFormat format = report_format(vm, vm["format"].as<std::string>());
  if (filter_text.fen.empty() && filter_text.moves.empty()) filter_text.fen = std::string(kStartFen);
  options.filter = make_filter(filter_text);
  if (!filter_text.moves.empty()) {  // the positions on the way name the opening
    MoveSequence sequence;
    std::string error;
    parse_move_sequence(filter_text.moves, sequence, error);
    for (const Board& b : sequence.positions) options.path_keys.push_back(b.key());
  }
  options.ratings = !vm.count("no-elo");
  bool any_corrupt = false;
  options.on_corrupt = [&, report = report_corrupt_game(argv[1])](int64_t id, const std::string& reason) {
    any_corrupt = true;
    report(id, reason);
  };
  refuse_writing_into_database(db_path, {output, "-"});
  Stopwatch stopwatch(vm.count("timing") > 0);
  store::Database db = store::open_for_reading(db_path);
  io::OutputFile out(output);
  db.exec("BEGIN");
  ExplorerResult result = explore(db, options);
  db.exec("COMMIT");
  switch (format) {
    case ReportFormat::Table: print_explorer_table(result, out); break;
    case ReportFormat::Json: print_explorer_json(result, out); break;
    case ReportFormat::Csv: print_explorer_csv(result, out); break;
  }
  out.close();
  return any_corrupt ? kExitFailure : kExitOk;
}

int stats_command(int argc, char** argv) {
  std::string format, output = "-";
  po::options_description d("stats options");
  d.add_options()("help,h", "show this help");
  add_report_format_options(d, format, output);
  std::string db_path;
  po::variables_map vm;
  if (!parse_command_line(argc, argv, d, "pgn-query stats DB [--format table|json|csv] [--wide]", db_path, vm))
    return kExitOk;
  StatsOptions options{report_format(vm, format), vm.count("wide") > 0};
  refuse_writing_into_database(db_path, {output, "-"});
  Stopwatch stopwatch(vm.count("timing") > 0);
  store::Database db = store::open_for_reading(db_path);
  io::OutputFile out(output);
  print_stats(db, options, out);
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
      ("output,o", po::value(&options.text_path),
       "write the rejected games' original text to this file and print only their count")
      ("json", "JSON lines instead of a table")
      ("wide", "table: show every column in full");
  std::string db_path;
  po::variables_map vm;
  if (!parse_command_line(argc, argv, d, "pgn-query rejects DB [--kind K] [--reason R] [-o FILE]", db_path, vm))
    return kExitOk;
  options.json = vm.count("json") > 0;
  options.wide = vm.count("wide") > 0;
  if (options.wide && options.json) throw UsageError{"--wide applies to the table"};
  const bool text_to_file = !options.text_path.empty() && options.text_path != "-";
  if (text_to_file && (options.json || options.wide))
    throw UsageError{"-o FILE writes the games and prints only their count: no --json or --wide"};
  std::vector<std::string> outputs = {"-"};
  if (!options.text_path.empty()) outputs.push_back(options.text_path);
  refuse_writing_into_database(db_path, outputs);
  store::Database db = store::open_for_reading(db_path);
  io::OutputFile out("-");
  options.list = !text_to_file;
  db.exec("BEGIN");
  int64_t n = print_rejects(db, options, out);
  db.exec("COMMIT");
  if (text_to_file)
    out.buffer() += plural(n, "rejected game") + " written to " + options.text_path + "\n";
  out.close();
  return kExitOk;
}

int show_command(int argc, char** argv) {
  ShowOptions options;
  std::string format = "text", notation = "san", output = "-";
  po::options_description d("show options");
  d.add_options()
      ("help,h", "show this help")
      ("ply", po::value<int64_t>()->notifier([&](int64_t v) { options.ply = v; }),
       "the position after this many half-moves (0: the start) as a board with its FEN")
      ("format", po::value(&format)->default_value(format), "text, pgn or jsonl")
      ("notation", po::value(&notation)->default_value(notation), "moves: san, long, uci, figurine, de, nl, fr, ...")
      ("no-annotations", "leave out comments, NAGs and variations")
      ("output,o", po::value(&output), "write here instead of stdout");
  std::string db_path;
  po::variables_map vm;
  const char* usage = "pgn-query show DB ID [--ply N] [--format text|pgn|jsonl] [--notation N]";
  if (!parse_command_line(argc, argv, d, usage, db_path, vm, "id")) return kExitOk;
  if (!vm.count("id")) throw UsageError{"missing the game id (search lists them)"};
  options.id = vm["id"].as<int64_t>();
  if (format == "text") options.format = ShowFormat::Text;
  else if (format == "pgn") options.format = ShowFormat::Pgn;
  else if (format == "jsonl" || format == "json") options.format = ShowFormat::Jsonl;
  else throw UsageError{"bad --format '" + format + "': expected text, pgn or jsonl"};
  std::string error;
  if (!parse_notation(notation, options.pgn.notation, error)) throw UsageError{error};
  if (options.format == ShowFormat::Jsonl && !vm["notation"].defaulted())
    throw UsageError{"--notation applies to the text and PGN views (JSON moves are SAN)"};
  if (options.ply && options.format == ShowFormat::Pgn)
    throw UsageError{"--ply shows a position: use the text view or --format jsonl"};
  if (options.ply && *options.ply < 0) throw UsageError{"--ply must not be negative"};
  options.pgn.annotations = !vm.count("no-annotations");
  refuse_writing_into_database(db_path, {output, "-"});
  store::Database db = store::open_for_reading(db_path);
  io::OutputFile out(output);
  const ShowResult shown = show_game(db, options, out);
  switch (shown.status) {
    case ShowStatus::Shown: break;
    case ShowStatus::NoSuchGame:
      std::fprintf(stderr, "pgn-query show: no game %lld (the ids run from 1 to %lld)\n", (long long)options.id,
                   (long long)shown.max_id);
      return kExitFailure;
    case ShowStatus::PlyOutOfRange:
      throw UsageError{"--ply " + std::to_string(*options.ply) + " is past the end: game " +
                       std::to_string(options.id) + " has " + plural(shown.plies, "ply", "plies")};
    case ShowStatus::Corrupt:
      std::fprintf(stderr, "pgn-query show: game %lld is corrupt: its stored moves or tags do not decode\n",
                   (long long)options.id);
      return kExitFailure;
  }
  out.close();
  return kExitOk;
}

int player_command(int argc, char** argv) {
  PlayerReportOptions options;
  std::string format, output = "-";
  int64_t top = 10;
  po::options_description d("player options");
  d.add_options()("help,h", "show this help")
      ("top", po::value(&top)->default_value(top), "lines of the openings and opponents lists (0: all)");
  add_report_format_options(d, format, output);
  std::string db_path;
  po::variables_map vm;
  const char* usage = "pgn-query player DB NAME [--top N] [--format table|json|csv]\n"
                      "NAME is matched as --player matches it (search --help)";
  if (!parse_command_line(argc, argv, d, usage, db_path, vm, "name")) return kExitOk;
  if (!vm.count("name") || vm["name"].as<std::string>().empty()) throw UsageError{"missing the player's name"};
  if (top < 0) throw UsageError{"--top must not be negative"};
  options.name = NamePattern{vm["name"].as<std::string>()};
  options.top = size_t(top);
  const ReportFormat f = report_format(vm, format);
  refuse_writing_into_database(db_path, {output, "-"});
  Stopwatch stopwatch(vm.count("timing") > 0);
  store::Database db = store::open_for_reading(db_path);
  const PlayerReport report = build_player_report(db, options);
  if (report.total.games == 0) {
    std::fprintf(stderr, "pgn-query player: no games of '%s' (pgn-query players DB --like '*NAME*' lists names)\n",
                 options.name.text.c_str());
    return kExitFailure;
  }
  io::OutputFile out(output);
  print_player_report(report, f, vm.count("wide") > 0, out);
  out.close();
  return kExitOk;
}

int names_command(int argc, char** argv, bool events) {
  NameListOptions options;
  options.events = events;
  std::string format, output = "-", like;
  int64_t limit = 0;
  po::options_description d(events ? "events options" : "players options");
  d.add_options()("help,h", "show this help")
      ("like", po::value(&like), events ? "only events matching this pattern (as --event)"
                                        : "only names matching this pattern (as --player)")
      ("min-games", po::value(&options.min_games)->default_value(1), "only names with at least this many games")
      ("limit", po::value(&limit), "at most this many names");
  add_report_format_options(d, format, output);
  std::string db_path;
  po::variables_map vm;
  const char* usage = events ? "pgn-query events DB [--like PATTERN] [--min-games N] [--limit N]"
                             : "pgn-query players DB [--like PATTERN] [--min-games N] [--limit N]";
  if (!parse_command_line(argc, argv, d, usage, db_path, vm)) return kExitOk;
  if (!like.empty()) options.like = NamePattern{like};
  if (options.min_games < 0) throw UsageError{"--min-games must not be negative"};
  if (vm.count("limit")) {
    if (limit < 0) throw UsageError{"--limit must not be negative"};
    options.limit = limit;
  }
  const ReportFormat f = report_format(vm, format);
  refuse_writing_into_database(db_path, {output, "-"});
  Stopwatch stopwatch(vm.count("timing") > 0);
  store::Database db = store::open_for_reading(db_path);
  io::OutputFile out(output);
  print_name_list(list_names(db, options), events, f, vm.count("wide") > 0, out);
  out.close();
  return kExitOk;
}

int export_dataset_command(int argc, char** argv) {
  dataset::ExportOptions options;
  std::string dir;
  po::options_description d("export-dataset options");
  d.add_options()
      ("help,h", "show this help")
      ("bucket-bits", po::value<int>()->notifier([&](int v) { options.bucket_bits = v; }),
       "positions/ and explorer/ buckets kb=N: the key's top bits (0-12; default 6 for a new dataset, "
       "an existing one's own)");
  std::string db_path;
  po::variables_map vm;
  if (!parse_command_line(argc, argv, d, "pgn-query export-dataset DB DIR [--bucket-bits N]", db_path, vm, "dir"))
    return kExitOk;
  if (vm.count("dir")) dir = vm["dir"].as<std::string>();
  if (dir.empty()) throw UsageError{"missing the dataset folder DIR"};
  if (options.bucket_bits && (*options.bucket_bits < 0 || *options.bucket_bits > dataset::kMaxBucketBits))
    throw UsageError{"--bucket-bits must be 0.." + std::to_string(dataset::kMaxBucketBits)};
  // What an export killed with kill -9 left in DIR is removed first, in one line.
  options.on_stale_files = [&dir](const dataset::StaleExportFiles& stale) {
    std::string pids;
    for (pid_t pid : stale.pids) pids += (pids.empty() ? "" : ", ") + std::to_string(pid);
    std::fprintf(stderr, "pgn-query export-dataset: removed %s (%.1f MiB) left in %s by ended exports (pid %s)\n",
                 plural(int64_t(stale.files), "temporary file").c_str(), double(stale.bytes) / double(1 << 20),
                 printable(dir).c_str(), pids.c_str());
  };
  Stopwatch stopwatch(vm.count("timing") > 0);
  store::Database db = store::open_for_reading(db_path);
  const auto started = std::chrono::steady_clock::now();
  const dataset::ExportSummary s = dataset::export_dataset(db, dir, options);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  // A game too long for the dataset is skipped and named; the command then exits 1, as
  // export does for the games it cannot write.
  for (const auto& [id, plies] : s.skipped_games)
    std::fprintf(stderr, "pgn-query export-dataset: game %lld skipped: %lld plies, more than the dataset's %zu\n",
                 (long long)id, (long long)plies, dataset::kMaxPlies);
  if (s.export_number == 0) {
    std::printf("%s: nothing new to export (every game is in the dataset)\n", dir.c_str());
    return kExitOk;
  }
  std::string changes;
  if (s.moved_games > 0)
    changes += ", " + std::to_string(s.moved_games) + " games written again under the source they moved to";
  if (!s.removed_sources.empty()) {
    changes += ", removed source" + std::string(s.removed_sources.size() == 1 ? "" : "s");
    for (int64_t id : s.removed_sources) changes += " " + std::to_string(id);
    changes += " (" + std::to_string(s.removed_games) + " games gone)";
  }
  const std::string games = s.games > 0 ? "games " + std::to_string(s.first_game_id) + ".." +
                                              std::to_string(s.last_game_id) + ", " + std::to_string(s.games) +
                                              " games"
                                        : std::string("no new games");
  if (!s.skipped_games.empty()) changes += ", " + plural(int64_t(s.skipped_games.size()), "game") + " skipped";
  std::printf("%s: export %d: %s%s, %llu positions, %llu explorer rows, %llu files, "
              "%llu bytes in %.2f s (%.0f games/s)\n",
              dir.c_str(), s.export_number, games.c_str(), changes.c_str(),
              (unsigned long long)s.postings, (unsigned long long)s.explorer_rows, (unsigned long long)s.files,
              (unsigned long long)s.bytes, seconds, double(s.games + s.moved_games) / std::max(seconds, 1e-9));
  return s.skipped_games.empty() ? kExitOk : kExitFailure;
}

int key_command(int argc, char** argv) {
  int bucket_bits = dataset::ExportOptions::kDefaultBucketBits;
  po::options_description d("key options");
  d.add_options()("help,h", "show this help")(
      "bucket-bits", po::value(&bucket_bits)->default_value(bucket_bits), "the dataset's bucket bits, for kb=N");
  std::string fen;
  po::variables_map vm;
  if (!parse_command_line(argc, argv, d, "pgn-query key FEN", fen, vm, nullptr, true)) return kExitOk;
  if (bucket_bits < 0 || bucket_bits > 12) throw UsageError{"--bucket-bits must be 0..12"};
  Board board;
  if (auto e = parse_fen(fen, board)) throw UsageError{"bad FEN: " + e->message};
  std::printf("%016llx kb=%u %lld\n", (unsigned long long)board.key(), dataset::key_bucket(board.key(), bucket_bits),
              (long long)dataset::signed_key(board.key()));
  return kExitOk;
}

// Runs one command; its exit status. Every error becomes one line on stderr.
int run_command(const std::string& command, int argc, char** argv) {
  try {
    if (command == "search") return search_command(argc, argv, false);
    if (command == "export") return search_command(argc, argv, true);
    if (command == "explore") return explore_command(argc, argv);
    if (command == "stats") return stats_command(argc, argv);
    if (command == "rejects") return rejects_command(argc, argv);
    if (command == "export-dataset") return export_dataset_command(argc, argv);
    if (command == "key") return key_command(argc, argv);
    if (command == "show") return show_command(argc, argv);
    if (command == "player") return player_command(argc, argv);
    if (command == "players") return names_command(argc, argv, false);
    if (command == "events") return names_command(argc, argv, true);
    std::fprintf(stderr, "pgn-query: unknown command '%s'\n%s", command.c_str(), kOverview);
    return kExitUsage;
  } catch (const RefusedOutput& e) {
    std::fprintf(stderr, "pgn-query %s: %s\n", command.c_str(), e.message.c_str());
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

}  // namespace

int main(int argc, char** argv) {
  // A file-size limit (ulimit -f) must end in a clear error, not a silent kill.
  std::signal(SIGXFSZ, SIG_IGN);
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
  const int status = run_command(command, argc, argv);
  // What went to standard output is the command's answer: losing it (a full disk,
  // /dev/full) is a failure, said in one line (once: a command that failed said why).
  if (status == kExitOk && (std::fflush(stdout) != 0 || std::ferror(stdout))) {
    std::fprintf(stderr, "pgn-query %s: cannot write to standard output: %s\n", command.c_str(), std::strerror(errno));
    return kExitFailure;
  }
  return status;
}

