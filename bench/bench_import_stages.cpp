// The stages of pgn-index's pipeline, each measured alone on one thread, so that each
// stage's ceiling can be set beside the end-to-end figure (bench/README.md, "Import
// stages"). Inputs: the two real bench files, ../shared/data/bench/lichess-*.pgn.zst
// (clocks and evals on every move) and tcec-*.pgn.zst (long engine games with comments).
// Every stage's input is made once, outside the timed loops, by running the stages
// before it; a stage's timing therefore covers that stage only:
//   reader        InputSource::read over the decompressed text (a mapped plain file:
//                 a copy; the pipeline itself reads a mapped file without one) and over
//                 the .zst (streaming decompression)
//   splitter      Splitter over the mapped plain file, 4 MiB chunks as pgn-index cuts
//   parse         PgnReader + GameCollector over every chunk (no replay)
//   replay        build_game on every collected game (SAN, legal replay, keys, ECO)
//   encode        encode_game on every built game (blobs, tags split, material runs),
//                 and each of its parts alone
//   posting sort  one chunk's postings placed in key buckets as made, then sorted (PostingChunkSorter)
//   block encode  the whole file's sorted postings cut into blocks per key partition
//                 and encoded as the import's segment writer does (lean, auto key bits)
//   insert        DatabaseWriter::add_game of every game into a new database file,
//                 then finish_source (index creation and commit); staged 1: the rows
//                 built on two threads beside it (row_staging.h), CPU time the writer's
#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <bit>
#include <filesystem>
#include <fstream>
#include <memory>
#include <span>
#include <string>
#include <unistd.h>
#include <vector>

#include "core/fen.h"
#include "core/pgn_reader.h"
#include "indexer/database_writer.h"
#include "indexer/game_builder.h"
#include "indexer/game_collector.h"
#include "indexer/game_encoder.h"
#include "indexer/input_source.h"
#include "indexer/posting_sorter.h"
#include "indexer/splitter.h"
#include "store/blob_codec.h"
#include "store/material_runs.h"
#include "store/moves_codec.h"
#include "store/posting_block_codec.h"
#include "store/tag_codec.h"

namespace {

using namespace pgnbase;
using namespace pgnbase::indexer;
namespace fs = std::filesystem;

const fs::path kBenchDir = fs::path(PGNBASE_SOURCE_DIR) / ".." / "shared" / "data" / "bench";
constexpr std::array<const char*, 2> kLabels = {"lichess", "tcec"};
constexpr std::array<const char*, 2> kFiles = {"lichess-api-exports-2018-2022.pgn.zst",
                                               "tcec-seasons-01-15.pgn.zst"};
// pgn-index's defaults: WriterOptions::zstd_level, and the segment the writer builds
// (PositionIndexOptions as database_writer.cpp sets them).
const int kGameZstdLevel = WriterOptions{}.zstd_level;
constexpr int kBlockZstdLevel = 1;
constexpr size_t kBlockPostings = 16384;

fs::path temp_path(const std::string& name) {
  return fs::temp_directory_path() / ("pgnbase-bench-stages-" + std::to_string(::getpid()) + "-" + name);
}

// One bench file and every stage's input, made by running the stages once.
struct StageInputs {
  fs::path zst_path, plain_path;  // plain_path: the decompressed text, removed at exit
  uint64_t text_bytes = 0;
  std::vector<Chunk> chunks;  // of the mapped plain file; they keep the mapping alive
  std::vector<GameDraft> drafts;
  std::vector<GameRecord> records;          // built and encoded
  std::vector<size_t> first_record;         // chunk c's records: [first_record[c], first_record[c + 1])
  std::vector<store::Posting> sorted_postings;     // every record's, game ids 1..n, posting_less order
  uint64_t plies = 0;
  int key_bits = 64;

