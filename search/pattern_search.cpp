#include "search/pattern_search.h"

#include <algorithm>
#include <exception>
#include <thread>

#include "core/move_code.h"
#include "core/thread_group.h"
#include "store/material_blocks.h"
#include "store/material_runs.h"
#include "store/game_row.h"
#include "store/game_query.h"
#include "store/read_snapshot.h"
#include "store/games_sql.h"
#include "search/pattern_match.h"
#include "search/position_search.h"

namespace pgnbase::search {

namespace {

constexpr unsigned kMaxThreads = 8;
// A look-up by id costs about as much as scanning this many rows.
constexpr size_t kScanPerLookup = 20;

// One thread's share: games [first_id, last_id], hits appended in id order.
class RangeScan {
 public:
  RangeScan(store::Database& db, const Pattern& pattern, const std::vector<uint32_t>* only)
      : db_(db), pattern_(pattern), only_(only) {}

  // The blocks of a few chosen games are looked up; otherwise the range's blocks are
  // scanned (store/material_blocks.h).
  void run(uint32_t first_id, uint32_t last_id, std::vector<PatternHit>& hits, PatternSearchStats& stats) {
    if (pattern_.needs_board()) moves_ = db_.prepare(store::sql::kGameMovesById);
    first_id_ = first_id;
    auto wanted = [&](int64_t id) {
      return id >= first_id && id <= last_id &&
             (!only_ || std::binary_search(only_->begin(), only_->end(), uint32_t(id)));
    };
    store::Statement s = db_.prepare(store::sql::kMaterialBlocksInRange);
    if (only_ && only_->size() * kScanPerLookup < size_t(last_id - first_id) + 1) {
      int64_t last_block = -1;
      auto it = std::lower_bound(only_->begin(), only_->end(), first_id);
      for (; it != only_->end() && *it <= last_id; ++it) {
        const int64_t block = store::material_block_of(*it);
        if (block == last_block) continue;  // judged with the block's first chosen game
        last_block = block;
        s.reset();
        s.bind_int64(1, block);
        s.bind_int64(2, block);
        if (s.step()) judge_block(s, wanted, hits, stats);
      }
      return;
    }
    s.bind_int64(1, store::material_block_of(first_id));
    s.bind_int64(2, store::material_block_of(last_id));
    while (s.step()) judge_block(s, wanted, hits, stats);
  }

 private:
  // The wanted games of the current row (block, games, runs) of kMaterialBlocksInRange.
  template <class Wanted>
  void judge_block(const store::Statement& s, const Wanted& wanted, std::vector<PatternHit>& hits,
                   PatternSearchStats& stats) {
    const std::span<const std::byte> blob = s.column_blob(2);
    const bool whole = store::decode_material_block(
        s.column_int64(0), {reinterpret_cast<const char*>(blob.data()), blob.size()}, entries_);
    for (const store::MaterialEntry& e : entries_)
      if (wanted(e.game_id)) judge(uint32_t(e.game_id), e.runs, hits, stats);
    // The games past the damage: as many as the row says it holds (at least one, at most
    // what a block has room for after the entries read); counted by the range that holds
    // the block's first id (a block may straddle two threads' ranges).
    if (!whole && store::first_game_of_material_block(s.column_int64(0)) >= first_id_) {
      const int64_t room = std::max<int64_t>(1, store::kMaterialBlockGames - int64_t(entries_.size()));
      const uint64_t lost = uint64_t(std::clamp<int64_t>(s.column_int64(1) - int64_t(entries_.size()), 1, room));
      stats.games += lost;
      stats.corrupt += lost;
    }
  }

  void judge(uint32_t id, std::string_view runs, std::vector<PatternHit>& hits, PatternSearchStats& stats) {
    ++stats.games;
    if (!store::decode_material_runs(runs, runs_)) {
      ++stats.corrupt;
      return;
    }
    std::optional<uint32_t> ply = pattern_.needs_board() ? match_with_board(id, stats) : match_material();
    if (ply) hits.push_back({id, *ply});
  }

  // Material and imbalance only: the runs answer exactly.
  std::optional<uint32_t> match_material() {
    StreakFinder finder(pattern_, runs_.side_at_ply0, runs_.plies);
    for (const store::MaterialRun& r : runs_.runs)
      if (finder.feed(r.first, r.length, material_matches(pattern_, r.material))) return finder.match_ply();
    return std::nullopt;
  }

