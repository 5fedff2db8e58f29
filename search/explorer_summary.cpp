#include "search/explorer_summary.h"

#include <algorithm>
#include <atomic>
#include <climits>
#include <unordered_set>

#include "core/fen.h"
#include "core/move_code.h"
#include "core/movegen.h"
#include "core/san.h"
#include "core/thread_group.h"
#include "store/explorer_summaries.h"
#include "store/read_snapshot.h"

namespace pgnbase::search {

namespace {

store::ExplorerSummary summary_of(const Board& position, const ExplorerResult& r) {
  store::ExplorerSummary summary;
  summary.games = uint32_t(r.games);
  summary.ended_here = uint32_t(r.ended_here);
  for (const ExplorerMove& m : r.moves)
    summary.moves.push_back({encode_move(position, m.move), uint32_t(m.games), uint32_t(m.white_wins),
                             uint32_t(m.draws), uint32_t(m.black_wins), uint32_t(m.rated_games),
                             uint64_t(m.rating_sum)});
  for (const TopGame& g : r.top_games) {
    store::ExplorerSummary::TopGame& top = summary.top_games.emplace_back();
    top.id = uint32_t(g.id);
    for (const ExplorerMove& m : r.moves)
      if (m.san == g.san) top.code = encode_move(position, m.move);
  }
  return summary;
}

// A position's row of before plus the answer from the new segments alone: the counts add
// up; the top games are the best of both lists by rating sum (then lower id), as the
// explorer ranks them. Moves in the explorer's order (most games, then SAN).
store::ExplorerSummary add_summaries(const Board& position, const store::ExplorerSummary& before,
                                     const store::ExplorerSummary& added, const store::GameFacets& facets) {
  store::ExplorerSummary sum;
  sum.games = before.games + added.games;
  sum.ended_here = before.ended_here + added.ended_here;
  sum.moves = before.moves;
  for (const store::ExplorerSummary::Move& m : added.moves) {
    auto same = std::find_if(sum.moves.begin(), sum.moves.end(), [&](const auto& s) { return s.code == m.code; });
    if (same == sum.moves.end()) {
      sum.moves.push_back(m);
      continue;
    }
    same->games += m.games, same->white_wins += m.white_wins, same->draws += m.draws;
    same->black_wins += m.black_wins, same->rated_games += m.rated_games, same->rating_sum += m.rating_sum;
  }
  std::vector<std::pair<store::ExplorerSummary::Move, std::string>> by_san;
  for (const store::ExplorerSummary::Move& m : sum.moves) {
    Move move;
    std::string san;
    if (decode_stored_move(position, m.code, move)) append_san(position, move, san);
    by_san.emplace_back(m, std::move(san));
  }
  std::stable_sort(by_san.begin(), by_san.end(), [](const auto& a, const auto& b) {
    return a.first.games != b.first.games ? a.first.games > b.first.games : a.second < b.second;
  });
  for (size_t i = 0; i < by_san.size(); ++i) sum.moves[i] = by_san[i].first;

  auto rating_sum = [&](uint32_t id) {
    return id <= facets.last_id ? int(facets.white_elo[id]) + int(facets.black_elo[id]) : 0;
  };
  sum.top_games = before.top_games;
  sum.top_games.insert(sum.top_games.end(), added.top_games.begin(), added.top_games.end());
  std::stable_sort(sum.top_games.begin(), sum.top_games.end(), [&](const auto& a, const auto& b) {
    const int ra = rating_sum(a.id), rb = rating_sum(b.id);
    return ra != rb ? ra > rb : a.id < b.id;
  });
  if (sum.top_games.size() > kSummaryTopGames) sum.top_games.resize(kSummaryTopGames);
  return sum;
}

// The explorer's answers to asks, in order: on up to `threads` read connections of their
// own when there are several asks and the database is a file whose position index is
// committed (a reader sees only that), else one after the other on db. The start
// position is a level alone (a third of the work on the master-style bench file); the
// levels after it hold its common continuations, explored side by side.
std::vector<ExplorerResult> explore_together(store::Database& db, const std::vector<ExplorerOptions>& asks,
                                             unsigned threads) {
  std::vector<ExplorerResult> answers(asks.size());
  const size_t helpers = std::min<size_t>(threads, asks.size());
  auto one_by_one = [&] {
    for (size_t i = 0; i < asks.size(); ++i) answers[i] = explore(db, asks[i]);
    return answers;
  };
  if (helpers <= 1 || db.path().empty() || db.path() == ":memory:") return one_by_one();
  {
    // A reader sees the committed position index only: the same segments as db, or db's
    // own connection answers.
    store::Database reader(db.path(), store::Database::Mode::ReadOnly);
    store::ReadSnapshot snapshot(reader);
    if (!(store::segment_totals(reader, INT64_MAX) == store::segment_totals(db, INT64_MAX))) return one_by_one();
  }
  std::atomic<size_t> next{0};
  ThreadGroup group;
  for (size_t t = 0; t < helpers; ++t)
    group.start(
        [&] {
          store::Database connection(db.path(), store::Database::Mode::ReadOnly);
          store::ReadSnapshot snapshot(connection);
          for (size_t i; (i = next.fetch_add(1)) < asks.size();) answers[i] = explore(connection, asks[i]);
        },
        "explorer summary thread " + std::to_string(t + 1) + " of " + std::to_string(helpers));
  group.join();  // rethrows a thread's error
  return answers;
}

}  // namespace

SummaryBase summary_base(store::Database& db) {
  const store::SegmentTotals totals = store::segment_totals(db, INT64_MAX);
  return {store::summary_stamp(db), totals.last_id + 1, totals.segments, totals.postings};
}

SummaryBuildStats build_explorer_summaries(store::Database& db, uint64_t min_games, const SummaryBase* since,
                                           unsigned threads) {
  SummaryBuildStats stats;
  // The rows of before, read before the writer empties the table, when the segments of
  // then are unchanged: nothing was removed or replaced since, so every game they counted
  // is still there and every game since is in a newer segment.
  std::unordered_map<uint64_t, store::ExplorerSummary> before;
  if (since && store::segment_totals(db, since->first_new_segment) ==
                   store::SegmentTotals{since->segments, since->postings, since->first_new_segment - 1})
    before = store::read_explorer_summaries(db, since->stamp);
  store::write_eco_positions(db);
  store::ExplorerSummaryWriter writer(db);
  const std::optional<store::GameFacets> facets = store::read_game_facets(db);
  if (!facets) return stats;
  const Board start = parse_fen(kStartFen).value();
  // Breadth first, a level at a time (the order of a queue: each level's positions in
  // the order their parents reached them), each level's positions explored together.
  std::vector<Board> level = {start};
  std::unordered_set<uint64_t> seen = {start.key()};
  while (!level.empty()) {
    std::vector<ExplorerOptions> asks(level.size());
    for (size_t i = 0; i < level.size(); ++i) {
      ExplorerOptions& options = asks[i];
      options.filter.position = level[i];
      options.use_summaries = false;
      options.facets = &*facets;
      options.top_games = kSummaryTopGames;
      options.counts_only = true;
      // The start position is a level alone: its blocks decode beside the count. Levels
      // of several positions are explored side by side already (explore_together).
      options.decode_threads =
          level.size() == 1 ? std::min(threads > 0 ? threads - 1 : 0, options.decode_threads) : 0;
      if (before.count(level[i].key())) options.first_segment_id = since->first_new_segment;
    }
    const std::vector<ExplorerResult> answers = explore_together(db, asks, threads);
    std::vector<Board> next_level;
    for (size_t i = 0; i < level.size(); ++i) {
      const Board& position = level[i];
      store::ExplorerSummary summary = summary_of(position, answers[i]);
      if (const auto old = before.find(position.key()); old != before.end()) {
        summary = add_summaries(position, old->second, summary, *facets);
        ++stats.updated;
      }
      if (summary.games < min_games) continue;
      stats.bytes += writer.write(position.key(), summary);
      ++stats.positions;
      for (const store::ExplorerSummary::Move& m : summary.moves) {
        Move move;
        if (m.games < min_games || !decode_stored_move(position, m.code, move)) continue;
        Board next = position;
        UndoInfo undo;
        next.do_move(move, undo);
        if (seen.insert(next.key()).second) next_level.push_back(next);
      }
    }
    level = std::move(next_level);
  }
  return stats;
}

std::optional<ExplorerResult> read_explorer_summary(store::Database& db, const Board& position) {
  const std::optional<store::ExplorerSummary> summary = store::read_explorer_summary(db, position.key());
  if (!summary) return std::nullopt;
  MoveList legal;
  generate_legal_moves(position, legal);
  ExplorerResult r;
  r.fen = write_fen(position);
  r.games = summary->games;
  r.ended_here = summary->ended_here;
  r.used_facets = true;
  for (const store::ExplorerSummary::Move& stored : summary->moves) {
    ExplorerMove& m = r.moves.emplace_back();
    // A stored key shared with another position (a 64-bit collision) gives moves that
    // are not legal here: the summary is not this position's.
    if (!decode_stored_move(position, stored.code, m.move) || !legal.contains(m.move)) return std::nullopt;
    append_san(position, m.move, m.san);
    append_move(position, m.move, MoveStyle::Uci, english(), m.uci);
    m.games = stored.games, m.white_wins = stored.white_wins, m.draws = stored.draws;
    m.black_wins = stored.black_wins, m.rated_games = stored.rated_games;
    m.rating_sum = double(stored.rating_sum);
  }
  for (const store::ExplorerSummary::TopGame& stored : summary->top_games) {
    TopGame& g = r.top_games.emplace_back();
    g.id = stored.id;
    Move m;
    if (stored.code != store::ExplorerSummary::kEndedHere && decode_stored_move(position, stored.code, m))
      for (const ExplorerMove& em : r.moves)
        if (em.move == m) g.san = em.san;
  }
  return r;
}

}  // namespace pgnbase::search
