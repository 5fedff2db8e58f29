#include "search/explorer.h"

#include <algorithm>
#include <array>
#include <optional>
#include <unordered_map>

#include "core/fen.h"
#include "core/movegen.h"
#include "core/san.h"
#include "store/game_facets.h"
#include "store/position_index_reader.h"
#include "store/game_row.h"
#include "store/game_query.h"
#include "store/games_sql.h"
#include "search/explorer_summary.h"
#include "search/position_search.h"

namespace pgnbase::search {

namespace {

constexpr int32_t kUnknownCode = -2, kNotHere = -1;
constexpr uint16_t kEnded = 0xFFFF;
constexpr int kNoRating = -1;

struct Entry {
  uint32_t game_id;
  uint16_t move;  // index into the result's moves, or kEnded
  uint8_t result;
};

struct GameInfo {
  bool passes = false;
  int white_elo = kNoRating, black_elo = kNoRating;
};

int rating_of(const store::Statement& s, int column) {
  return s.column_is_null(column) ? kNoRating : int(s.column_int64(column));
}

// Header-filter verdict and ratings for each of ids (ascending, distinct), from SQL.
std::vector<GameInfo> look_up_games(store::Database& db, const GameFilter& filter, const std::vector<uint32_t>& ids,
                                    size_t point_lookup_limit) {
  std::vector<GameInfo> info(ids.size());
  std::unordered_map<std::string, bool> time_control_verdicts;
  auto time_control_ok = [&](const store::Statement& s) {
    if (!filter.time_control) return true;
    std::string value(s.column_is_null(4) ? std::string_view("?") : s.column_text(4));
    auto it = time_control_verdicts.find(value);
    if (it == time_control_verdicts.end())
      it = time_control_verdicts.emplace(value, filter.time_control->matches(value)).first;
    return it->second;
  };
  auto fill = [&](size_t i, const store::Statement& s) {
    if (!time_control_ok(s)) return;
    info[i] = {true, rating_of(s, 1), rating_of(s, 2)};
  };
  // One pass over the rating index fills an array by game id; ids are dense in a real
  // database, but one from someone else may hold an id of 2^62: then look up by id.
  int64_t max_id = 0;
  if (ids.size() > point_lookup_limit && !filter.has_header_filters()) {
    store::Statement s = db.prepare(store::sql::kMaxGameId);
    max_id = s.step() ? s.column_int64(0) : 0;
  }
  const bool dense_ids = max_id >= 0 && uint64_t(max_id) <= 4 * uint64_t(ids.size()) + (uint64_t{1} << 24);
  if (ids.size() <= point_lookup_limit || (!filter.has_header_filters() && !dense_ids)) {
    store::SqlQuery q = store::build_game_key_query(filter.sql_conditions(db), true);
    store::Statement s = db.prepare(q.sql);
    q.bind(s);
    for (size_t i = 0; i < ids.size(); ++i) {
      s.reset();
      s.bind_int64(1, ids[i]);
      if (s.step()) fill(i, s);
    }
  } else if (!filter.has_header_filters()) {
    // Only ratings are needed: one pass over each rating index, into arrays by game id.
    const int64_t size = max_id + 1;
    std::vector<int16_t> white(size_t(size), kNoRating), black(size_t(size), kNoRating);
    for (auto [sql, ratings] : {std::pair{store::sql::kWhiteElos, &white}, std::pair{store::sql::kBlackElos, &black}}) {
      store::Statement s = db.prepare(sql);
      while (s.step()) {
        const int64_t id = s.column_int64(0), elo = s.column_int64(1);
        if (id > 0 && id < size && elo >= 0 && elo < 32768) (*ratings)[size_t(id)] = int16_t(elo);
      }
    }
    for (size_t i = 0; i < ids.size(); ++i)
      if (ids[i] < size) info[i] = {true, white[ids[i]], black[ids[i]]};
  } else {
    // Every passing game (from whichever index SQLite picks), then merged by id.
    store::SqlQuery q = store::build_game_key_query(filter.sql_conditions(db), false);
    store::Statement s = db.prepare(q.sql);
    q.bind(s);
    std::vector<std::pair<uint32_t, GameInfo>> passing;
    while (s.step())
      if (time_control_ok(s)) passing.push_back({uint32_t(s.column_int64(0)), {true, rating_of(s, 1), rating_of(s, 2)}});
    std::sort(passing.begin(), passing.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    size_t p = 0;
    for (size_t i = 0; i < ids.size(); ++i) {
      while (p < passing.size() && passing[p].first < ids[i]) ++p;
      if (p < passing.size() && passing[p].first == ids[i]) info[i] = passing[p].second;
    }
  }
  return info;
}

// Whether the facets answer every filter set (ratings, dates, time control).
bool facets_answer(const GameFilter& f) {
  return !f.eco && !f.white && !f.black && !f.player && !f.event && !f.site && !f.result && !f.min_plies &&
         !f.max_plies && !f.has_row_filters();
}

// Every game's verdict by id (1: it passes the filters), from the game facets: one pass
// over the facet arrays per filter, which the compiler vectorises, rather than a judgement
// per game as its postings come (four times the cost on the start position).
std::vector<uint8_t> facet_verdicts(const store::GameFacets& facets, const GameFilter& filter) {
  const size_t games = size_t(facets.last_id) + 1;
  std::vector<uint8_t> passes(games, 1);
  if (filter.min_elo || filter.max_elo) {
    const int64_t low = std::max<int64_t>(1, filter.min_elo.value_or(1)), high = filter.max_elo.value_or(INT64_MAX);
    for (size_t id = 0; id < games; ++id) {
      const int64_t white = facets.white_elo[id], black = facets.black_elo[id];
      const bool white_in = white >= low && white <= high, black_in = black >= low && black <= high;
      passes[id] &= filter.elo_either ? white_in | black_in : white_in & black_in;
    }
  }
  if (filter.date_from_key) {
    const int64_t from = std::max<int64_t>(1, *filter.date_from_key);
    for (size_t id = 0; id < games; ++id) passes[id] &= facets.date_key[id] >= from;
  }
  if (filter.date_to_key) {
    const int64_t to = *filter.date_to_key;
    for (size_t id = 0; id < games; ++id) {
      const int64_t date = facets.date_key[id];
      passes[id] &= date > 0 && date <= to && last_possible_day(date) <= to;
    }
  }
  if (filter.time_control) {
    std::vector<uint8_t> by_value(facets.time_controls.size() + 1);
    for (size_t v = 0; v < by_value.size(); ++v)
      by_value[v] = filter.time_control->matches(v ? facets.time_controls[v - 1] : "?");
    for (size_t id = 0; id < games; ++id) {
      const uint16_t v = facets.time_control[id];
      passes[id] &= v < by_value.size() && by_value[v];
    }
  }
  return passes;
}

// One game's verdict and ratings from the game facets and their verdicts (facet_verdicts;
// empty: every game passes): what look_up_games gives from SQL. Holds the arrays'
// addresses, so that a loop that stores bytes elsewhere need not read them again for
// every game.
class FacetInfo {
 public:
  FacetInfo(const store::GameFacets& facets, const std::vector<uint8_t>& verdicts)
      : white_elo_(facets.white_elo.data()),
        black_elo_(facets.black_elo.data()),
        verdicts_(verdicts.empty() ? nullptr : verdicts.data()),
        last_id_(facets.last_id) {}

  GameInfo operator()(uint32_t id) const {
    if (id > last_id_ || (verdicts_ && !verdicts_[id])) return {};
    const int white = white_elo_[id], black = black_elo_[id];
    return {true, white ? white : kNoRating, black ? black : kNoRating};
  }

 private:
  const uint16_t* white_elo_;
  const uint16_t* black_elo_;
  const uint8_t* verdicts_;
  uint32_t last_id_;
};

// The top games by rating sum (both players rated), best first, ties to the lower id. A
// heap of the best `count` offered so far: the start position has a million candidates
// and the answer ten.
class TopRatedGames {
 public:
  explicit TopRatedGames(size_t count) : count_(count) { best_.reserve(count); }

  [[gnu::always_inline]] void offer(uint32_t id, uint16_t first_move, const GameInfo& info) {
    if (count_ == 0 || info.white_elo == kNoRating || info.black_elo == kNoRating) return;
    const Rated candidate{info.white_elo + info.black_elo, id, first_move};
    if (best_.size() < count_) {
      best_.push_back(candidate);
      std::push_heap(best_.begin(), best_.end(), better);
    } else if (better(candidate, best_.front())) {
      std::pop_heap(best_.begin(), best_.end(), better);
      best_.back() = candidate;
      std::push_heap(best_.begin(), best_.end(), better);
    }
  }

  struct Rated {
    int rating_sum;
    uint32_t id;
    uint16_t first_move;  // the game's first counted entry's move
  };

  // Best first; the heap is spent.
  std::vector<Rated> take_best() {
    std::sort_heap(best_.begin(), best_.end(), better);
    return std::move(best_);
  }

 private:
  static bool better(const Rated& a, const Rated& b) {
    return a.rating_sum != b.rating_sum ? a.rating_sum > b.rating_sum : a.id < b.id;
  }
  size_t count_;
  std::vector<Rated> best_;  // a heap whose front is the worst kept
};

// Counts entries into the result's totals and moves, a game's entries together (they
// pass or fail together; the first one counts the game).
class EntryCounter {
 public:
  EntryCounter(ExplorerResult& result, size_t top_games, bool ratings, Color mover)
      : result_(result), top_rated_(top_games), ratings_(ratings), mover_(mover) {}

  // game: the game's verdict and ratings; null when neither filters nor ratings need them.
  [[gnu::always_inline]] void count(const Entry& e, const GameInfo* game) {
    if (game && !game->passes) return;
    if (!any_counted_ || e.game_id != last_counted_) {
      ++result_.games;
      last_counted_ = e.game_id;
      any_counted_ = true;
      if (game) top_rated_.offer(e.game_id, e.move, *game);
    }
    if (e.move == kEnded) {
      ++result_.ended_here;
      return;
    }
    // Tallies without a branch on the result (the start position's are a coin toss).
    MoveTally& t = tallies_[e.move];
    ++t.by_result[e.result & 3];
    if (game && ratings_) {
      const int rating = mover_ == WHITE ? game->white_elo : game->black_elo;
      const bool rated = rating != kNoRating;
      t.rated_games += rated;
      t.rating_sum += rated ? rating : 0;
    }
  }

  // The next entries of game id belong to a game counted already.
  void continue_game(uint32_t id) {
    last_counted_ = id;
    any_counted_ = true;
  }

  // Back to no game counted (the moves found so far stay, with no games).
  void reset(size_t top_games) {
    result_.games = result_.ended_here = 0;
    tallies_.fill({});
    top_rated_ = TopRatedGames(top_games);
    any_counted_ = false;
  }

  // Each move's tallies into the result; the top games, best first, with the move each
  // played from the position.
  void finish() {
    for (size_t i = 0; i < result_.moves.size(); ++i) {
      const MoveTally& t = tallies_[i];
      ExplorerMove& m = result_.moves[i];
      m.white_wins = t.by_result[1], m.draws = t.by_result[2], m.black_wins = t.by_result[3];
      m.games = t.by_result[0] + m.white_wins + m.draws + m.black_wins;
      m.rated_games = t.rated_games;
      m.rating_sum = double(t.rating_sum);
    }
    for (const TopRatedGames::Rated& best : top_rated_.take_best()) {
      TopGame& top = result_.top_games.emplace_back();
      top.id = best.id;
      if (best.first_move != kEnded) top.san = result_.moves[best.first_move].san;
    }
  }

 private:
  struct MoveTally {
    uint64_t by_result[4] = {};  // unknown, 1-0, 1/2-1/2, 0-1
    uint64_t rated_games = 0;
    int64_t rating_sum = 0;
  };
  ExplorerResult& result_;
  // By index into the result's moves: distinct legal moves of a position, at most 218.
  std::array<MoveTally, 256> tallies_{};
  TopRatedGames top_rated_;
  bool ratings_;
  Color mover_;
  uint32_t last_counted_ = 0;
  bool any_counted_ = false;
};

// Keeps, of each game's entries (contiguous), the first of each move: a game whose postings
// at a key straddle two blocks may have one replayed and one read with its move.
void drop_repeated_moves(std::vector<Entry>& entries) {
  size_t kept = 0, game_start = 0;
  for (size_t i = 0; i < entries.size(); ++i) {
    if (kept == 0 || entries[i].game_id != entries[kept - 1].game_id) game_start = kept;
    bool seen = false;
    for (size_t j = game_start; j < kept && !seen; ++j) seen = entries[j].move == entries[i].move;
    if (!seen) entries[kept++] = entries[i];
  }
  entries.resize(kept);
}

// Fills in the players, ratings, result and date of each top game (id set) from its row.
void read_top_game_rows(store::Database& db, std::vector<TopGame>& top) {
  store::Statement s = db.prepare(store::build_game_by_id_query().sql);
  store::GameRow row;
  std::erase_if(top, [&](TopGame& g) {
    s.reset();
    s.bind_int64(1, g.id);
    if (!s.step()) return true;
    store::read_game_row(s, row);
    g.white = row.white.value_or("?");
    g.black = row.black.value_or("?");
    g.result = store::result_token(row.result);
    g.date = row.date.value_or("????.??.??");
    g.white_elo = int(row.white_elo.value_or(0));
    g.black_elo = int(row.black_elo.value_or(0));
    return false;
  });
}

// For games whose postings carry no next move (a lean segment stores none for a key that
// occurs once in a block): replays each game and adds an entry per distinct move played
// where it reaches the position, with the game's result. A game that never reaches it
// (a fingerprint shared with another position) adds nothing.
template <typename MoveIndex>
void add_replayed_entries(store::Database& db, const Board& position, std::vector<uint32_t>& ids,
                          MoveIndex& move_index, std::vector<Entry>& entries, const CorruptGameReport& on_corrupt) {
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  store::Statement moves = db.prepare(store::sql::kGameMovesById);
  store::Statement result = db.prepare(store::sql::kGameResultById);
  const store::Posting anywhere{.ply = store::kUnknownPly};  // replay the whole game
  std::vector<MoveCode> codes;
  std::vector<uint32_t> plies;
  Board start;
  for (uint32_t id : ids) {
    moves.reset();
    moves.bind_int64(1, id);
    plies.clear();
    if (!moves.step()) continue;
    bool read_all;  // unused: a stopped reading still holds the move after each confirmed ply
    if (!read_and_confirm(moves, position, {&anywhere, 1}, codes, start, plies, read_all)) {
      if (on_corrupt) on_corrupt(id, replay_failure(moves));
      continue;
    }
    if (plies.empty()) continue;
    result.reset();
    result.bind_int64(1, id);
    const uint8_t game_result = result.step() ? uint8_t(result.column_int64(0) & 3) : 0;
    const size_t game_start = entries.size();
    for (uint32_t ply : plies) {
      const int32_t index = ply < codes.size() ? move_index(codes[ply]) : kEnded;
      bool seen = index == kNotHere;
      for (size_t i = game_start; i < entries.size() && !seen; ++i) seen = entries[i].move == uint16_t(index);
      if (!seen) entries.push_back({id, uint16_t(index), game_result});
    }
  }
}


// What every answer gets once counted: moves sorted (most games first, then SAN), and
// unless only counts are asked for, the FEN and opening after each move and the top
// games' rows.
void finish_result(store::Database& db, const Board& position, std::vector<uint64_t>& path, bool counts_only,
                   ExplorerResult& result) {
  std::erase_if(result.moves, [](const ExplorerMove& m) { return m.games == 0; });
  std::sort(result.moves.begin(), result.moves.end(), [](const ExplorerMove& a, const ExplorerMove& b) {
    return a.games != b.games ? a.games > b.games : a.san < b.san;
  });
  if (counts_only) return;
  for (ExplorerMove& m : result.moves) {
    Board next = position;
    UndoInfo undo;
    next.do_move(m.move, undo);
    m.fen = write_fen(next);
    path.push_back(next.key());
    m.opening = store::name_opening(db, path);
    path.pop_back();
  }
  read_top_game_rows(db, result.top_games);
}

}  // namespace

ExplorerResult explore(store::Database& db, const ExplorerOptions& options) {
  const Board& position = *options.filter.position;
  std::vector<uint64_t> path = options.path_keys;
  if (path.empty() || path.back() != position.key()) path.push_back(position.key());
  if (options.use_summaries && !options.filter.has_header_filters() && !options.filter.opening &&
      options.top_games <= kSummaryTopGames) {
    if (std::optional<ExplorerResult> summary = read_explorer_summary(db, position)) {
      ExplorerResult& result = *summary;
      result.ratings = options.ratings;
      result.opening = store::name_opening(db, path);
      if (result.top_games.size() > options.top_games) result.top_games.resize(options.top_games);
      if (!options.ratings)
        for (ExplorerMove& m : result.moves) m.rated_games = 0, m.rating_sum = 0;
      finish_result(db, position, path, options.counts_only, result);
      return result;
    }
  }
  ExplorerResult result;
  result.fen = write_fen(position);
  result.ratings = options.ratings;
  if (!options.counts_only) result.opening = store::name_opening(db, path);

  MoveList legal;
  generate_legal_moves(position, legal);
  // Move index by code: a small open-addressing table (a position has few distinct codes).
  struct Slot {
    uint32_t code = 0x10000;  // empty
    int32_t index = kUnknownCode;
  };
  std::array<Slot, 1024> slots{};
  size_t used_slots = 0;
  auto move_index = [&](uint16_t code) __attribute__((always_inline)) -> int32_t {
    uint32_t h = (code * 0x9E37u) >> 6 & 1023;
    while (slots[h].code != code && slots[h].code != 0x10000) h = (h + 1) & 1023;
    Slot& slot = slots[h];
    if (slot.code == code) return slot.index;
    if (++used_slots > 768) return kNotHere;  // only postings of other positions get here
    slot.code = code;
    int32_t& index = slot.index;
    Move m;
    if (code == kNullMoveCode) return index = kEnded;
    if (!decode_stored_move(position, code, m) || !legal.contains(m)) return index = kNotHere;
    for (size_t i = 0; i < result.moves.size(); ++i)
      if (result.moves[i].move == m) return index = int32_t(i);  // same move, other castling code
    ExplorerMove& em = result.moves.emplace_back();
    em.move = m;
    append_san(position, m, em.san);
    append_move(position, m, MoveStyle::Uci, english(), em.uci);
    return index = int32_t(result.moves.size() - 1);
  };

  // The game facets, read before the postings when they answer the filters: then a game
  // that fails them is left out as its postings are read, so that a filtered start
  // position of a million games keeps entries, ids and ratings of the passing ones only.
  store::PositionIndexReader reader(db);
  reader.skip_segments_before(options.first_segment_id);
  reader.set_decode_threads(options.decode_threads);
  const uint64_t posting_count = reader.count(position.key());
  const GameFilter& filter = options.filter;
  const bool need_games = options.ratings || options.top_games > 0 || filter.has_header_filters();
  std::optional<store::GameFacets> read_facets;
  const store::GameFacets* facets = nullptr;
  if (need_games && options.use_facets && facets_answer(filter) &&
      (options.facets || posting_count >= options.facet_min_games)) {
    if (!options.facets)
      read_facets = store::read_game_facets(db, {.ratings = true,
                                                 .date = filter.date_from_key || filter.date_to_key,
                                                 .time_control = filter.time_control.has_value()});
    facets = options.facets ? options.facets : read_facets ? &*read_facets : nullptr;
  }
  std::vector<uint8_t> verdicts;  // by game id, when the facets judge the filters
  if (facets && filter.has_header_filters()) verdicts = facet_verdicts(*facets, filter);
  // Leaving the failing games out as the postings are read pays when most games fail
  // (--min-elo 2200: 70% of them); when most pass, the check per posting costs more than
  // it saves.
  const bool leave_out = size_t(std::count(verdicts.begin(), verdicts.end(), 1)) * 2 < verdicts.size();
  // By value: a loop takes its own copy, whose members then stay in registers (the byte
  // stores it makes could otherwise change what a reference reads).
  const auto passes = [leave_out, verdict = verdicts.data(), judged = verdicts.size()](uint32_t id) {
    return !leave_out || (id < judged && verdict[id]);
  };

  // One entry per (game, distinct move), in posting order. When the facets (or nothing)
  // judge the games and no opening filter needs every id first, entries are counted as
  // they are read (the start position of a million games keeps none); else, and when games
  // come out of id order (not from an import), they are collected, sorted, then counted.
  const size_t top_games = need_games ? options.top_games : 0;
  EntryCounter counter(result, top_games, options.ratings, position.side_to_move());
  std::vector<Entry> entries;        // collected, or (streamed) those of the games to replay
  std::vector<uint32_t> replay_ids;  // games whose postings here carry no move (lean segments)
  // Streamed: the entries counted of a game before a posting of it without move (its
  // postings at the key in two blocks); its replay counts neither them nor the game again.
  std::vector<Entry> counted_before_replay;
  bool out_of_order = false;
  auto read_streaming = [&] {
    uint32_t current = 0;
    bool any = false, replaying = false;
    std::vector<uint16_t> game_moves;  // the current game's, each once
    GameInfo info;
    const GameInfo* game = nullptr;
    reader.visit(position.key(), [&](std::span<const store::Posting> postings) {
      if (out_of_order) return;  // the collecting read starts over
      // Locals rather than the captured ones: the byte stores below would otherwise make
      // every posting read them again.
      const auto passes_here = passes;
      const std::optional<FacetInfo> info_of = facets ? std::optional(FacetInfo(*facets, verdicts)) : std::nullopt;
      for (const store::Posting& p : postings) {
        if (!passes_here(p.game_id)) continue;
        if (!any || p.game_id != current) {
          if (any && p.game_id < current) {
            out_of_order = true;
            return;
          }
          current = p.game_id;
          any = true;
          replaying = false;
          game_moves.clear();
          if (info_of) {
            info = (*info_of)(current);
            game = &info;
          }
        }
        if (game && !game->passes) continue;
        if (p.next_move == store::kUnknownNextMove) {
          if (!replaying) {
            replaying = true;
            replay_ids.push_back(current);
            for (uint16_t move : game_moves) counted_before_replay.push_back({current, move, 0});
          }
          continue;
        }
        const int32_t index = move_index(p.next_move);
        if (index == kNotHere || std::find(game_moves.begin(), game_moves.end(), uint16_t(index)) != game_moves.end())
          continue;
        game_moves.push_back(uint16_t(index));
        const Entry e{p.game_id, uint16_t(index), uint8_t(p.result)};
        if (replaying) entries.push_back(e);
        else counter.count(e, game);
      }
    });
  };
  auto read_collecting = [&] {
    // The counts come from block headers, which may claim more than the blocks decode to.
    entries.reserve(size_t(std::min<uint64_t>(posting_count, uint64_t{1} << 22)));
    uint32_t current = 0;
    size_t game_start = 0;
    reader.visit(position.key(), [&](std::span<const store::Posting> postings) {
      for (const store::Posting& p : postings) {
        if (!passes(p.game_id)) continue;
        if (p.next_move == store::kUnknownNextMove) {
          if (replay_ids.empty() || replay_ids.back() != p.game_id) replay_ids.push_back(p.game_id);
          continue;
        }
        const int32_t index = move_index(p.next_move);
        if (index == kNotHere) continue;
        if (p.game_id != current || entries.empty()) {
          current = p.game_id;
          game_start = entries.size();
        } else {
          bool seen = false;
          for (size_t i = game_start; i < entries.size() && !seen; ++i) seen = entries[i].move == uint16_t(index);
          if (seen) continue;
        }
        entries.push_back({p.game_id, uint16_t(index), uint8_t(p.result)});
      }
    });
  };
  bool streamed = false;
  if ((facets || !need_games) && !filter.opening) {
    read_streaming();
    streamed = !out_of_order;
    if (!streamed) {
      counter.reset(top_games);
      entries.clear(), replay_ids.clear(), counted_before_replay.clear();
    }
  }
  if (!streamed) read_collecting();

  // What is left to count: every entry, or (streamed) those of the games to replay.
  auto by_game = [](const Entry& a, const Entry& b) { return a.game_id < b.game_id; };
  if (!replay_ids.empty()) {
    add_replayed_entries(db, position, replay_ids, move_index, entries, options.on_corrupt);
    std::stable_sort(entries.begin(), entries.end(), by_game);
    drop_repeated_moves(entries);
    std::erase_if(entries, [&](const Entry& e) {  // counted as read (both sorted by game)
      auto [first, last] = std::equal_range(counted_before_replay.begin(), counted_before_replay.end(), e, by_game);
      return std::any_of(first, last, [&](const Entry& c) { return c.move == e.move; });
    });
  } else if (!std::is_sorted(entries.begin(), entries.end(), by_game)) {  // segments out of id order
    std::stable_sort(entries.begin(), entries.end(), by_game);
  }
  if (options.filter.opening) {  // --from-start-only (never streamed)
    const std::vector<uint32_t> starting = games_starting_with(db, *options.filter.opening);
    std::erase_if(entries, [&](const Entry& e) { return !std::binary_search(starting.begin(), starting.end(), e.game_id); });
  }

  // Each game's verdict and ratings: from the facets, else from SQL into info, by ids.
  std::vector<uint32_t> ids;
  std::vector<GameInfo> info;
  result.used_facets = facets != nullptr;
  if (need_games && !facets) {
    for (const Entry& e : entries)
      if (ids.empty() || ids.back() != e.game_id) ids.push_back(e.game_id);
    info = look_up_games(db, filter, ids, options.point_lookup_limit);
  }
  size_t id_index = 0;
  GameInfo from_facets;
  const std::optional<FacetInfo> info_of = facets ? std::optional(FacetInfo(*facets, verdicts)) : std::nullopt;
  for (size_t i = 0; i < entries.size(); ++i) {
    const Entry& e = entries[i];
    const GameInfo* game = nullptr;
    if (info_of) {
      from_facets = (*info_of)(e.game_id);
      game = &from_facets;
    } else if (need_games) {
      while (ids[id_index] != e.game_id) ++id_index;
      game = &info[id_index];
    }
    const bool first_of_game = i == 0 || entries[i - 1].game_id != e.game_id;
    if (first_of_game && std::binary_search(counted_before_replay.begin(), counted_before_replay.end(), e, by_game))
      counter.continue_game(e.game_id);
    counter.count(e, game);
  }
  counter.finish();
  finish_result(db, position, path, options.counts_only, result);
  return result;
}

}  // namespace pgnbase::search
