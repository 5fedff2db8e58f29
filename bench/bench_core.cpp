// Core kernels: perft, make/unmake, legal move generation, FEN parse/write and key
// computation. Positions for the per-position kernels are the 6,838 of
// tests/data/perft/python-chess-random.perft (varied middlegames and endgames).
#include <benchmark/benchmark.h>

#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "core/board.h"
#include "core/fen.h"
#include "core/movegen.h"

namespace {

using namespace pgnbase;

constexpr const char* kKiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

std::vector<std::string> load_fens() {
  std::vector<std::string> fens;
  std::ifstream in(PGNBASE_SOURCE_DIR "/tests/data/perft/python-chess-random.perft");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("epd ", 0) == 0) fens.push_back(line.substr(4) + " 0 1");
  return fens;
}

const std::vector<std::string>& fens() {
  static const std::vector<std::string> all = load_fens();
  return all;
}

const std::vector<Board>& boards() {
  static const std::vector<Board> all = [] {
    std::vector<Board> parsed;
    for (const auto& fen : fens()) {
      if (Parsed<Board> board = parse_fen(fen)) parsed.push_back(*board);
    }
    return parsed;
  }();
  return all;
}

// Checks the count too: a fast wrong perft is worthless.
void run_perft(benchmark::State& state, std::string_view fen, int depth, uint64_t expected) {
  const Parsed<Board> parsed = parse_fen(fen);
  if (!parsed) return state.SkipWithError("bad FEN");
  Board board = *parsed;
  uint64_t nodes = 0;
  for (auto _ : state) {
    nodes = perft(board, depth);
    benchmark::DoNotOptimize(nodes);
  }
  if (nodes != expected) state.SkipWithError("wrong node count");
  state.counters["nodes"] = double(nodes);
  state.counters["nodes/s"] = benchmark::Counter(double(nodes) * double(state.iterations()), benchmark::Counter::kIsRate);
}

void BM_PerftStartPositionDepth5(benchmark::State& state) {
  run_perft(state, kStartFen, 5, 4865609);
}
BENCHMARK(BM_PerftStartPositionDepth5)->Unit(benchmark::kMillisecond);

void BM_PerftKiwipeteDepth4(benchmark::State& state) { run_perft(state, kKiwipete, 4, 4085603); }
BENCHMARK(BM_PerftKiwipeteDepth4)->Unit(benchmark::kMillisecond);

// Generation alone, one position after another.
void BM_GenerateLegalMoves(benchmark::State& state) {
  const auto& all = boards();
  if (all.empty()) return state.SkipWithError("no positions: tests/data/perft missing");
  size_t i = 0, moves = 0;
  for (auto _ : state) {
    MoveList list;
    generate_legal_moves(all[i], list);
    benchmark::DoNotOptimize(list);
    moves += list.size();
    if (++i == all.size()) i = 0;
  }
  state.SetItemsProcessed(int64_t(state.iterations()));  // items = positions
  state.counters["moves/s"] = benchmark::Counter(double(moves), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_GenerateLegalMoves);

// do_move + undo_move of every legal move of each position (includes the incremental key).
void BM_MakeUnmake(benchmark::State& state) {
  std::vector<Board> all = boards();
  std::vector<MoveList> lists(all.size());
  for (size_t i = 0; i < all.size(); ++i) generate_legal_moves(all[i], lists[i]);
  if (all.empty()) return state.SkipWithError("no positions: tests/data/perft missing");
  size_t i = 0;
  int64_t moves = 0;
  for (auto _ : state) {
    Board& board = all[i];
    UndoInfo undo;
    for (Move m : lists[i]) {
      board.do_move(m, undo);
      benchmark::DoNotOptimize(board.key());
      board.undo_move(m, undo);
    }
    moves += int64_t(lists[i].size());
    if (++i == all.size()) i = 0;
  }
  state.SetItemsProcessed(moves);  // items = do/undo pairs
}
BENCHMARK(BM_MakeUnmake);

void BM_ParseFen(benchmark::State& state) {
  const auto& all = fens();
  if (all.empty()) return state.SkipWithError("no positions: tests/data/perft missing");
  size_t i = 0;
  int64_t bytes = 0;
  for (auto _ : state) {
    auto board = parse_fen(all[i]);
    benchmark::DoNotOptimize(board);
    bytes += int64_t(all[i].size());
    if (++i == all.size()) i = 0;
  }
  state.SetItemsProcessed(int64_t(state.iterations()));
  state.SetBytesProcessed(bytes);
}
BENCHMARK(BM_ParseFen);

void BM_WriteFen(benchmark::State& state) {
  const auto& all = boards();
  if (all.empty()) return state.SkipWithError("no positions: tests/data/perft missing");
  size_t i = 0;
  for (auto _ : state) {
    std::string fen = write_fen(all[i]);
    benchmark::DoNotOptimize(fen);
    if (++i == all.size()) i = 0;
  }
  state.SetItemsProcessed(int64_t(state.iterations()));
}
BENCHMARK(BM_WriteFen);

// The full recomputation; do_move keeps the key incrementally instead.
void BM_ComputeKey(benchmark::State& state) {
  const auto& all = boards();
  if (all.empty()) return state.SkipWithError("no positions: tests/data/perft missing");
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(all[i].compute_key());
    if (++i == all.size()) i = 0;
  }
  state.SetItemsProcessed(int64_t(state.iterations()));
}
BENCHMARK(BM_ComputeKey);

}  // namespace

BENCHMARK_MAIN();