  ~StageInputs() {
    std::error_code ignored;
    if (!plain_path.empty()) fs::remove(plain_path, ignored);
  }
};

void write_plain_copy(StageInputs& in, const std::string& label) {
  in.plain_path = temp_path(label + ".pgn");
  InputSource source = InputSource::open(in.zst_path.string());
  std::ofstream out(in.plain_path, std::ios::binary);
  std::vector<char> buffer(1 << 20);
  while (size_t n = source.read(buffer.data(), buffer.size())) {
    out.write(buffer.data(), static_cast<std::streamsize>(n));
    in.text_bytes += n;
  }
}

void collect_drafts(StageInputs& in) {
  InputSource source = InputSource::open(in.plain_path.string());
  Splitter splitter(source);
  BuildOptions options;
  while (std::optional<Chunk> chunk = splitter.next()) {
    in.first_record.push_back(in.records.size());
    PgnReader reader(chunk->text, chunk->offset, 1);
    GameCollector collector(options.keep_annotations);
    while (reader.read_game(collector)) {
      in.drafts.push_back(collector.draft());
      GameRecord record;
      RejectRecord reject;
      if (!build_game(in.drafts.back(), options, record, reject)) continue;
      encode_game(record, kGameZstdLevel);
      in.plies += record.codes.size();
      in.records.push_back(std::move(record));
    }
    in.chunks.push_back(std::move(*chunk));
  }
  in.first_record.push_back(in.records.size());
}

// Appends game's postings as the import's workers make them (the game id is the game's
// index within its chunk until the writer assigns ids).
void append_postings(const GameRecord& game, uint32_t game_id, std::vector<PostingSorter::Record>& out) {
  for (size_t ply = 0; ply < game.keys.size(); ++ply) {
    MoveCode next = ply < game.codes.size() ? game.codes[ply] : kNullMoveCode;
    out.push_back({game.keys[ply], game_id, uint16_t(std::min<size_t>(ply, 0xFFFF)), next, uint8_t(game.result)});
  }
}

void sort_all_postings(StageInputs& in) {
  std::vector<PostingSorter::Record> records;
  for (size_t i = 0; i < in.records.size(); ++i) append_postings(in.records[i], uint32_t(i + 1), records);
  sort_posting_records(records.data(), records.size());
  in.sorted_postings.reserve(records.size());
  for (const PostingSorter::Record& r : records)
    in.sorted_postings.push_back({r.key, r.game_id, r.ply, r.next_move, store::GameResult(r.result)});
  in.key_bits = std::clamp(static_cast<int>(std::bit_width(in.sorted_postings.size())) + 12, 24, 64);
}

std::unique_ptr<StageInputs> prepare(int which) {
  auto in = std::make_unique<StageInputs>();
  in->zst_path = kBenchDir / kFiles[which];
  if (!fs::exists(in->zst_path)) return nullptr;
  write_plain_copy(*in, kLabels[which]);
  collect_drafts(*in);
  sort_all_postings(*in);
  return in;
}

// The inputs of bench file `which`, made on first use; nullptr when the file is absent
// (the caller then skips with an error).
StageInputs* inputs(benchmark::State& state) {
  static std::array<std::unique_ptr<StageInputs>, 2> prepared;
  static std::array<bool, 2> tried{};
  int which = static_cast<int>(state.range(0));
  if (!tried[which]) {
    tried[which] = true;
    prepared[which] = prepare(which);
  }
  state.SetLabel(kLabels[which]);
  if (!prepared[which]) state.SkipWithError("../shared/data/bench missing");
  return prepared[which].get();
}

void set_rate(benchmark::State& state, const char* name, double per_iteration) {
  state.counters[name] =
      benchmark::Counter(per_iteration * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

// args: file (0 lichess, 1 tcec), source (0 the mapped plain file, 1 the .zst).
void BM_Reader(benchmark::State& state) {
  StageInputs* in = inputs(state);
  if (!in) return;
  const fs::path& path = state.range(1) == 0 ? in->plain_path : in->zst_path;
  std::vector<char> buffer(1 << 20);
  uint64_t bytes = 0;
  for (auto _ : state) {
    InputSource source = InputSource::open(path.string());
    bytes = 0;
    while (size_t n = source.read(buffer.data(), buffer.size())) bytes += n;
  }
  if (bytes != in->text_bytes) state.SkipWithError("read a different byte count");
  set_rate(state, "bytes/s", static_cast<double>(bytes));
  state.SetLabel(std::string(kLabels[state.range(0)]) + (state.range(1) == 0 ? " mapped" : " zstd"));
}
BENCHMARK(BM_Reader)->ArgNames({"file", "zst"})->Args({0, 0})->Args({0, 1})->Args({1, 0})->Args({1, 1})
    ->Unit(benchmark::kMillisecond);

void BM_Splitter(benchmark::State& state) {
  StageInputs* in = inputs(state);
  if (!in) return;
  size_t chunks = 0;
  for (auto _ : state) {
    InputSource source = InputSource::open(in->plain_path.string());
    Splitter splitter(source);
    chunks = 0;
    while (std::optional<Chunk> chunk = splitter.next()) ++chunks;
  }
  if (chunks != in->chunks.size()) state.SkipWithError("cut a different number of chunks");
  set_rate(state, "bytes/s", static_cast<double>(in->text_bytes));
  state.counters["chunks"] = static_cast<double>(chunks);
}
BENCHMARK(BM_Splitter)->ArgName("file")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_Parse(benchmark::State& state) {
  StageInputs* in = inputs(state);
  if (!in) return;
  size_t games = 0;
  for (auto _ : state) {
    games = 0;
    for (const Chunk& chunk : in->chunks) {
      PgnReader reader(chunk.text, chunk.offset, 1);
      GameCollector collector(true);
      while (reader.read_game(collector)) ++games;
      benchmark::DoNotOptimize(collector.draft());
    }
  }
  if (games != in->drafts.size()) state.SkipWithError("read a different number of games");
  set_rate(state, "bytes/s", static_cast<double>(in->text_bytes));
  set_rate(state, "games/s", static_cast<double>(games));
}
BENCHMARK(BM_Parse)->ArgName("file")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_Replay(benchmark::State& state) {
  StageInputs* in = inputs(state);
  if (!in) return;
  BuildOptions options;
  uint64_t plies = 0;
  for (auto _ : state) {
    plies = 0;
    for (const GameDraft& draft : in->drafts) {
      GameRecord record;
      RejectRecord reject;
      if (build_game(draft, options, record, reject)) plies += record.codes.size();
    }
  }
  if (plies != in->plies) state.SkipWithError("replayed a different number of plies");
  set_rate(state, "games/s", static_cast<double>(in->drafts.size()));
  set_rate(state, "plies/s", static_cast<double>(plies));
  state.counters["rejects"] = static_cast<double>(in->drafts.size() - in->records.size());
}
BENCHMARK(BM_Replay)->ArgName("file")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_Encode(benchmark::State& state) {
  StageInputs* in = inputs(state);
  if (!in) return;
  for (auto _ : state) {
    for (GameRecord& record : in->records) {
      // encode_game appends the moves and annotations blobs; the import's records start
      // with none (and no capacity), so these do too.
      record.moves_blob = {};
      record.annotations_blob = {};
      encode_game(record, kGameZstdLevel);
    }
  }
  uint64_t blob_bytes = 0;
  for (const GameRecord& r : in->records)
    blob_bytes += r.moves_blob.size() + r.annotations_blob.size() + r.tags_blob.size() + r.material_blob.size();
  set_rate(state, "games/s", static_cast<double>(in->records.size()));
  state.counters["blob_B/game"] = static_cast<double>(blob_bytes) / static_cast<double>(in->records.size());
}
BENCHMARK(BM_Encode)->ArgName("file")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// encode_game's parts, one at a time, to show which of them costs most.
// args: file, part (0 moves blob, 1 tags split, 2 annotations blob, 3 material runs).
constexpr std::array<const char*, 4> kEncodeParts = {"moves", "tags", "annotations", "material"};

void BM_EncodePart(benchmark::State& state) {
  StageInputs* in = inputs(state);
  if (!in) return;
  const int part = static_cast<int>(state.range(1));
  std::string out;
  store::HeaderColumns header;
  for (auto _ : state) {
    for (const GameRecord& r : in->records) {
      out.clear();  // the blob encoders append
      switch (part) {
        case 0: store::encode_moves_blob(r.compact_moves, out); break;
        case 1: header = {}, store::split_tags(r.tags, header, out); break;
        case 2: if (!r.annotations.empty()) store::encode_blob(r.annotations, kGameZstdLevel, out); break;
        case 3: {
          Board start;
          if (!r.start_fen.empty()) start = parse_fen(r.start_fen, r.variant == store::Variant::Chess960).value();
          if (r.taken.size() == r.codes.size()) store::encode_material_runs(start, r.codes, r.taken, out);
          else store::encode_material_runs(start, r.codes, out);
          break;
        }
      }
      benchmark::DoNotOptimize(out);
    }
  }
  set_rate(state, "games/s", static_cast<double>(in->records.size()));
  state.SetLabel(std::string(kLabels[state.range(0)]) + " " + kEncodeParts[part]);
}
BENCHMARK(BM_EncodePart)->ArgNames({"file", "part"})->ArgsProduct({{0, 1}, {0, 1, 2, 3}})
    ->Unit(benchmark::kMillisecond);

void BM_PostingSort(benchmark::State& state) {
  StageInputs* in = inputs(state);
  if (!in) return;
  std::vector<PostingSorter::Record> postings;
  for (auto _ : state) {
    for (size_t c = 0; c + 1 < in->first_record.size(); ++c) {
      postings = {};  // a fresh vector per chunk, as each worker's ChunkResult has
      // As the pipeline's collect_postings: each record placed in its bucket as it is made.
      make_game_postings(
          [&](const auto& visit) {
            for (size_t i = in->first_record[c]; i < in->first_record[c + 1]; ++i)
              visit(in->records[i].keys, in->records[i].codes, in->records[i].result);
          },
          postings);
    }
  }
  set_rate(state, "postings/s", static_cast<double>(in->sorted_postings.size()));
  set_rate(state, "games/s", static_cast<double>(in->records.size()));
}
BENCHMARK(BM_PostingSort)->ArgName("file")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// The final merge of a segment whose postings stayed in memory: one sorted run per chunk,
// as the workers hand them over (game ids as the writer gives them), merged key partition
// by key partition on one thread (PostingSorter::merge_partitions; a spill merges the
// same way into a run file). Handing the runs over is outside the timing.
void BM_PostingMerge(benchmark::State& state) {
  StageInputs* in = inputs(state);
  if (!in) return;
  uint64_t merged = 0, checksum = 0;
  for (auto _ : state) {
    state.PauseTiming();
    PostingSorter sorter(size_t{1} << 40, fs::temp_directory_path());
    for (size_t c = 0; c + 1 < in->first_record.size(); ++c) {
      std::vector<PostingSorter::Record> run;
      for (size_t i = in->first_record[c]; i < in->first_record[c + 1]; ++i)
        append_postings(in->records[i], uint32_t(i + 1), run);
      sort_posting_records(run.data(), run.size());
      sorter.add_sorted_run(std::move(run), 0, uint32_t(in->first_record[c] + 1), uint32_t(in->first_record[c + 1]));
    }
    merged = checksum = 0;
    state.ResumeTiming();
    sorter.merge([&](std::span<const store::Posting> batch) {
      merged += batch.size();
      checksum += batch.back().key ^ batch.back().game_id;
    });
  }
  if (merged != in->sorted_postings.size()) state.SkipWithError("merged a different number of postings");
  benchmark::DoNotOptimize(checksum);
  set_rate(state, "postings/s", static_cast<double>(merged));
  state.counters["runs"] = static_cast<double>(in->first_record.size() - 1);
}
BENCHMARK(BM_PostingMerge)->ArgName("file")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// An import larger than --memory: the chunks' sorted runs handed over with a budget of a
// quarter of the file's postings, so that the first spill runs on this thread and the
// later ones on spill threads beside it (half the budget each), then the final merge of
// the run files and the runs left in memory, on one thread. args: file, spill threads
// (PostingSorter's spill_threads: each spill's key partitions shared among them). The
// process's CPU time against the wall's: what sharing the spills costs and gains.
void BM_PostingSpill(benchmark::State& state) {
  StageInputs* in = inputs(state);
  if (!in) return;
  const unsigned threads = unsigned(state.range(1));
  const size_t budget = in->sorted_postings.size() / 4 * PostingSorter::kBytesPerBufferedPosting;
  uint64_t merged = 0, spilled = 0;
  for (auto _ : state) {
    state.PauseTiming();
    std::vector<std::vector<PostingSorter::Record>> runs;
    for (size_t c = 0; c + 1 < in->first_record.size(); ++c) {
      std::vector<PostingSorter::Record>& run = runs.emplace_back();
      for (size_t i = in->first_record[c]; i < in->first_record[c + 1]; ++i)
        append_postings(in->records[i], uint32_t(i + 1), run);
      sort_posting_records(run.data(), run.size());
    }
    merged = 0;
    state.ResumeTiming();
    PostingSorter sorter(budget, fs::temp_directory_path(), threads);
    for (size_t c = 0; c < runs.size(); ++c)
      sorter.add_sorted_run(std::move(runs[c]), 0, uint32_t(in->first_record[c] + 1), uint32_t(in->first_record[c + 1]));
    spilled = sorter.runs_spilled();
    sorter.merge([&](std::span<const store::Posting> batch) { merged += batch.size(); });
  }
  if (merged != in->sorted_postings.size()) state.SkipWithError("merged a different number of postings");
  set_rate(state, "postings/s", static_cast<double>(merged));
  state.counters["runs"] = static_cast<double>(spilled);
}
BENCHMARK(BM_PostingSpill)->ArgNames({"file", "threads"})->ArgsProduct({{0, 1}, {1, 2}})
    ->MeasureProcessCPUTime()->UseRealTime()->Unit(benchmark::kMillisecond);

// Cuts sorted postings into blocks by the segment writer's rule (indexer/position_index.cpp,
// BlockCutter): no block spans two key partitions; a block closes before the group
// (postings sharing a stored key) that would take it past kBlockPostings, and a group
// larger than that fills blocks of its own. Calls emit with each block.
template <class Emit>
void cut_blocks(std::span<const store::Posting> sorted, int key_bits, Emit&& emit) {
  size_t block_begin = 0, group_begin = 0;
  for (size_t i = 0; i < sorted.size(); ++i) {
    if (i > block_begin && store::key_partition(sorted[i].key) != store::key_partition(sorted[i - 1].key)) {
      emit(sorted.subspan(block_begin, i - block_begin));
      block_begin = i;
    }
    if (i == block_begin || store::mask_key(sorted[i].key, key_bits) != store::mask_key(sorted[i - 1].key, key_bits))
      group_begin = i;
    if (i + 1 - block_begin > kBlockPostings) {
      size_t cut = group_begin > block_begin ? group_begin : block_begin + kBlockPostings;
      emit(sorted.subspan(block_begin, cut - block_begin));
      block_begin = group_begin = cut;
    }
  }
  if (block_begin < sorted.size()) emit(sorted.subspan(block_begin));
}

void BM_BlockEncode(benchmark::State& state) {
  StageInputs* in = inputs(state);
  if (!in) return;
  store::PostingBlockEncoder encoder(in->key_bits, kBlockZstdLevel, /*lean=*/true);
  uint64_t bytes = 0, blocks = 0, postings = 0;
  for (auto _ : state) {
    bytes = blocks = postings = 0;
    cut_blocks(in->sorted_postings, in->key_bits, [&](std::span<const store::Posting> block) {
      bytes += encoder.encode(block).size();
      postings += block.size();
      ++blocks;
    });
  }
  if (postings != in->sorted_postings.size()) state.SkipWithError("encoded a different number of postings");
  set_rate(state, "postings/s", static_cast<double>(postings));
  state.counters["B/posting"] = static_cast<double>(bytes) / static_cast<double>(postings);
  state.counters["blocks"] = static_cast<double>(blocks);
  state.counters["key_bits"] = in->key_bits;
}
BENCHMARK(BM_BlockEncode)->ArgName("file")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_Insert(benchmark::State& state) {
  StageInputs* in = inputs(state);
  if (!in) return;
  const fs::path db_path = temp_path(std::string(kLabels[state.range(0)]) + ".db");
  auto remove_database = [&] {
    for (const char* suffix : {"", "-wal", "-shm", "-journal"}) fs::remove(db_path.string() + suffix);
  };
  for (auto _ : state) {
    state.PauseTiming();
    remove_database();
    // Staged: the rows built on two other threads (row_staging.h); the CPU time counted is
    // this thread's, the writer's.
    WriterOptions options;
    options.threads = 2;
    options.stage_rows_always = state.range(1) == 1;
    if (!options.stage_rows_always) options.stage_rows_from_games = SIZE_MAX;
    auto writer = std::make_unique<DatabaseWriter>(db_path.string(), options);
    writer->begin_source(in->zst_path.string(), std::nullopt);
    state.ResumeTiming();
    // In chunks of the import's size at -j 2 on the master-style file (the rows are
    // written, or staged, a chunk at a time); no postings.
    constexpr size_t kChunkGames = 1000;
    std::vector<int64_t> ids;
    for (size_t first = 0; first < in->records.size(); first += kChunkGames) {
      ids.clear();
      for (size_t i = first; i < std::min(first + kChunkGames, in->records.size()); ++i)
        ids.push_back(writer->add_game(in->records[i]));
      writer->add_positions({}, ids);
    }
    writer->finish_source("bench", 0);
    state.PauseTiming();
    writer.reset();
    state.ResumeTiming();
  }
  remove_database();
  set_rate(state, "games/s", static_cast<double>(in->records.size()));
}
BENCHMARK(BM_Insert)->ArgNames({"file", "staged"})->ArgsProduct({{0, 1}, {0, 1}})->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
