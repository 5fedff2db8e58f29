// Looks keys up in the position index: per segment, reads only the block (or, for a
// key with more postings than a block holds, the consecutive blocks) whose key range
// holds the key, and decodes only that key's postings.
//
// A segment written with key_bits < 64 stores fingerprints: its lookups also return
// postings of other keys that share the key's top bits: without moves, those of keys
// seen once in their block that share its fingerprint (on average fewer than half a
// posting a lookup and segment), with moves, rarely (see PositionIndexOptions::key_bits
// and fingerprint_bits). Callers replay the games of postings without moves, which
// refutes them. Postings always carry the key that was asked for.
// Every lookup reads one consistent snapshot of the database (it opens a read
// transaction when none is open), so it may run while an import writes (WAL).
//
// The Database must outlive the reader. Not thread-safe: one reader per thread, each
// on its own Database.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "store/position_posting.h"
#include "store/posting_block_codec.h"
#include "store/database.h"

namespace pgnbase::store {

class PositionIndexReader {
 public:
  explicit PositionIndexReader(store::Database& db);

  // Every posting of key in every segment, sorted by game id, then ply.
  std::vector<Posting> lookup(uint64_t key);

  // Calls visitor with the postings of key, a block at a time, without collecting them
  // all (the explorer on the start position of a million games). Order: segment by
  // segment (by segment id), and within a segment by game id, then ply (for a
  // fingerprint segment, within each block only). The span dies when visitor returns.
  void visit(uint64_t key, const std::function<void(std::span<const Posting>)>& visitor);

  // How many postings key has, without decoding them.
  uint64_t count(uint64_t key);

  // From now on, segments with a smaller id are left out (0: none): the postings of the
  // games imported since (an update of the explorer summaries).
  void skip_segments_before(int64_t segment_id) { first_segment_id_ = segment_id; }

  // Up to this many threads beside the caller's decode the blocks of one visit or lookup
  // while the caller takes the postings of those before (block_decode_ahead.h); 0, the
  // default: the caller decodes each block in turn. The postings and their order are the
  // same either way.
  void set_decode_threads(unsigned helpers) { decode_threads_ = helpers; }
  // The helpers that pay on this machine: one per core beside the caller's, at most 3 (the
  // caller's own work on the postings is then the longer part).
  static unsigned default_decode_threads();

  // Blocks read (decoded headers) since construction, for tests and benchmarks.
  uint64_t blocks_read() const { return blocks_read_; }

 private:
  // Calls on_block with the bytes of each block of each segment that may hold key and the
  // segment's id, in segment id order, then block order.
  void for_each_candidate_block(uint64_t key,
                                const std::function<void(std::span<const uint8_t>, int64_t)>& on_block);
  // Calls on_postings with each block's postings of key, decoded on decode_threads_
  // helpers.
  void visit_decoding_ahead(uint64_t key, const std::function<void(std::span<const Posting>)>& on_postings);

  store::Database& db_;
  store::Statement select_segments_;
  store::Statement select_blocks_;
  PostingBlockDecoder decoder_;
  std::vector<Posting> scratch_;
  uint64_t blocks_read_ = 0;
  int64_t first_segment_id_ = 0;
  unsigned decode_threads_ = 0;
};

}  // namespace pgnbase::store