  // Squares too: replays the game up to the last ply whose material allows a match.
  std::optional<uint32_t> match_with_board(uint32_t id, PatternSearchStats& stats) {
    const PlyWindow window = squares_window(pattern_, runs_);
    const uint64_t from = std::max<uint64_t>(window.first, pattern_.ply_from);
    const uint64_t to = std::min<uint64_t>(window.last, pattern_.ply_to);
    uint32_t end = 0;  // one past the last ply that may hold
    allowed_.clear();
    for (const store::MaterialRun& r : runs_.runs) {
      const bool ok = from <= to && material_matches(pattern_, r.material) && r.first <= to &&
                      uint64_t(r.first) + r.length > from;
      allowed_.push_back(ok);
      if (ok) end = uint32_t(std::min<uint64_t>(r.first + r.length, to + 1));
    }
    if (end == 0) return std::nullopt;
    ++stats.replayed;
    StreakFinder finder(pattern_, runs_.side_at_ply0, runs_.plies);
    size_t run = 0;
    std::optional<uint32_t> match;
    bool stopped = false;  // before the last ply: the move count is not checked then
    // Reads the moves only up to the last ply that may hold (or the match, or the ply from
    // which the pawns make the squares impossible).
    auto visit = [&](const Board& board, size_t ply) {
      if (ply < end && !squares_impossible(pattern_, board)) {
        while (ply >= runs_.runs[run].first + runs_.runs[run].length) ++run;
        const bool holds = allowed_[run] && ply >= from && squares_match(pattern_, board);
        if (!finder.feed(uint32_t(ply), 1, holds)) return true;
        match = finder.match_ply();
      }
      stopped = true;
      return false;
    };
    moves_.reset();
    moves_.bind_int64(1, id);
    if (!moves_.step() || !read_replay_row(moves_, codes_, board_, visit) ||
        (!stopped && codes_.size() != runs_.plies)) {
      ++stats.corrupt;
      return std::nullopt;
    }
    return match;
  }

  store::Database& db_;
  const Pattern& pattern_;
  const std::vector<uint32_t>* only_;
  store::Statement moves_;
  store::MaterialRuns runs_;
  std::vector<store::MaterialEntry> entries_;
  uint32_t first_id_ = 0;  // of the range run() scans
  std::vector<bool> allowed_;
  std::vector<MoveCode> codes_;
  Board board_;
};

}  // namespace

std::vector<PatternHit> find_pattern_games(store::Database& db, const Pattern& pattern,
                                           const std::vector<uint32_t>* only, unsigned threads,
                                           PatternSearchStats* stats) {
  store::Statement max_id = db.prepare(store::sql::kMaxGameId);
  const uint32_t last = max_id.step() ? uint32_t(max_id.column_int64(0)) : 0;
  if (threads == 0) threads = std::min(kMaxThreads, std::max(1u, std::thread::hardware_concurrency()));
  if (db.path().empty() || db.path() == ":memory:" || last < 1000) threads = 1;
  std::vector<std::vector<PatternHit>> hits(threads);
  std::vector<PatternSearchStats> counts(threads);
  std::vector<std::exception_ptr> errors(threads);
  const uint32_t share = last / threads + 1;
  auto work = [&](unsigned t, store::Database& connection) {
    const uint32_t first = t * share + 1, end = std::min<uint64_t>(uint64_t(t + 1) * share, last);
    if (first <= end) RangeScan(connection, pattern, only).run(first, end, hits[t], counts[t]);
  };
  if (threads == 1) {
    work(0, db);
  } else {
    ThreadGroup workers;  // joined on every path, never std::terminate
    for (unsigned t = 0; t < threads; ++t)
      workers.start([&, t] {
        try {
          store::Database connection(db.path(), store::Database::Mode::ReadOnly);
          store::ReadSnapshot snapshot(connection);
          work(t, connection);
        } catch (...) {
          errors[t] = std::current_exception();
        }
      }, "pattern thread " + std::to_string(t + 1) + " of " + std::to_string(threads));
    workers.join();
    for (const std::exception_ptr& e : errors)
      if (e) std::rethrow_exception(e);
  }
  std::vector<PatternHit> all;
  for (unsigned t = 0; t < threads; ++t) {
    all.insert(all.end(), hits[t].begin(), hits[t].end());
    if (stats) {
      stats->games += counts[t].games;
      stats->replayed += counts[t].replayed;
      stats->corrupt += counts[t].corrupt;
    }
  }
  return all;
}

const PatternHit* find_hit(std::span<const PatternHit> hits, uint32_t game_id) {
  auto it = std::lower_bound(hits.begin(), hits.end(), game_id,
                             [](const PatternHit& h, uint32_t id) { return h.game_id < id; });
  return it != hits.end() && it->game_id == game_id ? &*it : nullptr;
}

}  // namespace pgnbase::search
