#include "search/game_search.h"

#include <algorithm>
#include <thread>

#include "store/blob_codec.h"
#include "store/moves_codec.h"
#include "core/thread_group.h"
#include "store/game_query.h"
#include "store/read_snapshot.h"
#include "store/games_sql.h"

namespace pgnbase::search {

namespace {

using TimeControlVerdicts = std::unordered_map<std::string, bool>;

struct SortKey {
  int64_t primary;  // smaller first
  uint32_t index;   // candidate index, or game id when selecting
  uint32_t game_id;
};

// Sort value of a row of build_game_key_query: id, white_elo, black_elo, date_key,
// time_control. descending reverses the order of known values; unknown dates and
// unrated games stay last either way.
int64_t sort_value(GameOrder order, bool descending, const store::Statement& s) {
  switch (order) {
    case GameOrder::Id: return 0;
    case GameOrder::Date:
      if (s.column_is_null(3)) return INT64_MAX;
      return descending ? -s.column_int64(3) : s.column_int64(3);
    case GameOrder::Elo: {
      const bool w = !s.column_is_null(1), b = !s.column_is_null(2);
      if (!w && !b) return INT64_MAX;
      int64_t we = w ? s.column_int64(1) : 0, be = b ? s.column_int64(2) : 0;
      if (!w) we = be;
      if (!b) be = we;
      return descending ? we + be : -(we + be);  // strongest first unless descending
    }
  }
  return 0;
}

// Only what the order and the time-control filter read.
store::GameKeyColumns key_columns(const SearchOptions& options) {
  return {options.order == GameOrder::Elo, options.order == GameOrder::Date, options.filter.time_control.has_value()};
}

// Equal values keep input order, or its reverse when descending.
void sort_keys(std::vector<SortKey>& keys, bool descending) {
  std::sort(keys.begin(), keys.end(), [descending](const SortKey& a, const SortKey& b) {
    if (a.primary != b.primary) return a.primary < b.primary;
    return descending ? a.game_id > b.game_id : a.game_id < b.game_id;
  });
}

std::optional<std::string_view> optional_text(const store::Statement& s, int column) {
  if (s.column_is_null(column)) return std::nullopt;
  return s.column_text(column);
}

bool time_control_passes(const GameFilter& filter, TimeControlVerdicts& verdicts,
                         std::optional<std::string_view> time_control) {
  if (!filter.time_control) return true;
  std::string value(time_control.value_or("?"));
  auto it = verdicts.find(value);
  if (it == verdicts.end()) it = verdicts.emplace(value, filter.time_control->matches(value)).first;
  return it->second;
}

enum class Verdict { Skipped, Refuted, Confirmed, Corrupt };

// Reads a candidate's moves with `moves` (game_moves_by_id_sql), applies the time-control
// filter and replays it; plies gets the plies where the position occurs. A game whose
// moves do not replay is Corrupt, with the reason in `corrupt`. read_all: whether codes
// holds the whole game (the replay stops where the position becomes unreachable).
Verdict replay_candidate(store::Statement& moves, const PositionCandidate& c, const PositionCandidates& all,
                         const GameFilter& filter, TimeControlVerdicts& verdicts, std::vector<MoveCode>& codes,
                         Board& start, std::vector<uint32_t>& plies, std::string& corrupt, bool& read_all) {
  plies.clear();
  moves.reset();
  moves.bind_int64(1, c.game_id);
  if (!moves.step()) return Verdict::Skipped;
  if (!time_control_passes(filter, verdicts, optional_text(moves, 3))) return Verdict::Skipped;
  if (!read_and_confirm(moves, *filter.position, std::span(all.postings).subspan(c.first, c.count), codes, start, plies,
                        read_all)) {
    corrupt = replay_failure(moves);
    return Verdict::Corrupt;
  }
  return plies.empty() ? Verdict::Refuted : Verdict::Confirmed;
}

}  // namespace

GameSearch::GameSearch(store::Database& db, SearchOptions options) : db_(db), options_(std::move(options)) {}

const store::GameConditions& GameSearch::conditions() {
  if (!conditions_) conditions_ = options_.filter.sql_conditions(db_);
  return *conditions_;
}

void GameSearch::start() {
  started_ = true;
  statement_ = db_.prepare(store::build_game_by_id_query().sql);
  if (options_.filter.position) {
    prepare_position_candidates();
    keep_pattern_candidates();
    moves_statement_ = db_.prepare(store::sql::kGameMovesById);
  } else if (options_.filter.pattern) {
    select_pattern_games();
} else if (!options_.filter.has_sql_filters() && options_.order == GameOrder::Id && !options_.descending) {
    streaming_ = true;
    statement_ = db_.prepare(store::build_game_query({}, GameOrder::Id).sql);
  } else {
    select_games();
  }
}

void GameSearch::select_games() {
  store::SqlQuery q = store::build_game_key_query(conditions(), false, key_columns(options_));
  store::Statement s = db_.prepare(q.sql);
  q.bind(s);
  std::vector<SortKey> keys;
  while (s.step()) {
    if (!time_control_passes(options_.filter, time_control_verdicts_, optional_text(s, 4))) continue;
    const uint32_t id = uint32_t(s.column_int64(0));
    keys.push_back({sort_value(options_.order, options_.descending, s), id, id});
  }
  sort_keys(keys, options_.descending);
  selected_.resize(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) selected_[i] = keys[i].game_id;
}

void GameSearch::prepare_position_candidates() {
  find_candidates(db_, *options_.filter.position, candidates_);
  if (options_.filter.opening) {
    const std::vector<uint32_t> ids = games_starting_with(db_, *options_.filter.opening);
    std::erase_if(candidates_.games, [&](const PositionCandidate& c) {
      return !std::binary_search(ids.begin(), ids.end(), c.game_id);
    });
  }
  const auto& games = candidates_.games;
  if (!options_.filter.has_sql_filters() && options_.order == GameOrder::Id) {
    order_.resize(games.size());
    for (uint32_t i = 0; i < games.size(); ++i) order_[i] = options_.descending ? uint32_t(games.size()) - 1 - i : i;
    return;
  }
  std::vector<SortKey> keys;
  keys.reserve(games.size());
  if (games.size() <= options_.point_lookup_limit) {
    store::SqlQuery q = store::build_game_key_query(conditions(), true, key_columns(options_));
    store::Statement s = db_.prepare(q.sql);
    q.bind(s);
    for (uint32_t i = 0; i < games.size(); ++i) {
      s.reset();
      s.bind_int64(1, games[i].game_id);
      if (s.step()) keys.push_back({sort_value(options_.order, options_.descending, s), i, games[i].game_id});
    }
  } else {
    // Every passing game (from whichever index SQLite picks), then merged by id.
    store::SqlQuery q = store::build_game_key_query(conditions(), false, key_columns(options_));
    store::Statement s = db_.prepare(q.sql);
    q.bind(s);
    std::vector<SortKey> passing;
    while (s.step()) passing.push_back({sort_value(options_.order, options_.descending, s), 0, uint32_t(s.column_int64(0))});
    std::sort(passing.begin(), passing.end(), [](const SortKey& a, const SortKey& b) { return a.game_id < b.game_id; });
    size_t p = 0;
    for (uint32_t i = 0; i < games.size(); ++i) {
      while (p < passing.size() && passing[p].game_id < games[i].game_id) ++p;
      if (p < passing.size() && passing[p].game_id == games[i].game_id)
        keys.push_back({passing[p].primary, i, games[i].game_id});
    }
  }
  if (options_.order != GameOrder::Id || options_.descending) sort_keys(keys, options_.descending);
  order_.resize(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) order_[i] = keys[i].index;
}

void GameSearch::select_pattern_games() {
  const Pattern& pattern = *options_.filter.pattern;
  if (!options_.filter.has_header_filters() && options_.order == GameOrder::Id) {
    hits_ = find_pattern_games(db_, pattern, nullptr, options_.count_threads, &pattern_stats_);
    selected_.clear();
    for (const PatternHit& h : hits_) selected_.push_back(h.game_id);
    return;
  }
  select_games();
  std::vector<uint32_t> ids = selected_;
  std::sort(ids.begin(), ids.end());
  hits_ = find_pattern_games(db_, pattern, &ids, options_.count_threads, &pattern_stats_);
  std::erase_if(selected_, [&](uint32_t id) { return !find_hit(hits_, id); });
}

void GameSearch::keep_pattern_candidates() {
  if (!options_.filter.pattern) return;
  std::vector<uint32_t> ids;
  for (const PositionCandidate& c : candidates_.games) ids.push_back(c.game_id);  // by id already
  hits_ = find_pattern_games(db_, *options_.filter.pattern, &ids, options_.count_threads, &pattern_stats_);
  std::erase_if(order_, [&](uint32_t i) { return !find_hit(hits_, candidates_.games[i].game_id); });
}

void GameSearch::set_pattern_ply(uint32_t game_id) {
  pattern_ply_.reset();
  if (!options_.filter.pattern) return;
  if (const PatternHit* h = find_hit(hits_, game_id)) pattern_ply_ = h->ply;
}

bool GameSearch::decode_codes() {
  if (!codes_ready_) {
    Board start;
    codes_ready_ = store::stored_start_position(row_.variant, row_.start_fen, start) &&
                   store::decode_moves(row_.moves, start, codes_);
  }
  return codes_ready_;
}

std::span<const MoveCode> GameSearch::codes() {
  if (!decode_codes()) return {};
  return codes_;
}

bool GameSearch::next_position_match() {
  const auto& games = candidates_.games;
  while (next_candidate_ < order_.size()) {
    const PositionCandidate& c = games[order_[next_candidate_++]];
    std::string corrupt;
    bool read_all = false;
    const Verdict v = replay_candidate(moves_statement_, c, candidates_, options_.filter, time_control_verdicts_,
                                       codes_, start_, plies_, corrupt, read_all);
    if (v == Verdict::Refuted) ++refuted_;
    if (v == Verdict::Corrupt && options_.on_corrupt) options_.on_corrupt(c.game_id, corrupt);
    if (v != Verdict::Confirmed) continue;
    codes_ready_ = read_all;  // else codes() reads the whole game from its row
    set_pattern_ply(c.game_id);
    if (rows_needed_) {
      statement_.reset();
      statement_.bind_int64(1, c.game_id);
      if (!statement_.step()) continue;
      store::read_game_row(statement_, row_);
    }
    return true;
  }
  return false;
}

bool GameSearch::next_selected() {
  while (next_selected_ < selected_.size()) {
    statement_.reset();
    statement_.bind_int64(1, selected_[next_selected_++]);
    if (!statement_.step()) continue;
    store::read_game_row(statement_, row_);
    codes_ready_ = false;
    set_pattern_ply(uint32_t(row_.id));
    return true;
  }
  return false;
}

bool GameSearch::next_matching() {
  if (options_.filter.position) return next_position_match();
  if (!streaming_) return next_selected();
  while (statement_.step()) {
    store::read_game_row(statement_, row_);
    codes_ready_ = false;
    if (time_control_passes(options_.filter, time_control_verdicts_, row_.time_control)) return true;
  }
  return false;
}

bool GameSearch::next() {
  if (!started_) start();
  if (done_ || (options_.limit && returned_ >= *options_.limit)) return false;
  while (next_matching()) {
    if (skipped_ < options_.offset) {
      ++skipped_;
      continue;
    }
    ++returned_;
    return true;
  }
  done_ = true;
  return false;
}

int64_t GameSearch::count_positions_in_parallel(unsigned threads) {
  std::vector<int64_t> counts(threads, 0);
  std::vector<uint64_t> refuted(threads, 0);
  std::vector<std::exception_ptr> errors(threads);
  std::vector<std::vector<std::pair<int64_t, std::string>>> corrupt(threads);  // reported after the join
  const size_t chunk = (order_.size() + threads - 1) / threads;
  // Joined however this ends: a thread that cannot start throws ThreadStartError once
  // the others have finished their share.
  ThreadGroup workers;
  for (unsigned t = 0; t < threads; ++t)
    workers.start([&, t] {
      try {
        store::Database db(db_.path(), store::Database::Mode::ReadOnly);
        store::ReadSnapshot snapshot(db);
        store::Statement moves = db.prepare(store::sql::kGameMovesById);
        TimeControlVerdicts verdicts;
        std::vector<MoveCode> codes;
        std::vector<uint32_t> plies;
        Board start;
        const size_t end = std::min(order_.size(), (t + 1) * chunk);
        std::string reason;
        for (size_t i = t * chunk; i < end; ++i) {
          const PositionCandidate& c = candidates_.games[order_[i]];
          bool read_all;
          const Verdict v =
              replay_candidate(moves, c, candidates_, options_.filter, verdicts, codes, start, plies, reason, read_all);
          counts[t] += v == Verdict::Confirmed;
          refuted[t] += v == Verdict::Refuted;
          if (v == Verdict::Corrupt) corrupt[t].emplace_back(c.game_id, reason);
        }
      } catch (...) {
        errors[t] = std::current_exception();
      }
    }, "counting thread " + std::to_string(t + 1) + " of " + std::to_string(threads));
  workers.join();
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
  if (options_.on_corrupt)
    for (const auto& games : corrupt)
      for (const auto& [id, reason] : games) options_.on_corrupt(id, reason);
  int64_t total = 0;
  for (unsigned t = 0; t < threads; ++t) total += counts[t], refuted_ += refuted[t];
  return total;
}

std::optional<int64_t> GameSearch::count_all_examining_at_most(uint64_t games) {
  if (options_.filter.position) {
    if (candidates_.games.size() > games) return std::nullopt;
  } else if (options_.filter.pattern) {
    store::Statement s = db_.prepare(store::sql::kMaxGameId);
    if (!s.step() || uint64_t(s.column_int64(0)) > games) return std::nullopt;
  }
  SearchOptions all = options_;
  all.offset = 0;
  all.limit.reset();
  return GameSearch(db_, std::move(all)).count();
}

int64_t GameSearch::count() {
  auto clamp = [&](int64_t total) {
    total = std::max<int64_t>(0, total - options_.offset);
    if (options_.limit) total = std::min(total, *options_.limit);
    done_ = started_ = true;
    return total;
  };
  if (!options_.filter.position && options_.filter.pattern) {
    select_pattern_games();
    return clamp(int64_t(selected_.size()));
  }
  if (!options_.filter.position) {
    if (!options_.filter.time_control) {
      store::SqlQuery q = store::build_game_count_query(conditions());
      store::Statement s = db_.prepare(q.sql);
      q.bind(s);
      return clamp(s.step() ? s.column_int64(0) : 0);
    }
    select_games();  // applies the time-control filter to the key rows
    return clamp(int64_t(selected_.size()));
  }
  prepare_position_candidates();
  keep_pattern_candidates();
  unsigned threads = options_.count_threads ? options_.count_threads
                                            : std::min(8u, std::max(1u, std::thread::hardware_concurrency()));
  if (threads > 1 && order_.size() >= options_.parallel_count_candidates && db_.path() != ":memory:" && !db_.path().empty())
    return clamp(count_positions_in_parallel(threads));
  moves_statement_ = db_.prepare(store::sql::kGameMovesById);
  started_ = true;
  rows_needed_ = false;
  int64_t n = 0;
  while (next()) ++n;
  return n;
}

}  // namespace pgnbase::search
