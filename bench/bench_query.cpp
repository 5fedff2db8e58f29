// Query library: FEN search (count, first games, raw index candidates), ECO and player
// searches, the opening explorer and PGN export, on a database built by pgn-index:
//   PGNBASE_BENCH_DB=all.db build/bench/bench_query
// Every benchmark reports how many games it found (a fast wrong answer shows), and
// each query runs in one read transaction, as pgn-query runs it.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>

#include "core/board.h"
#include "core/fen.h"
#include "store/database.h"
#include "store/read_snapshot.h"
#include "query/database_report.h"
#include "search/explorer.h"
#include "search/game_filter.h"
#include "search/game_search.h"
#include "io/output_file.h"
#include "search/position_search.h"
#include "query/search_output.h"
#include "store/schema_version.h"

namespace {

using namespace pgnbase;
using namespace pgnbase::query;

constexpr std::string_view kAfterE4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
constexpr std::string_view kRuyLopez = "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3";

struct NamedFen {
  const char* name;
  std::string_view fen;
};

// From common to rare: the middlegame and endgame positions occur in one lichess game each.
constexpr NamedFen kPositions[] = {
    {"after 1.e4", kAfterE4},
    {"Ruy Lopez", kRuyLopez},
    {"middlegame", "3r4/ppq2pbk/1np1r1pp/4p2n/PPN1P3/2P3PP/3B1P2/R1Q1RBK1 w - - 10 21"},
    {"endgame", "8/8/4N3/8/8/2Q5/k1K5/8 b - - 24 95"},
};

constexpr std::string_view kPlayer = "drnykterstein";

// The database under test: opened read-only once in main, used by one thread at a time.
store::Database* g_db = nullptr;

[[noreturn]] void fail(const std::string& message) {
  std::fprintf(stderr, "bench_query: %s\n", message.c_str());
  std::exit(1);
}

Board parse_position(std::string_view fen) {
  Parsed<Board> board = parse_fen(fen);
  if (!board) fail("bad FEN '" + std::string(fen) + "': " + board.error());
  return *board;
}

search::SearchOptions position_search(std::string_view fen) {
  search::SearchOptions options;
  options.filter.position = parse_position(fen);
  return options;
}

search::SearchOptions eco_search(std::string_view eco) {
  search::SearchOptions options;
  Parsed<search::EcoRange> range = search::parse_eco_range(eco);
  if (!range) fail(range.error());
  options.filter.eco = *range;
  return options;
}

search::SearchOptions player_search() {
  search::SearchOptions options;
  options.filter.player = search::NamePattern{std::string(kPlayer)};
  return options;
}

search::SearchOptions first(search::SearchOptions options, int64_t limit, search::GameOrder order = search::GameOrder::Id) {
  options.limit = limit;
  options.order = order;
  return options;
}

// Counts the matching games, as `pgn-query search --count` does.
int64_t count_games(const search::SearchOptions& options) {
  store::ReadSnapshot snapshot(*g_db);
  search::GameSearch search(*g_db, options);
  return search.count();
}

// Reads each matching game's row as a table printer would; returns how many came.
int64_t read_games(const search::SearchOptions& options) {
  store::ReadSnapshot snapshot(*g_db);
  search::GameSearch search(*g_db, options);
  int64_t games = 0, touched = 0;
  while (search.next()) {
    const store::GameRow& row = search.row();
    touched += row.plies + int64_t(row.white ? row.white->size() : 0) + int64_t(search.plies().size());
    ++games;
  }
  benchmark::DoNotOptimize(touched);
  return games;
}

void report_games(benchmark::State& state, int64_t games) { state.counters["games"] = double(games); }

// count() of a common position confirms its candidates on several threads.
void BM_FenCount(benchmark::State& state) {
  const NamedFen& position = kPositions[state.range(0)];
  const search::SearchOptions options = position_search(position.fen);
  int64_t games = 0;
  for (auto _ : state) games = count_games(options);
  state.SetLabel(position.name);
  report_games(state, games);
}
BENCHMARK(BM_FenCount)->ArgName("position")->DenseRange(0, 3)->Unit(benchmark::kMillisecond)->UseRealTime();

// A limit confirms only about as many candidates as it returns, however common the position.
void BM_FenFirst20RuyLopez(benchmark::State& state) {
  const search::SearchOptions options = first(position_search(kRuyLopez), 20);
  int64_t games = 0;
  for (auto _ : state) games = read_games(options);
  report_games(state, games);
}
BENCHMARK(BM_FenFirst20RuyLopez)->Unit(benchmark::kMillisecond);

// The index lookup alone (no replay): the floor under every position search.
void BM_FenCandidatesAfterE4(benchmark::State& state) {
  const Board position = parse_position(kAfterE4);
  search::PositionCandidates candidates;
  for (auto _ : state) {
    store::ReadSnapshot snapshot(*g_db);
    search::find_candidates(*g_db, position, candidates);
  }
  state.counters["postings"] = double(candidates.postings.size());
  state.counters["candidate_games"] = double(candidates.games.size());
}
BENCHMARK(BM_FenCandidatesAfterE4)->Unit(benchmark::kMillisecond);

// An ECO range is counted by SQL alone, from the eco index.
void BM_EcoCountC60C99(benchmark::State& state) {
  const search::SearchOptions options = eco_search("C60-C99");
  int64_t games = 0;
  for (auto _ : state) games = count_games(options);
  report_games(state, games);
}
BENCHMARK(BM_EcoCountC60C99)->Unit(benchmark::kMillisecond);

void BM_EcoFirst50B90(benchmark::State& state) {
  const search::SearchOptions options = first(eco_search("B90"), 50);
  int64_t games = 0;
  for (auto _ : state) games = read_games(options);
  report_games(state, games);
}
BENCHMARK(BM_EcoFirst50B90)->Unit(benchmark::kMillisecond);

// Names go through the names table first, then the games' player indexes.
void BM_PlayerCount(benchmark::State& state) {
  const search::SearchOptions options = player_search();
  int64_t games = 0;
  for (auto _ : state) games = count_games(options);
  report_games(state, games);
}
BENCHMARK(BM_PlayerCount)->Unit(benchmark::kMillisecond);

// Input order: the ids come from the player indexes alone, then 50 rows by id.
void BM_PlayerFirst50(benchmark::State& state) {
  const search::SearchOptions options = first(player_search(), 50);
  int64_t games = 0;
  for (auto _ : state) games = read_games(options);
  report_games(state, games);
}
BENCHMARK(BM_PlayerFirst50)->Unit(benchmark::kMillisecond);

// Ordering by date sorts the passing games' ids (dates from the player indexes) first.
void BM_PlayerFirst50ByDate(benchmark::State& state) {
  const search::SearchOptions options = first(player_search(), 50, search::GameOrder::Date);
  int64_t games = 0;
  for (auto _ : state) games = read_games(options);
  report_games(state, games);
}
BENCHMARK(BM_PlayerFirst50ByDate)->Unit(benchmark::kMillisecond);

// Argument: minimum Elo of both players, 0 for none. Without filters the postings and
// the mover's rating index answer; with one the passing games are merged in by id.
void BM_ExploreStartPosition(benchmark::State& state) {
  search::ExplorerOptions options;
  options.filter.position = Board();
  if (state.range(0) > 0) options.filter.min_elo = state.range(0);
  search::ExplorerResult result;
  for (auto _ : state) {
    store::ReadSnapshot snapshot(*g_db);
    result = search::explore(*g_db, options);
  }
  report_games(state, int64_t(result.games));
  state.counters["moves"] = double(result.moves.size());
}
BENCHMARK(BM_ExploreStartPosition)->ArgName("min_elo")->Arg(0)->Arg(2200)->Unit(benchmark::kMillisecond);

// Every game as PGN, formatted on run_search's threads, written to /dev/null.
void BM_ExportAllPgn(benchmark::State& state) {
  SearchOutputOptions output;
  output.format = OutputFormat::Pgn;
  io::OutputFile sink("/dev/null");
  int64_t games = 0, total = 0;
  for (auto _ : state) {
    games = run_search(*g_db, search::SearchOptions{}, output, sink).games;
    sink.flush();
    total += games;
  }
  report_games(state, games);
  state.counters["games/s"] = benchmark::Counter(double(total), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ExportAllPgn)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  const char* path = std::getenv("PGNBASE_BENCH_DB");
  if (!path || !*path) fail("set PGNBASE_BENCH_DB to a database built by pgn-index");
  if (!std::filesystem::exists(path)) fail(std::string("PGNBASE_BENCH_DB: no such file: ") + path);
  try {
    store::Database db = store::open_for_reading(path);
    g_db = &db;
    benchmark::RunSpecifiedBenchmarks();
    g_db = nullptr;
  } catch (const std::exception& e) {
    fail(e.what());
  }
  benchmark::Shutdown();
  return 0;
}
