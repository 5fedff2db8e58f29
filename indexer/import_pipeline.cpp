#include "indexer/import_pipeline.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <map>
#include <mutex>
#include <thread>
#include <utility>
#include <variant>

#include "core/pgn_reader.h"
#include "core/bounded_queue.h"
#include "indexer/content_hash.h"
#include "indexer/game_collector.h"
#include "indexer/game_encoder.h"
#include "indexer/replace_input.h"
#include "indexer/splitter.h"
#include "core/thread_group.h"

namespace pgnbase::indexer {

namespace {

using Clock = std::chrono::steady_clock;

using ChunkItem = std::variant<GameRecord, RejectRecord>;

// What a worker made of one chunk: each game of it, built or rejected, in input order.
struct ChunkResult {
  Chunk chunk;
  uint64_t lines = 0;
  std::vector<ChunkItem> items;
  // Every position of the built games, sorted (or, with postings_sorted false, in key
  // partition order only: PostingSorter::add_sorted_run); game_id is the game's index among
  // the chunk's built games until the writer gives the game its id.
  std::vector<PostingSorter::Record> postings;
  bool postings_sorted = true;
  // Whether the chunk and another after it were parsed and waiting when the writer came
  // for it: the writer, not the workers, holds the import up, and the workers (their
  // cores) have time to spare.
  bool waited_for_writer = false;
  // How many distinct names and openings the chunk's games name (ChunkNames).
  uint32_t distinct_names = 0, distinct_openings = 0;
};

// The postings of a chunk's games, sorted on the worker so that the writer only merges,
// or, unless `sort`, only put in key partition order: while they all fit in memory, the
// final merge sorts each partition of every chunk's run at once, and sorting each chunk
// first would be done twice (7% of the import's CPU on the master-style file). Each
// game's keys are dropped once copied (the writer does not need them).
void collect_postings(std::vector<ChunkItem>& items, std::vector<PostingSorter::Record>& out, bool sort) {
  make_game_postings(
      [&items](const auto& visit) {
        for (const ChunkItem& item : items)
          if (const GameRecord* game = std::get_if<GameRecord>(&item)) visit(game->keys, game->codes, game->result);
      },
      out, sort);
  for (ChunkItem& item : items)
    if (GameRecord* game = std::get_if<GameRecord>(&item)) game->keys = {};
}

// An oversized chunk (splitter.h) is one reject, its text cut with a note; not parsed.
ChunkResult oversized_reject(Chunk chunk, size_t max_game_bytes) {
  ChunkResult result;
  result.lines = chunk.lines;
  RejectRecord reject;
  reject.place = GamePlace{.offset = chunk.offset, .line = 1, .number = 0};
  reject.kind = "game too long";
  reject.reason = "game too long: " + std::to_string(chunk.size) + " bytes without the start of another game (" +
                  "--max-game-bytes is " + std::to_string(max_game_bytes) + "); not read";
  reject.text.assign(chunk.text);
  reject.text += "\n{pgnbase: the rest of this text, " + std::to_string(chunk.size - chunk.text.size()) +
                 " more bytes, was left out: longer than --max-game-bytes}";
  result.items.emplace_back(std::move(reject));
  result.chunk = std::move(chunk);
  return result;
}

ChunkResult process_chunk(Chunk chunk, const BuildOptions& options, int zstd_level, size_t max_game_bytes,
                          bool sort_postings) {
  if (chunk.oversized) return oversized_reject(std::move(chunk), max_game_bytes);
  ChunkResult result;
  PgnReader reader(chunk.text, chunk.offset, 1);
  GameCollector collector(options.keep_annotations);
  GameRecord record;
  RejectRecord reject;
  while (reader.read_game(collector)) {
    if (build_game(collector.draft(), options, record, reject)) {
      encode_game(record, zstd_level);
      result.items.emplace_back(std::move(record));
      record = GameRecord{};
    } else {
      result.items.emplace_back(std::move(reject));
      reject = RejectRecord{};
    }
  }
  result.lines = reader.line_breaks();  // the rest after the last game's start
  ChunkNames names;  // once the records stay where they are
  for (ChunkItem& item : result.items)
    if (GameRecord* game = std::get_if<GameRecord>(&item)) names.number(*game);
  result.distinct_names = names.names();
  result.distinct_openings = names.openings();
  collect_postings(result.items, result.postings, sort_postings);
  result.postings_sorted = sort_postings;
  result.chunk = std::move(chunk);
  return result;
}

// Hands finished chunks to the writer in index order, whatever order they finish in.
class Reorderer {
 public:
  void put(ChunkResult r) {
    std::lock_guard lock(mutex_);
    uint64_t index = r.chunk.index;
    ready_.emplace(index, std::move(r));
    changed_.notify_all();
  }
  void finish_producers() {
    std::lock_guard lock(mutex_);
    producers_done_ = true;
    changed_.notify_all();
  }
  // The next chunk in order; nullopt when every chunk was handed out.
  std::optional<ChunkResult> take(uint64_t index) {
    std::unique_lock lock(mutex_);
    const bool waiting = ready_.count(index) != 0 && ready_.size() >= 2;
    changed_.wait(lock, [&] { return ready_.count(index) || producers_done_; });
    auto it = ready_.find(index);
    if (it == ready_.end()) return std::nullopt;
    ChunkResult r = std::move(it->second);
    ready_.erase(it);
    r.waited_for_writer = waiting;
    return r;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::map<uint64_t, ChunkResult> ready_;
  bool producers_done_ = false;
};

// Limits the chunks alive at once (split, parsed or waiting for the writer), so memory
// stays flat even when one slow chunk holds up the writer. A chunk's slot comes back once
// its result is freed: the writer retires a written result, and the reading thread, which
// waits for slots anyway, frees it when it next takes one, so the writer, the busiest
// serial thread, spends no time freeing the records the workers made (about 5% of its CPU).
class Slots {
 public:
  explicit Slots(unsigned n) : free_(n) {}
  bool acquire(const std::atomic<bool>& stop) {
    std::unique_lock lock(mutex_);
    for (;;) {
      if (stop.load()) return false;
      if (!retired_.empty()) {
        free_retired(lock);
        continue;
      }
      if (free_ > 0) break;
      changed_.wait(lock);
    }
    --free_;
    return true;
  }
  // Frees the retired results until stop, and those retired by then: the reading
  // thread's work once the input has ended, so that the writer does not free the last
  // chunks' records either.
  void free_retired_until(const std::atomic<bool>& stop) {
    std::unique_lock lock(mutex_);
    for (;;) {
      if (!retired_.empty()) free_retired(lock);
      else if (stop.load()) return;
      else changed_.wait(lock);
    }
  }
  void release() {
    std::lock_guard lock(mutex_);
    ++free_;
    changed_.notify_one();
  }
  // Gives the slot of a written result back once the reading thread has freed it.
  void retire(ChunkResult&& result) {
    std::lock_guard lock(mutex_);
    retired_.push_back(std::move(result));
    changed_.notify_one();
  }
  void wake_all() {
    std::lock_guard lock(mutex_);
    changed_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  unsigned free_;
  std::vector<ChunkResult> retired_;

  void free_retired(std::unique_lock<std::mutex>& lock) {
    std::vector<ChunkResult> freed;
    freed.swap(retired_);
    lock.unlock();
    const size_t count = freed.size();
    freed.clear();
    lock.lock();
    if (retired_.empty()) retired_.swap(freed);  // keeps the capacity
    free_ += unsigned(count);
  }
};

// A parsed chunk holds about 4 times its text, and 2 * threads + 1 chunks are alive at
// once (import_chunks_in_threads): with many threads the chunks get smaller, so that the
// pipeline's memory stays near kPipelineBytes whatever -j is (4 MiB chunks at -j 1, 2.4
// MiB at -j 2, 0.7 MiB at -j 8, the floor of 512 KiB from -j 12 on).
constexpr size_t kPipelineBytes = size_t{48} << 20;
constexpr size_t kSmallestChunkBytes = size_t{512} << 10;

size_t chunk_bytes_for(const ImportOptions& options) {
  const size_t alive = 2 * size_t(std::max(1u, options.threads)) + 1;
  return std::min(options.chunk_bytes, std::max(kPipelineBytes / (alive * 4), kSmallestChunkBytes));
}

// True when the input is known to fit one chunk: a small file, or a stream (a zip member)
// whose size is stated.
bool fits_one_chunk(const InputSource& source, size_t chunk_bytes) {
  const std::optional<uint64_t> size = source.is_mapped() ? source.size_on_disk() : source.stated_size();
  return size && *size < chunk_bytes;
}

// Splits on a reading thread, parses on options.threads workers, and hands each chunk's
// result to write_chunk on this thread in input order, then calls after_chunk once it has
// handed the result to the reading thread to free (Slots). The workers sort their chunks'
// postings from the start with sort_postings, else once wants_sorted_postings (asked on
// this thread) says so. Rethrows the first error of any thread after stopping them all.
void import_chunks_in_threads(Splitter& splitter, const ImportOptions& options, int zstd_level,
                              const std::function<void(ChunkResult&)>& write_chunk,
                              const std::function<void()>& after_chunk, bool sort_from_start,
                              const std::function<bool()>& wants_sorted_postings) {
  const unsigned threads = std::max(1u, options.threads);
  BoundedQueue<Chunk> chunks(threads);
  Reorderer reorderer;
  // One chunk being parsed per worker and as many again split or parsed ahead: a parsed
  // chunk holds about 4 times its text (records, blobs, postings), and more waiting for
  // the writer only raise the peak memory (threads * 3 + 2 slots: 416 MiB instead of
  // 340 MiB on 424k games at -j 2).
  Slots slots(threads * 2 + 1);
  std::atomic<bool> stop{false};
  std::atomic<bool> sort_postings{sort_from_start || wants_sorted_postings()};
  std::atomic<unsigned> workers_left{threads};
  auto stop_all = [&] {
    stop = true;
    slots.wake_all();
    chunks.close();
  };
  // A failing thread stops the others and wakes the writer, which then rethrows its error.
  ThreadGroup group([&] {
    stop_all();
    reorderer.finish_producers();
  });
  try {
    group.start(
        [&] {
          while (slots.acquire(stop)) {
            std::optional<Chunk> chunk = splitter.next();
            if (!chunk) {
              slots.release();
              break;
            }
            if (!chunks.push(std::move(*chunk))) break;
          }
          chunks.close();
          slots.free_retired_until(stop);
        },
        "the input reading thread", ThreadRole::Reader);
    for (unsigned i = 0; i < threads; ++i)
      group.start(
          [&] {
            while (std::optional<Chunk> chunk = chunks.pop()) {
              if (stop.load()) continue;
              if (options.on_worker_chunk) options.on_worker_chunk(chunk->index);
              reorderer.put(process_chunk(std::move(*chunk), options.build, zstd_level, options.max_game_bytes,
                                          sort_postings.load(std::memory_order_relaxed)));
            }
            if (--workers_left == 0) reorderer.finish_producers();
          },
          "worker thread " + std::to_string(i + 1) + " of " + std::to_string(threads), ThreadRole::Worker);
    for (uint64_t index = 0;; ++index) {
      std::optional<ChunkResult> result = reorderer.take(index);
      if (!result) break;
      write_chunk(*result);
      if (!sort_postings.load(std::memory_order_relaxed) && wants_sorted_postings())
        sort_postings.store(true, std::memory_order_relaxed);
      slots.retire(std::move(*result));
      result.reset();
      after_chunk();
    }
    stop_all();
    group.join();  // rethrows the first error of a thread (the input's InputError, ...)
  } catch (...) {
    stop_all();
    try {
      group.join();
    } catch (...) {  // the writer's own error is the one to report
    }
    throw;
  }
}

// A stream stated to hold at most this (a zip member) is hashed before it is imported: a
// second decompression of so few bytes costs little beside an import, and a member that
// is already in the database then costs no import at all (a re-run over a zip of
// thousands of members).
constexpr uint64_t kHashFirstBytes = uint64_t{1} << 20;

// Imports the input named path, which open_input opens (twice for a stream hashed first:
// once for its hash).
ImportOutcome import_input(const std::string& path, const std::function<InputSource()>& open_input,
                           DatabaseWriter& writer, const ImportOptions& options,
                           const std::function<void(const ImportProgress&)>& progress) {
  const auto start = Clock::now();
  ImportOutcome outcome;
  // --replace must know what it replaces before it removes anything (replace_input.h).
  std::optional<SpooledStream> spooled;
  if (options.replace && !is_rereadable(path)) spooled.emplace(path, options.temp_dir);
  auto open = [&] { return spooled ? InputSource::open(spooled->path()) : open_input(); };
  InputSource source = open();

  // An input is recognised by its content hash: before any work when it is hashed first
  // (a small stream, a mapped file of a size imported before, any input for --replace),
  // else at its end, hashed as it is cut.
  std::optional<std::string> known_hash;
  if (!source.is_mapped() && (options.replace || source.stated_size().value_or(UINT64_MAX) <= kHashFirstBytes)) {
    InputSource again = open();
    known_hash = hash_input(again);
  }
  auto hash_mapped_text = [&source] {
    ContentHasher hasher;
    const std::string_view text = source.mapped_text();
    constexpr size_t kPiece = size_t{64} << 20;  // hashed, then dropped from the resident set
    for (size_t at = 0; at < text.size(); at += kPiece) {
      hasher.update(text.substr(at, kPiece));
      source.release_mapped(at, at + kPiece);
    }
    return hasher.finish();
  };
  // A mapped file is hashed before any work only when a source of its size was imported
  // (or for --replace): another cannot hold its content. Otherwise the splitter hashes it
  // as it cuts the chunks, and the import saves a pass over the file on its serial path.
  auto must_hash_mapped_first = [&] {
    return source.is_mapped() && !known_hash &&
           (options.replace || writer.has_source_of_size(source.mapped_text().size()));
  };
  if (must_hash_mapped_first()) known_hash = hash_mapped_text();

  // Found, it is an answer whatever runs beside this import; not found, it is checked
  // again below with the write lock held, so that an import running beside this one
  // cannot store the same file in between.
  if (known_hash && !options.replace) {
    if (auto id = writer.find_source(*known_hash)) {
      outcome.already_imported = true;
      outcome.existing_source_id = *id;
      return outcome;
    }
  }
  writer.begin_source(path, source.size_on_disk());
  // One stored beside this import since the look above: the write lock is now held.
  if (must_hash_mapped_first()) known_hash = hash_mapped_text();
  if (known_hash && !options.replace) {
    if (auto id = writer.find_source(*known_hash)) {
      writer.abandon_source();
      outcome.already_imported = true;
      outcome.existing_source_id = *id;
      return outcome;
    }
  }
  // A stream is replaced by content only: every earlier import of "-" has that path.
  if (options.replace)
    outcome.replaced = writer.replace_sources(spooled ? std::nullopt : std::optional(path), known_hash.value_or(""));
  const size_t chunk_bytes = chunk_bytes_for(options);
  Splitter splitter(source, chunk_bytes, options.max_game_bytes, /*hash_mapped=*/!known_hash);
  ImportProgress report;
  report.input_size = source.size_on_disk();
  uint64_t game_number = 0, lines_before = 0, released = 0;
  std::vector<int64_t> chunk_ids;  // id of each game of the chunk, 0 for a skipped duplicate
  // The last chunk written, whose rows may still be built beside the writer (stage_rows):
  // its records live until the next chunk is written, or this function returns, after
  // finish_source or abandon_source.
  ChunkResult held;
  auto last_report = Clock::now();
  // The writer's part of a chunk, on this thread, in input order; result is then the
  // chunk written before it, done with.
  auto write_chunk = [&](ChunkResult& result) {
    chunk_ids.clear();
    // Rows built beside the writer cost more CPU in all, and save the writer's: worth it
    // only when the workers wait for the writer (and the threads have cores of their own,
    // which the writer checks).
    writer.stage_rows(result.waited_for_writer);
    writer.begin_chunk(result.distinct_names, result.distinct_openings);
    for (ChunkItem& item : result.items) {
      GamePlace& place =
          std::visit([](auto& built_or_rejected) -> GamePlace& { return built_or_rejected.place; }, item);
      place.number = ++game_number;
      place.line += lines_before;
      if (const GameRecord* game = std::get_if<GameRecord>(&item)) {
        chunk_ids.push_back(options.dedupe && writer.skip_duplicate(*game) ? 0 : writer.add_game(*game));
      } else {
        const RejectRecord& r = std::get<RejectRecord>(item);
        writer.add_reject(r);
        if (options.rejects_out) *options.rejects_out << r.text << "\n\n";
        ++report.rejected;
      }
    }
    writer.add_positions(std::move(result.postings), chunk_ids, result.postings_sorted);
    lines_before += result.lines;
    report.games = game_number;
    report.bytes_done = result.chunk.offset + result.chunk.size;
    std::swap(result, held);
  };
  auto report_progress = [&] {
    source.release_mapped(released, report.bytes_done);
    released = report.bytes_done;
    if (progress && Clock::now() - last_report > std::chrono::milliseconds(250)) {
      last_report = Clock::now();
      report.input_bytes_read = source.bytes_consumed();
      report.seconds = std::chrono::duration<double>(last_report - start).count();
      progress(report);
    }
  };
  try {
    if (fits_one_chunk(source, chunk_bytes)) {
      // One chunk is all there is: starting threads would cost more than parsing it (a
      // zip of thousands of one-game members).
      while (std::optional<Chunk> chunk = splitter.next()) {
        if (options.on_worker_chunk) options.on_worker_chunk(chunk->index);
        ChunkResult result = process_chunk(std::move(*chunk), options.build, writer.zstd_level(),
                                           options.max_game_bytes, writer.wants_sorted_postings());
        write_chunk(result);
        report_progress();
      }
    } else {
      // A mapped file's size says whether its postings may not fit in memory; a stream's
      // size is not known: its chunks are sorted as before.
      const bool may_spill = !source.is_mapped() || writer.postings_may_spill(source.size_on_disk().value_or(UINT64_MAX));
      import_chunks_in_threads(splitter, options, writer.zstd_level(), write_chunk, report_progress, may_spill,
                               [&writer] { return writer.wants_sorted_postings(); });
    }
  } catch (...) {
    writer.abandon_source_keeping_finished();
    throw;
  }
  const std::string hash = known_hash ? *known_hash : splitter.content_hash();
  outcome.bytes = report.bytes_done;
  outcome.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (!known_hash) {
    if (auto id = writer.find_source(hash)) {  // a stream whose content was imported before
      writer.abandon_source();
      outcome.already_imported = true;
      outcome.existing_source_id = *id;
      return outcome;
    }
  }
  outcome.summary = writer.finish_source(hash, outcome.seconds);
  outcome.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (progress) {
    report.seconds = outcome.seconds;
    report.input_bytes_read = source.bytes_consumed();
    progress(report);
  }
  return outcome;
}

}  // namespace

ImportOutcome import_file(const std::string& path, DatabaseWriter& writer, const ImportOptions& options,
                          const std::function<void(const ImportProgress&)>& progress) {
  return import_input(path, [&] { return InputSource::open(path); }, writer, options, progress);
}

ImportOutcome import_file(SourceList& sources, size_t index, DatabaseWriter& writer, const ImportOptions& options,
                          const std::function<void(const ImportProgress&)>& progress) {
  return import_input(sources.paths().at(index), [&] { return sources.open(index); }, writer, options, progress);
}

}  // namespace pgnbase::indexer
