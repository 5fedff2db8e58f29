#include "query/game_search.h"

#include <algorithm>

#include "indexer/blob_codec.h"
#include "query/game_sql.h"

namespace pgnbase::query {

namespace {

struct SortKey {
  int64_t primary;  // smaller first
  uint32_t candidate;
  uint32_t game_id;
};

int64_t sort_value(GameOrder order, const store::Statement& s) {
  // Columns of build_game_key_query: id, white_elo, black_elo, date_key.
  switch (order) {
    case GameOrder::Id: return 0;
    case GameOrder::Date: return s.column_is_null(3) ? INT64_MAX : s.column_int64(3);
    case GameOrder::Elo: {
      bool w = !s.column_is_null(1), b = !s.column_is_null(2);
      int64_t we = w ? s.column_int64(1) : 0, be = b ? s.column_int64(2) : 0;
      if (!w) we = be;
      if (!b) be = we;
      return -(we + be);
    }
  }
  return 0;
}

}  // namespace

GameSearch::GameSearch(store::Database& db, SearchOptions options) : db_(db), options_(std::move(options)) {
  if (options_.filter.position) {
    prepare_position_candidates();
    SqlQuery q = build_game_by_id_query(GameFilter{});
    statement_ = db_.prepare(q.sql);
    moves_statement_ = db_.prepare(sql::kGameMovesById);
  } else {
    SqlQuery q = build_game_query(options_.filter, options_.order);
    statement_ = db_.prepare(q.sql);
    q.bind(statement_);
  }
}

void GameSearch::prepare_position_candidates() {
  find_candidates(db_, *options_.filter.position, candidates_);
  const auto& games = candidates_.games;
  const bool need_sql = options_.filter.has_sql_filters() || options_.order != GameOrder::Id;
  if (!need_sql) {
    order_.resize(games.size());
    for (uint32_t i = 0; i < games.size(); ++i) order_[i] = i;
    return;
  }
  std::vector<SortKey> keys;
  keys.reserve(games.size());
  if (games.size() <= options_.point_lookup_limit) {
    SqlQuery q = build_game_key_query(options_.filter, true);
    store::Statement s = db_.prepare(q.sql);
    q.bind(s);
    for (uint32_t i = 0; i < games.size(); ++i) {
      s.reset();
      s.bind_int64(1, games[i].game_id);
      if (s.step()) keys.push_back({sort_value(options_.order, s), i, games[i].game_id});
    }
  } else {
    SqlQuery q = build_game_key_query(options_.filter, false);
    store::Statement s = db_.prepare(q.sql);
    q.bind(s);
    uint32_t i = 0;
    while (i < games.size() && s.step()) {
      const int64_t id = s.column_int64(0);
      while (i < games.size() && games[i].game_id < id) ++i;
      if (i < games.size() && games[i].game_id == id) {
        keys.push_back({sort_value(options_.order, s), i, games[i].game_id});
        ++i;
      }
    }
  }
  if (options_.order != GameOrder::Id)
    std::stable_sort(keys.begin(), keys.end(), [](const SortKey& a, const SortKey& b) {
      return a.primary != b.primary ? a.primary < b.primary : a.game_id < b.game_id;
    });
  order_.resize(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) order_[i] = keys[i].candidate;
}

bool GameSearch::passes_time_control(std::optional<std::string_view> time_control) {
  if (!options_.filter.time_control) return true;
  std::string value(time_control.value_or("?"));
  auto it = time_control_verdicts_.find(value);
  if (it == time_control_verdicts_.end())
    it = time_control_verdicts_.emplace(value, options_.filter.time_control->matches(value)).first;
  return it->second;
}

bool GameSearch::decode_codes() {
  if (!codes_ready_) codes_ready_ = indexer::decode_moves(row_.moves, codes_);
  return codes_ready_;
}

std::span<const MoveCode> GameSearch::codes() {
  if (!decode_codes()) return {};
  return codes_;
}

bool GameSearch::next_position_match() {
  const auto& games = candidates_.games;
  store::Statement& s = moves_statement_;
  while (next_candidate_ < order_.size()) {
    const PositionCandidate& c = games[order_[next_candidate_++]];
    s.reset();
    s.bind_int64(1, c.game_id);
    if (!s.step()) continue;
    if (options_.filter.time_control &&
        !passes_time_control(s.column_is_null(3) ? std::nullopt : std::optional(s.column_text(3))))
      continue;
    const std::span<const std::byte> blob = s.column_blob(0);
    const std::optional<std::string_view> start_fen =
        s.column_is_null(2) ? std::nullopt : std::optional(s.column_text(2));
    plies_.clear();
    if (!indexer::decode_moves({reinterpret_cast<const char*>(blob.data()), blob.size()}, codes_) ||
        !set_start_position(int(s.column_int64(1)), start_fen, start_)) {
      ++refuted_;
      continue;
    }
    confirm_plies(start_, codes_, *options_.filter.position,
                  std::span(candidates_.postings).subspan(c.first, c.count), plies_);
    if (plies_.empty()) {
      ++refuted_;
      continue;
    }
    codes_ready_ = true;
    if (rows_needed_) {
      statement_.reset();
      statement_.bind_int64(1, c.game_id);
      if (!statement_.step()) continue;  // deleted since: not in this snapshot's transaction
      read_game_row(statement_, row_);
    }
    return true;
  }
  return false;
}

bool GameSearch::next_matching() {
  if (options_.filter.position) return next_position_match();
  while (statement_.step()) {
    read_game_row(statement_, row_);
    codes_ready_ = false;
    if (passes_time_control(row_.time_control)) return true;
  }
  return false;
}

bool GameSearch::next() {
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

int64_t GameSearch::count() {
  if (!options_.filter.position && !options_.filter.time_control) {
    SqlQuery q = build_game_count_query(options_.filter);
    store::Statement s = db_.prepare(q.sql);
    q.bind(s);
    int64_t total = s.step() ? s.column_int64(0) : 0;
    total = std::max<int64_t>(0, total - options_.offset);
    if (options_.limit) total = std::min(total, *options_.limit);
    done_ = true;
    return total;
  }
  rows_needed_ = false;
  int64_t n = 0;
  while (next()) ++n;
  return n;
}

}  // namespace pgnbase::query
