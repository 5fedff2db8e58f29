// The position index: for every position of every game, a posting
// (Polyglot key -> game id, ply, next move, result), stored in SQLite as key-ordered,
// compressed blocks, one segment per imported file so that appending a file never
// rewrites what earlier imports wrote. docs/position_index.md has the on-disk format.
//
// Building: one PositionIndexBuilder per imported file; the import's writer thread
// add()s every posting, then calls write_segment() inside its transaction. Postings
// are sorted in memory runs bounded by a budget, spilled to temp files when it is
// exceeded, and merged into blocks at the end (indexer/posting_sorter.h).
//
// Reading: PositionIndexReader (store/position_index_reader.h), and the segment
// table (store/position_segments.h), both included below.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "store/position_index_reader.h"
#include "store/position_segments.h"
#include "store/position_posting.h"
#include "store/posting_block_codec.h"
#include "indexer/posting_sorter.h"
#include "store/database.h"

namespace pgnbase::indexer {

struct PositionIndexOptions {
  // Bounds the builder's sort buffer: 17 bytes per buffered posting (a run holds
  // budget / 17 postings); the final merge reads runs through up to budget / 8 more.
  size_t memory_budget_bytes = size_t{256} << 20;
  // Where sorted runs are spilled; must exist.
  std::filesystem::path temp_dir = std::filesystem::temp_directory_path();
  // Bits of each key stored. 64 stores keys exactly. Fewer stores fingerprints (the
  // key's top bits): smaller, but a lookup then also returns the postings of every
  // other key with the same top bits, about distinct_keys / 2^key_bits of them per
  // segment, which the caller must weed out (replay the game and compare the key).
  // 0 (auto) picks per segment bit_width(postings) + 12 bits, at least 24: a lookup then
  // meets another key's postings in fewer than 1 of 4,000 segments.
  int key_bits = 64;
  // Bits stored of the key of a group whose postings carry no moves (a lean segment's
  // key seen once in its block), at most key_bits: every reader replays the games of such
  // postings anyway, which refutes another key's. The segment's key_bits (lookups mask
  // keys to it) and the blocks' fingerprints; the groups with moves store the other
  // key_bits - fingerprint_bits bits beside. 0 (auto): bit_width(postings) + 1, at least
  // 24, in a lean segment (a lookup meets fewer than half a posting of another key per
  // segment), key_bits in a full one.
  int fingerprint_bits = 0;
  // Leave out what a lookup can learn by replaying the game: plies, and the next move
  // and result of keys that occur once in a block (see posting_block_codec.h).
  bool lean = false;
  // A block holds about this many postings: whole fingerprints only, except that a
  // fingerprint with more postings than this gets blocks of its own. At most
  // kMaxBlockPostings.
  uint32_t block_postings = 16384;
  int compression_level = 1;  // zstd; higher levels measured no smaller on these sections
  // Threads that merge and encode key partitions in write_segment (the caller's thread
  // inserts the blocks).
  unsigned threads = 1;
  // Threads that share each spill of postings to a run file (PostingSorter).
  unsigned spill_threads = 1;
};

// Builds one segment. Owns its temporary run files (removed by write_segment or the
// destructor). Not thread-safe: one thread adds and writes.
class PositionIndexBuilder {
 public:
  PositionIndexBuilder(size_t memory_budget_bytes,
                       std::filesystem::path temp_dir = std::filesystem::temp_directory_path());
  explicit PositionIndexBuilder(PositionIndexOptions options);
  ~PositionIndexBuilder();
  PositionIndexBuilder(const PositionIndexBuilder&) = delete;
  PositionIndexBuilder& operator=(const PositionIndexBuilder&) = delete;

