// Position index: build speed and bytes per posting, and lookup latency, on two corpora:
//   synthetic: 100,000 random legal games of up to 80 plies; during the first 10 plies
//              each move is one of the 3 legal moves with the smallest move codes, so
//              openings repeat as in real databases; later moves are uniform.
//   lichess:   the standard-chess games of ../shared/data/bench/lichess-api-exports-*.pgn.zst
//              (46,620 games, 3.67M positions), replayed with core's SAN replayer.
// Each segment is built once per run (Iterations(1)); lookups then run on that database.
// Counters: B/posting = block bytes / postings; file_B/posting = whole database file
// / postings (SQLite pages, index and slack included); then block bytes per section.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <unistd.h>
#include <vector>

#include "core/board.h"
#include "core/fen.h"
#include "core/move_code.h"
#include "core/movegen.h"
#include "core/pgn_reader.h"
#include "core/replay.h"
#include "indexer/input_source.h"
#include "indexer/position_index.h"
#include "store/database.h"

namespace {

using namespace pgnbase;
using namespace pgnbase::indexer;
namespace fs = std::filesystem;

constexpr uint64_t kStartPositionKey = 0x463b96181691fc9cull;
const fs::path kLichessFile =
    fs::path(PGNBASE_SOURCE_DIR) / ".." / "shared" / "data" / "bench" / "lichess-api-exports-2018-2022.pgn.zst";

struct Corpus {
  std::vector<store::Posting> postings;
  uint32_t games = 0;
};

store::GameResult random_result(std::mt19937_64& random) {
  // Roughly lichess's shares: 48% White wins, 5% draws, 47% Black wins.
  uint64_t r = random() % 100;
  return r < 48 ? store::GameResult::WhiteWin : r < 53 ? store::GameResult::Draw : store::GameResult::BlackWin;
}

Corpus make_synthetic_corpus() {
  constexpr uint32_t kGames = 100'000;
  constexpr int kPlies = 80;
  constexpr int kOpeningPlies = 10;
  constexpr size_t kOpeningChoices = 3;
  Corpus corpus;
  corpus.postings.reserve(size_t{kGames} * (kPlies + 1));
  std::mt19937_64 random(20240601);
  std::vector<UndoInfo> undo(kPlies);
  std::vector<Move> sorted;
  for (uint32_t game = 1; game <= kGames; ++game) {
    Board board;
    store::GameResult result = random_result(random);
    for (int ply = 0;; ++ply) {
      MoveList list;
      if (ply < kPlies) generate_legal_moves(board, list);
      if (list.empty()) {
        corpus.postings.push_back(store::Posting{board.key(), game, static_cast<uint16_t>(ply), 0, result});
        break;
      }
      Move move;
      if (ply < kOpeningPlies) {
        sorted.assign(list.begin(), list.end());
        std::sort(sorted.begin(), sorted.end(), [](Move a, Move b) { return a.raw() < b.raw(); });
        move = sorted[random() % std::min(kOpeningChoices, sorted.size())];
      } else {
        move = list[random() % list.size()];
      }
      corpus.postings.push_back(store::Posting{board.key(), game, static_cast<uint16_t>(ply), encode_move(board, move), result});
      board.do_move(move, undo[ply]);
    }
  }
  corpus.games = kGames;
  return corpus;
}

// Collects a game's main-line move tokens and the tags that decide how to replay it.
struct GameTokens : PgnVisitorBase {
  std::vector<std::string_view> tokens;
  int depth = 0;
  std::string fen, variant, result_tag;
  bool ok = false;
  void begin_game(uint64_t, uint32_t) {
    tokens.clear();
    depth = 0;
    fen.clear();
    variant.clear();
    result_tag.clear();
  }
  void tag(std::string_view name, std::string_view value) {
    if (name == "FEN") fen = value;
    if (name == "Variant") variant = value;
    if (name == "Result") result_tag = value;
  }
  void move(std::string_view token) {
    if (depth == 0) tokens.push_back(token);
  }
  void begin_variation() { ++depth; }
  void end_variation() { --depth; }
  void end_game(const GameText&, const PgnError* error) { ok = error == nullptr; }
};

Corpus make_lichess_corpus() {
  Corpus corpus;
  if (!fs::exists(kLichessFile)) return corpus;
  InputSource source = InputSource::open(kLichessFile.string());
  std::string text;
  std::vector<char> buffer(1 << 20);
  while (size_t n = source.read(buffer.data(), buffer.size())) text.append(buffer.data(), n);
  PgnReader reader(text);
  GameTokens game;
  ReplayOutput replayed;
  ReplayFailure failure;
  while (reader.read_game(game)) {
    if (!game.ok) continue;
    if (!game.variant.empty() && game.variant != "Standard" && game.variant != "From Position") continue;
    Board board;
    if (!game.fen.empty()) {
      Parsed<Board> parsed = parse_fen(game.fen);
      if (!parsed) continue;
      board = *parsed;
    }
    replayed.clear();
    if (!replay_moves(board, game.tokens, nullptr, replayed, failure)) continue;
    uint32_t id = ++corpus.games;
    store::GameResult result = game.result_tag == "1-0"       ? store::GameResult::WhiteWin
                        : game.result_tag == "1/2-1/2" ? store::GameResult::Draw
                        : game.result_tag == "0-1"     ? store::GameResult::BlackWin
                                                       : store::GameResult::Unknown;
    for (size_t ply = 0; ply < replayed.keys.size(); ++ply)
      corpus.postings.push_back(store::Posting{replayed.keys[ply], id, static_cast<uint16_t>(ply),
                                        ply < replayed.codes.size() ? replayed.codes[ply] : uint16_t{0}, result});
  }
  return corpus;
}

const Corpus& corpus(int which) {
  static const Corpus synthetic = make_synthetic_corpus();
  static const Corpus lichess = make_lichess_corpus();
  return which == 0 ? synthetic : lichess;
}

// A database file removed when the program ends.
struct TempDatabase {
  fs::path path;
  explicit TempDatabase(const std::string& name)
      : path(fs::temp_directory_path() / ("pgnbase-bench-" + name + "-" + std::to_string(::getpid()) + ".db")) {
    remove();
  }
  ~TempDatabase() { remove(); }
  void remove() {
    for (const char* suffix : {"", "-wal", "-shm", "-journal"}) fs::remove(path.string() + suffix);
  }
};

struct BuiltIndex {
  std::unique_ptr<TempDatabase> file;
  store::SegmentStats stats;
  store::PostingBlockSizes sections;
  uint64_t file_bytes = 0;
  size_t runs = 0;
  double seconds = 0;
};

BuiltIndex build(const Corpus& corpus, const std::string& name, const PositionIndexOptions& options) {
  BuiltIndex built;
  built.file = std::make_unique<TempDatabase>(name);
  store::Database db(built.file->path.string(), store::Database::Mode::Create);
  db.configure_for_bulk_load();
  store::create_position_index_schema(db);
  auto start = std::chrono::steady_clock::now();
  PositionIndexBuilder builder(options);
  for (const store::Posting& posting : corpus.postings) builder.add(posting);
  store::Transaction transaction(db);
  built.stats = builder.write_segment(db, 1);
  transaction.commit();
  built.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  built.sections = builder.section_totals();
  built.runs = builder.runs_spilled();
  db.checkpoint_wal();
  built.file_bytes = fs::file_size(built.file->path);
  return built;
}

// The lookup benchmarks' databases: one default segment per corpus, built on first use.
const BuiltIndex& default_index(int which) {
  static std::map<int, BuiltIndex> built;
  auto it = built.find(which);
  if (it == built.end()) it = built.emplace(which, build(corpus(which), "lookup" + std::to_string(which), {})).first;
  return it->second;
}

void report_build(benchmark::State& state, const BuiltIndex& built) {
  double postings = static_cast<double>(built.stats.postings);
  state.counters["postings"] = postings;
  state.counters["postings/s"] = postings / built.seconds;
  state.counters["B/posting"] = built.stats.bytes_per_posting();
  state.counters["file_B/posting"] = static_cast<double>(built.file_bytes) / postings;
  state.counters["runs"] = static_cast<double>(built.runs);
  const auto& s = built.sections.stored;
  state.counters["keys_B"] = static_cast<double>(s[0] + s[1] + s[8]) / postings;
  state.counters["games_B"] = static_cast<double>(s[2] + s[3]) / postings;
  state.counters["plies_B"] = static_cast<double>(s[4]) / postings;
  state.counters["moves_B"] = static_cast<double>(s[5] + s[6]) / postings;
  state.counters["results_B"] = static_cast<double>(s[7]) / postings;
  state.counters["distinct_keys"] = static_cast<double>(built.stats.distinct_keys);
}

// args: corpus (0 synthetic, 1 lichess), key_bits, memory budget in MiB.
void BM_BuildSegment(benchmark::State& state) {
  const Corpus& data = corpus(static_cast<int>(state.range(0)));
  if (data.postings.empty()) return state.SkipWithError("corpus file missing");
  PositionIndexOptions options;
  options.key_bits = static_cast<int>(state.range(1));
  options.memory_budget_bytes = static_cast<size_t>(state.range(2)) << 20;
  BuiltIndex built;
  for (auto _ : state) built = build(data, "build", options);
  report_build(state, built);
  state.SetLabel(state.range(0) == 0 ? "synthetic" : "lichess");
}
BENCHMARK(BM_BuildSegment)
    ->ArgNames({"corpus", "key_bits", "budget_MiB"})
    ->Args({0, 64, 1024})
    ->Args({0, 64, 64})
    ->Args({0, 40, 1024})
    ->Args({0, 32, 1024})
    ->Args({1, 64, 1024})
    ->Args({1, 64, 16})
    ->Args({1, 40, 1024})
    ->Args({1, 32, 1024})
    ->Args({1, 24, 1024})
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

// Keys occurring in exactly one game of the corpus (most positions after the opening).
std::vector<uint64_t> rare_keys(const Corpus& data) {
  std::map<uint64_t, int> counts;
  std::mt19937_64 random(5);
  std::vector<uint64_t> sample;
  for (int i = 0; i < 4000; ++i) sample.push_back(data.postings[random() % data.postings.size()].key);
  for (uint64_t key : sample) counts[key] = 0;
  for (const store::Posting& posting : data.postings)
    if (auto it = counts.find(posting.key); it != counts.end()) ++it->second;
  std::vector<uint64_t> keys;
  for (const auto& [key, count] : counts)
    if (count == 1) keys.push_back(key);
  std::shuffle(keys.begin(), keys.end(), random);
  keys.resize(std::min<size_t>(keys.size(), 1000));
  return keys;
}

template <class Body>
void run_lookups(benchmark::State& state, Body&& body) {
  int which = static_cast<int>(state.range(0));
  if (corpus(which).postings.empty()) return state.SkipWithError("corpus file missing");
  const BuiltIndex& built = default_index(which);
  store::Database db(built.file->path.string(), store::Database::Mode::ReadOnly);
  store::PositionIndexReader reader(db);
  uint64_t postings = 0;
  uint64_t blocks = reader.blocks_read();
  body(state, reader, postings);
  state.counters["postings/lookup"] = static_cast<double>(postings) / static_cast<double>(state.iterations());
  state.counters["blocks/lookup"] =
      static_cast<double>(reader.blocks_read() - blocks) / static_cast<double>(state.iterations());
  state.SetLabel(which == 0 ? "synthetic" : "lichess");
}

void BM_LookupStartPosition(benchmark::State& state) {
  run_lookups(state, [](benchmark::State& s, store::PositionIndexReader& reader, uint64_t& postings) {
    for (auto _ : s) postings += reader.lookup(kStartPositionKey).size();
  });
}
BENCHMARK(BM_LookupStartPosition)->ArgName("corpus")->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

void BM_CountStartPosition(benchmark::State& state) {
  run_lookups(state, [](benchmark::State& s, store::PositionIndexReader& reader, uint64_t& postings) {
    for (auto _ : s) postings += reader.count(kStartPositionKey);
  });
}
BENCHMARK(BM_CountStartPosition)->ArgName("corpus")->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

// The explorer's work without header filters: games and W/D/L per next move.
void BM_ExploreStartPosition(benchmark::State& state) {
  run_lookups(state, [](benchmark::State& s, store::PositionIndexReader& reader, uint64_t& postings) {
    for (auto _ : s) {
      std::map<uint16_t, std::array<uint64_t, 4>> by_move;
      reader.visit(kStartPositionKey, [&](std::span<const store::Posting> batch) {
        for (const store::Posting& posting : batch) ++by_move[posting.next_move][static_cast<int>(posting.result)];
        postings += batch.size();
      });
      benchmark::DoNotOptimize(by_move);
    }
  });
}
BENCHMARK(BM_ExploreStartPosition)->ArgName("corpus")->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

void BM_LookupRarePosition(benchmark::State& state) {
  std::vector<uint64_t> keys = rare_keys(corpus(static_cast<int>(state.range(0))));
  run_lookups(state, [&](benchmark::State& s, store::PositionIndexReader& reader, uint64_t& postings) {
    size_t i = 0;
    for (auto _ : s) postings += reader.lookup(keys[i++ % keys.size()]).size();
  });
}
BENCHMARK(BM_LookupRarePosition)->ArgName("corpus")->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

void BM_LookupAbsentPosition(benchmark::State& state) {
  std::mt19937_64 random(9);
  run_lookups(state, [&](benchmark::State& s, store::PositionIndexReader& reader, uint64_t& postings) {
    for (auto _ : s) postings += reader.lookup(random()).size();
  });
}
BENCHMARK(BM_LookupAbsentPosition)->ArgName("corpus")->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
