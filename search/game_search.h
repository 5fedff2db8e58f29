// The games a search selects, one at a time, in the requested order: header filters in
// SQL, the position filter through the index plus replay, the time-control filter in
// C++ (a database holds few distinct TimeControl values; each is judged once).
//
// Three ways to get there:
//   - no header filter, input order: one pass over the games table;
//   - header filters or another order: the ids (and sort values) of the passing games
//     first, from whichever indexes SQLite picks, sorted here, then each row by id (so
//     no plan ever sorts whole rows, blobs included);
//   - a position: the index's candidate games, filtered the same way, each confirmed
//     by replay when its turn comes (so --limit 20 replays about 20 games).
//
// Usage:
//   GameSearch search(db, options);
//   while (search.next()) print(search.row(), search.plies());
// The Database must outlive the search; row() views die at the next next().
// Not thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "store/database.h"
#include "search/game_check.h"
#include "search/game_filter.h"
#include "store/game_row.h"
#include "search/pattern_search.h"
#include "search/position_search.h"

namespace pgnbase::search {

struct SearchOptions {
  GameFilter filter;
  GameOrder order = GameOrder::Id;
  bool descending = false;          // --desc: the order reversed (unknown dates, unrated games still last)
  int64_t offset = 0;               // matching games to skip
  std::optional<int64_t> limit;     // at most this many games
  // Up to this many candidate games of a position search, the header filters are
  // checked game by game; above it, one pass over the filtered games is merged in.
  size_t point_lookup_limit = 20000;
  // count() of a position search: threads confirming candidates (0: one per core, at
  // most 8), each on its own read-only connection. Games are only ever appended, so
  // every connection sees every candidate.
  unsigned count_threads = 0;
  size_t parallel_count_candidates = 4096;  // fewer candidates are confirmed on this thread
  // A position search's candidates whose stored moves do not replay go here (when set).
  CorruptGameReport on_corrupt;
};

inline constexpr uint64_t kCheapCountGames = 20000;  // GameSearch::count_all_examining_at_most

class GameSearch {
 public:
  GameSearch(store::Database& db, SearchOptions options);

  // Advances to the next matching game; false at the end (or once limit games came).
  bool next();
  const store::GameRow& row() const { return row_; }
  // The game's move codes, decoded (only after next() returned true for a position
  // search; call codes() to decode otherwise).
  std::span<const MoveCode> codes();
  // Plies where the searched position occurs in the current game (empty without --fen).
  std::span<const uint32_t> plies() const { return plies_; }
  // The ply where the current game first matches the pattern (none without one).
  std::optional<uint32_t> pattern_ply() const { return pattern_ply_; }
  // What the pattern search scanned and replayed (for --timing and the benchmarks).
  const PatternSearchStats& pattern_stats() const { return pattern_stats_; }

  // Counts the matching games (offset and limit applied) without reading the rows'
  // blobs where SQL can count alone. Use instead of next(), not after it.
  int64_t count();

  // How many games match, offset and limit aside, counted by a second search; nullopt
  // where that would examine more than `games` games beyond what SQL counts alone (a
  // position's candidate games, each replayed, or, for a pattern without a position,
  // every game id of the database). Call after next() ran: it finds a position's
  // candidates. A table's total line and the server's page total ask it with
  // kCheapCountGames: on 1.48M games, counting the 611,044 after 1. e4 took nine times
  // as long as finding 10 of them.
  std::optional<int64_t> count_all_examining_at_most(uint64_t games);

  // Postings the position index returned, and games refuted by replay.
  uint64_t candidate_postings() const { return candidates_.postings.size(); }
  uint64_t candidate_games() const { return candidates_.games.size(); }
  uint64_t refuted_games() const { return refuted_; }

 private:
  bool next_matching();
  bool next_selected();
  bool next_position_match();
  void start();
  void select_games();
  void prepare_position_candidates();
  bool decode_codes();
  int64_t count_positions_in_parallel(unsigned threads);
  void select_pattern_games();
  void keep_pattern_candidates();
  void set_pattern_ply(uint32_t game_id);
  // The filter's SQL conditions, resolved once (names to ids, row filters to game ids).
  const store::GameConditions& conditions();

  store::Database& db_;
  SearchOptions options_;
  std::optional<store::GameConditions> conditions_;
  store::Statement statement_;
  store::Statement moves_statement_;  // position search: the candidates' moves
  bool rows_needed_ = true;           // false while count() runs
  store::GameRow row_;
  std::vector<MoveCode> codes_;
  bool codes_ready_ = false;
  std::vector<uint32_t> plies_;
  int64_t skipped_ = 0, returned_ = 0;
  bool started_ = false, done_ = false;

  // Selected games (header filters or another order): ids in output order.
  bool streaming_ = false;
  std::vector<uint32_t> selected_;
  size_t next_selected_ = 0;

  // Position search state.
  PositionCandidates candidates_;
  std::vector<uint32_t> order_;  // candidate indexes in output order
  size_t next_candidate_ = 0;
  uint64_t refuted_ = 0;
  Board start_;

  std::unordered_map<std::string, bool> time_control_verdicts_;

  // Pattern search: the matching games (by id) and the current one's match ply.
  std::vector<PatternHit> hits_;
  std::optional<uint32_t> pattern_ply_;
  PatternSearchStats pattern_stats_;
};

}  // namespace pgnbase::search
