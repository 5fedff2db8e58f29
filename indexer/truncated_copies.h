// Truncated copies: an earlier state of a game that is also stored whole (a broadcast saved
// before its last moves, or before its result was known). A game is a truncated copy of
// another when
//   - its result is unknown ("*" or no result at all): a finished game is never a copy;
//   - White, Black, Event, Date, Round and the start position are equal (absent ones as
//     export writes them: "?", "????.??.??");
//   - every tag that identifies one game (kIdentifyingTags: Site, a game id or a game URL)
//     is equal, one present on one side only counting as different;
//   - its moves are a strict prefix of the other's, or the same moves where only the other
//     has a result.
// A new game that is a copy of one stored game and extends another (a broadcast saved
// three times, the middle state last) is a copy: skipped.
// The writer asks this finder about each game that is not an exact duplicate; the finder
// keeps, in memory, the game ids of every stored game by a hash of the first headers and
// the first byte of the moves, with whether the game is finished and the next three bytes,
// and reads a stored game's row only when the headers agree, the first four bytes agree as
// far as the shorter game has them, and one of the two games is unfinished (two finished
// games are never copies), so the cost is one hash look-up per game (256 for a game
// without moves), in the small table of unfinished games for a finished one, and one row
// read per plausible candidate, candidates taken in the order they were stored. The
// tables are filled from the database when first needed, and only as far as needed:
// while every new game is finished, with the stored games without a result alone (an
// archive appended to a large database reads a few rows, not every stored game's
// headers); the first unfinished new game adds the finished ones. The games stored since
// the first fill come by add(), never read back. A stored row is read with its names
// joined: the writer, which writes new names once per chunk, writes them first (the
// constructor's hook).
//
// Not thread-safe: used by the single writer, on its connection (it sees the rows of the
// import in progress).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "indexer/game_id_table.h"
#include "indexer/game_record.h"
#include "store/database.h"

namespace pgnbase::indexer {

// The tags that name one game: a game of another Site, game id or game URL is another game.
inline constexpr std::string_view kIdentifyingTags[] = {"Site", "GameId", "GameURL", "ChapterURL",
                                                         "Link", "FICSGamesDBGameNo", "LichessURL"};

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
// The first bytes of a game's moves (after the blob's format byte) and how many there
// are, packed: the worker makes it (GameRecord::copy_moves_prefix), so that the writer
// files and checks a game without reading its moves (a read that misses the cache on
// the writer's thread). Never 0 for a game with moves.
uint64_t truncated_copy_moves_prefix(std::string_view moves_blob);

class TruncatedCopyFinder {
 public:
  // before_reading runs before the finder reads stored rows (it writes the caller's
  // pending rows, names above all).
  TruncatedCopyFinder(store::Database& db, std::function<void()> before_reading);

  // A stored game that the new game is a truncated copy of, or that is a truncated copy
  // of the new game (moves a strict prefix, or the same moves with the result unknown on
  // the shorter side).
  std::optional<TruncatedCopy> find(const GameRecord& game);
  // Registers a game just stored.
  void add(const GameRecord& game, int64_t id);
  // Forgets everything (a rolled-back or removed source); reloaded on the next find.
  void clear();
  // The ids of every stored game without a result, from a scan the caller makes anyway
  // (the writer's dedupe keys): the finder then reads those games by id instead of
  // scanning the games table again. Forgotten by clear().
  void set_unfinished_ids(std::vector<uint32_t> ids);

 private:
  // What the tables hold of the stored games.
  enum class Loaded { Nothing, Unfinished, All };
  void load(Loaded what);
  // Files a game under its headers' hash and first move byte (table_key), in
  // unfinished_ or finished_ by its mark.
  void file(uint64_t header, uint32_t first, uint32_t id, uint32_t mark);
  // The stored games under key (unfinished ones; finished ones too when asked), by id.
  void candidates(uint64_t key, bool with_finished, std::vector<std::pair<uint32_t, uint32_t>>& out);

  struct Entry {
    uint64_t key;
    uint32_t id, mark;
  };

  store::Database& db_;
  std::function<void()> before_reading_;
  // By headers and first move byte; the mark: finished, and the moves' next bytes. A
  // finished new game can only extend an unfinished stored one (two finished games are
  // never copies), so finished games, most of any archive, probe the unfinished ones'
  // small table alone. The finished ones wait in a list (finished_waiting_) that an
  // unfinished new game reads through, and go into their table once read often enough:
  // a file of finished games, or of a few unfinished ones, never builds it.
  GameIdTable unfinished_, finished_;
  // The unfinished ones by their headers alone: most finished games have no unfinished
  // game of the same headers, and are answered without reading their moves (on the
  // writer's thread, the first read of a record a worker wrote misses the cache).
  GameIdTable unfinished_headers_;
  std::vector<Entry> finished_waiting_;
  size_t waiting_read_ = 0;  // entries of finished_waiting_ read since it was last filed
  std::vector<std::pair<uint32_t, uint32_t>> candidates_;  // (id, mark): reused by find()
  Loaded loaded_ = Loaded::Nothing;
  // Set by set_unfinished_ids while nothing is loaded.
  std::optional<std::vector<uint32_t>> unfinished_ids_;
  // The largest game id stored when the table was first filled: later games came by add().
  int64_t stored_through_ = 0;
};

}  // namespace pgnbase::indexer
