// The position index of a source merged from another pgnbase database
// (database_merge.h), taken from that database's own segment instead of being made again
// from the replayed games: its blocks are copied with their game ids moved (only the
// header's game_base changes) when every game of the source was merged, and decoded,
// renumbered and encoded again, block by block, when some were skipped.
//
// The other database is untrusted, so its postings are checked against the replay that
// the merge makes anyway to check each game's moves. For each game, a sum of a keyed
// 64-bit mix of every posting (stored key, game id and, for the postings whose block
// stores them, next move and result) is computed from the blocks, and the same sum over
// the positions the replay reaches; a sum does not depend on order, so the blocks (key
// order) and the replay (ply order) give the same value when they hold the same postings,
// and differ but for a chance of 2^-64 per game when they do not. The mix is keyed by a
// random seed per run, so no file can be made to collide on purpose. A game whose sums
// differ sends the whole source back to indexing by replay.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/move_code.h"
#include "core/types.h"
#include "indexer/position_index.h"
#include "store/database.h"

namespace pgnbase::indexer {

// Thread safety: read() on any thread; once it returned, replay_hash() and stored_hash()
// from any number of threads, write() on one.
class SourcePositions {
 public:
  // Reads and decodes the segment of source_id in other, whose games have ids in
  // [first_id, last_id]. Returns null, with why set, when the segment cannot be taken as
  // it is (absent, another layout, games moved to the source, a block that does not
  // decode, blocks out of key order, a posting of a game outside the range): the caller
  // then indexes the source by replay. damaged says whether why describes damage (worth
  // telling the user) rather than an older or different layout.
  // other (opened as untrusted, in a read snapshot) must stay live, unchanged and unused
  // by other threads until this object is destroyed: write() reads the blocks again.
  static std::unique_ptr<SourcePositions> read(store::Database& other, int64_t source_id, int64_t first_id,
                                               int64_t last_id, std::string& why, bool& damaged);
  ~SourcePositions();

  // The sum over one game's postings as the replay gives them: keys[i] is the key after
  // i plies, codes[i] the move played from it. Safe to call from several threads.
  uint64_t replay_hash(int64_t other_id, std::span<const Key> keys, std::span<const MoveCode> codes,
                       uint8_t result) const;
  // The same sum over the game's postings in the segment (0 when it has none).
  uint64_t stored_hash(int64_t other_id) const;

  // Writes db's segment segment_id (in db's open transaction) from the other database's
  // blocks, as read() decoded them: ids maps games of the source, by their id in other, to their id in db (0:
  // not merged; a game absent from ids is not merged either). options give the
  // compression level of a re-encoding; the key bits and lean layout are the segment's.
  store::SegmentStats write(store::Database& db, int64_t segment_id,
                            std::span<const std::pair<int64_t, int64_t>> ids, PositionIndexOptions options) const;

 private:
  struct Block {
    uint64_t first_key = 0, last_key = 0;  // fingerprints, as position_blocks holds them
    uint32_t postings = 0;
  };
  // Stored keys of the groups whose postings carry a next move and result.
  class KeySet {
   public:
    void insert(uint64_t key);
    bool contains(uint64_t key) const;

   private:
    void grow();
    // One bit per hash value's low bits: most keys of a replay are in no group of two, and
    // this small table (L2-resident) says so without touching the slots.
    std::vector<uint64_t> filter_;
    std::vector<uint64_t> slots_;  // kEmpty marks a free slot; the key kEmpty itself is has_empty_
    size_t size_ = 0;
    bool has_empty_ = false;
  };

  SourcePositions();
  uint64_t mix(uint64_t stored_key, uint32_t game, bool with_move, uint16_t move, uint8_t result) const;

  store::Database* other_ = nullptr;
  int64_t source_id_ = 0, first_id_ = 0;
  int key_bits_ = 64;    // the segment's fingerprint bits
  int extra_bits_ = 0;   // the key bits below them that groups with moves store
  uint64_t seed_ = 0;
  uint64_t postings_ = 0, distinct_keys_ = 0;
  std::vector<uint64_t> game_hashes_;     // by id - first_id_
  std::vector<uint32_t> game_postings_;   // the same, postings per game
  std::vector<Block> blocks_;
  KeySet keys_with_moves_;
  // Group keys stored with their extra bits although their postings carry no move
  // (groups of one in the blocks of a fingerprint that fills blocks of its own).
  KeySet keys_with_extra_only_;
  // (group key, game) of the postings without move of a key that has moves: the last
  // piece of a group split over blocks may hold one posting, which stores no move.
  KeySet moveless_of_keys_with_moves_;
};

}  // namespace pgnbase::indexer