  // Adds one posting (about 5 ns; a full buffer is sorted and spilled first). Any add
  // order gives the same segment. Throws PositionIndexError when a run cannot be
  // spilled (disk full) or after write_segment().
  void add(const store::Posting& posting);
  // Adds a run of postings sorted by sort_posting_records (a chunk's, sorted by the worker
  // that made it). games is how many distinct games the run holds; first and last
  // game ids are read from the run.
  // With sorted false the run is in key partition order only (PostingSorter::add_sorted_run).
  void add_sorted_run(std::vector<PostingSorter::Record> run, uint64_t games, bool sorted = true);
  // The same for a run whose game ids are offsets: a record's game is id_offset + its
  // game_id, and first_game_id, last_game_id (offset included) are the run's smallest and
  // largest, so that nothing reads the whole run on the caller's thread (the import's
  // writer, whose chunks keep their games' indexes when no game was skipped).
  void add_sorted_run(std::vector<PostingSorter::Record> run, uint64_t games, uint32_t id_offset, uint32_t first_game_id,
                      uint32_t last_game_id, bool sorted = true);
  // Whether runs should come sorted (PostingSorter::wants_sorted_runs).
  bool wants_sorted_runs() const { return sorter_.wants_sorted_runs(); }
  // Adds a whole game: keys[i] is the key after i plies (keys[0] the start position),
  // moves[i] the move played from it; keys.size() must be moves.size() + 1.
  void add_game(uint32_t game_id, store::GameResult result, std::span<const uint64_t> keys,
                std::span<const uint16_t> moves);

  // Starts merging and encoding the key partitions on options.threads threads now, so
  // that the caller can do other work meanwhile (the import's writer builds the games
  // indexes) and write_segment then inserts what is ready. Encoded blocks wait in memory
  // for write_segment: about a quarter of the memory budget, at least a window of
  // 2 x threads + 1 partitions; partitions finished further ahead wait in a temporary
  // file of temp_dir (indexer/block_spool.h) until write_segment starts, so the merge
  // never waits for the caller. Adds are refused afterwards. Does nothing for a small
  // segment (merged on write_segment's thread) or when called again.
  void start_merge();
  // Inserts the blocks of the partitions that start_merge's threads have finished, in key
  // order, without waiting for the others (the import's writer calls it between the
  // games index builds, so that the merge threads never wait long for room). The same
  // conditions and errors as write_segment, which inserts the rest. Does nothing unless
  // start_merge started threads.
  void insert_ready_blocks(store::Database& db, int64_t segment_id);
  // Merges the runs (unless start_merge did) and writes the segment's blocks and its
  // position_segments row, in the caller's open transaction (throws PositionIndexError
  // without one, or when the segment exists; store::StoreError for database failures).
  // segment_id is the import's source id. Once only; the run files are gone afterwards.
  store::SegmentStats write_segment(store::Database& db, int64_t segment_id);

  uint64_t postings_added() const { return stats_.postings; }
  // Sorted runs spilled to temp files so far.
  size_t runs_spilled() const { return sorter_.runs_spilled(); }
  // Wall seconds add_sorted_run held its caller up for spills (PostingSorter).
  double spill_held_up_seconds() const { return sorter_.held_up_seconds(); }
  // The temp files that exist now (for tests).
  std::vector<std::filesystem::path> run_paths() const { return sorter_.run_paths(); }
  // Bytes of encoded blocks that waited in a temporary file (start_merge; for tests and
  // measurements).
  uint64_t bytes_spooled() const;
  // Bytes per block section summed over the written segment (for measurements).
  const store::PostingBlockSizes& section_totals() const { return section_totals_; }

 private:
  PositionIndexOptions options_;
  PostingSorter sorter_;
  store::SegmentStats stats_;
  bool have_game_ = false;
  uint32_t last_game_id_ = 0;
  bool written_ = false;
  store::PostingBlockSizes section_totals_;
  struct Merge;  // the partitions being merged and encoded, and their threads
  // threads 0: on the calling thread, before returning. spool_ahead: see Merge.
  void start_merge(unsigned threads, bool spool_ahead);
  void check_segment_is_new(store::Database& db, int64_t segment_id);
  // Inserts the finished partitions in order; with wait, until every one is in or the
  // merge failed.
  void insert_partitions(store::Database& db, int64_t segment_id, bool wait);

  std::unique_ptr<Merge> merge_;
  bool segment_checked_ = false;
  uint64_t bytes_spooled_ = 0;  // once the merge is over
  uint64_t inserted_postings_ = 0, inserted_groups_ = 0;
};

}  // namespace pgnbase::indexer
