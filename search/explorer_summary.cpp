#include "search/explorer_summary.h"

#include <deque>
#include <unordered_set>

#include "core/fen.h"
#include "core/move_code.h"
#include "core/movegen.h"
#include "core/san.h"
#include "store/explorer_summaries.h"

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

}  // namespace

SummaryBuildStats build_explorer_summaries(store::Database& db, uint64_t min_games) {
  SummaryBuildStats stats;
  store::write_eco_positions(db);
  store::ExplorerSummaryWriter writer(db);
  const std::optional<store::GameFacets> facets = store::read_game_facets(db);
  if (!facets) return stats;
  const Board start = parse_fen(kStartFen).value();
  std::deque<Board> queue = {start};
  std::unordered_set<uint64_t> seen = {start.key()};
  while (!queue.empty()) {
    const Board position = queue.front();
    queue.pop_front();
    ExplorerOptions options;
    options.filter.position = position;
    options.use_summaries = false;
    options.facets = &*facets;
    options.top_games = kSummaryTopGames;
    const ExplorerResult r = explore(db, options);
    if (r.games < min_games) continue;
    stats.bytes += writer.write(position.key(), summary_of(position, r));
    ++stats.positions;
    for (const ExplorerMove& m : r.moves) {
      if (m.games < min_games) continue;
      Board next = position;
      UndoInfo undo;
      next.do_move(m.move, undo);
      if (seen.insert(next.key()).second) queue.push_back(next);
    }
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
