// Truncated copies: a game whose moves are a prefix of another's with the same players,
// event, date, round and start position (a broadcast saved before its last moves, or
// before its result was known). The writer asks this finder about each game that is not
// an exact duplicate; the finder keeps, in memory, the game ids of every stored game by
// a hash of those headers, and compares moves only for games whose headers agree, so the
// cost is one hash look-up per game and one row read per candidate.
//
// Not thread-safe: used by the single writer, on its connection (it sees the rows of the
// import in progress).
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>

#include "indexer/game_record.h"
#include "indexer/store/database.h"

namespace pgnbase::indexer {

struct TruncatedCopy {
  uint64_t game_number = 0;  // the new game, in its file
  uint64_t line = 0;
  int64_t stored_id = 0;     // the stored game it was compared with
  uint64_t plies = 0, stored_plies = 0;
  bool new_is_shorter = true;  // true: the new game was skipped; false: it was imported, the stored one stays
};

// The hash of the headers two copies of one game share (White, Black, Event, Date, Round,
// start position; absent ones as export writes them). The worker computes it for each
// game (encode_game); find() and add() read game.copy_header_hash.
uint64_t truncated_copy_header_hash(const GameRecord& game);

class TruncatedCopyFinder {
 public:
  explicit TruncatedCopyFinder(store::Database& db) : db_(db) {}

  // A stored game that the new game is a truncated copy of, or that is a truncated copy
  // of the new game (moves a strict prefix, or the same moves with the result unknown on
  // the shorter side).
  std::optional<TruncatedCopy> find(const GameRecord& game);
  // Registers a game just stored.
  void add(const GameRecord& game, int64_t id);
  // Forgets everything (a rolled-back or removed source); reloaded on the next find.
  void clear();

 private:
  void load();

  store::Database& db_;
  std::unordered_multimap<uint64_t, int64_t> ids_by_header_;
  bool loaded_ = false;
};

}  // namespace pgnbase::indexer
