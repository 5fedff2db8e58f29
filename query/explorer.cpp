#include "query/explorer.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <unordered_map>

#include "core/fen.h"
#include "core/movegen.h"
#include "core/san.h"
#include "indexer/store/position_index_reader.h"
#include "query/game_row.h"
#include "query/game_sql.h"
#include "query/json_writer.h"
#include "query/position_search.h"
#include "query/text_table.h"

namespace pgnbase::query {

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

// Header-filter verdict and ratings for each of ids (ascending, distinct); mover is the
// side to move in the explored position, whose rating is wanted.
std::vector<GameInfo> look_up_games(store::Database& db, const GameFilter& filter, const std::vector<uint32_t>& ids,
                                    Color mover, size_t point_lookup_limit) {
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
    store::Statement s = db.prepare(sql::kMaxGameId);
    max_id = s.step() ? s.column_int64(0) : 0;
  }
  const bool dense_ids = max_id >= 0 && uint64_t(max_id) <= 4 * uint64_t(ids.size()) + (uint64_t{1} << 24);
  if (ids.size() <= point_lookup_limit || (!filter.has_header_filters() && !dense_ids)) {
    SqlQuery q = build_game_key_query(filter, true);
    store::Statement s = db.prepare(q.sql);
    q.bind(s);
    for (size_t i = 0; i < ids.size(); ++i) {
      s.reset();
      s.bind_int64(1, ids[i]);
      if (s.step()) fill(i, s);
    }
  } else if (!filter.has_header_filters()) {
    // Only the mover's rating is needed: one pass over that rating index, into an array
    // by game id.
    const int64_t size = max_id + 1;
    std::vector<int16_t> ratings(size_t(size), kNoRating);
    store::Statement s = db.prepare(mover == WHITE ? sql::kWhiteElos : sql::kBlackElos);
    while (s.step()) {
      const int64_t id = s.column_int64(0), elo = s.column_int64(1);
      if (id > 0 && id < size && elo >= 0 && elo < 32768) ratings[size_t(id)] = int16_t(elo);
    }
    for (size_t i = 0; i < ids.size(); ++i) {
      const bool known = ids[i] < size;
      const int rating = known ? ratings[ids[i]] : kNoRating;
      info[i] = {known, mover == WHITE ? rating : kNoRating, mover == BLACK ? rating : kNoRating};
    }
  } else {
    // Every passing game (from whichever index SQLite picks), then merged by id.
    SqlQuery q = build_game_key_query(filter, false);
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

// For games whose postings carry no next move (a lean segment stores none for a key that
// occurs once in a block): replays each game and adds an entry per distinct move played
// where it reaches the position, with the game's result. A game that never reaches it
// (a fingerprint shared with another position) adds nothing.
template <typename MoveIndex>
void add_replayed_entries(store::Database& db, const Board& position, std::vector<uint32_t>& ids,
                          MoveIndex& move_index, std::vector<Entry>& entries, const CorruptGameReport& on_corrupt) {
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  store::Statement moves = db.prepare(game_moves_by_id_sql(db));
  store::Statement result = db.prepare(sql::kGameResultById);
  const indexer::Posting anywhere{.ply = indexer::kUnknownPly};  // replay the whole game
  std::vector<MoveCode> codes;
  std::vector<uint32_t> plies;
  Board start;
  for (uint32_t id : ids) {
    moves.reset();
    moves.bind_int64(1, id);
    plies.clear();
    if (!moves.step()) continue;
    if (!read_replay_row(moves, codes, start) || !confirm_plies(start, codes, position, {&anywhere, 1}, plies)) {
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

std::string percent(uint64_t part, uint64_t whole) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "%.1f%%", whole ? 100.0 * double(part) / double(whole) : 0.0);
  return buffer;
}

}  // namespace

ExplorerResult explore(store::Database& db, const ExplorerOptions& options) {
  const Board& position = *options.filter.position;
  ExplorerResult result;
  result.fen = write_fen(position);
  result.ratings = options.ratings;

  MoveList legal;
  generate_legal_moves(position, legal);
  // Move index by code: a small open-addressing table (a position has few distinct codes).
  struct Slot {
    uint32_t code = 0x10000;  // empty
    int32_t index = kUnknownCode;
  };
  std::array<Slot, 1024> slots{};
  size_t used_slots = 0;
  auto move_index = [&](uint16_t code) -> int32_t {
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

  // Collect one entry per (game, distinct move), in posting order.
  std::vector<Entry> entries;
  std::vector<uint32_t> replay_ids;  // games whose postings here carry no move (lean segments)
  indexer::PositionIndexReader reader(db);
  // The counts come from block headers, which may claim more than the blocks decode to.
  entries.reserve(size_t(std::min<uint64_t>(reader.count(position.key()), uint64_t{1} << 20)));
  uint32_t current_game = 0;
  size_t game_start = 0;
  reader.visit(position.key(), [&](std::span<const indexer::Posting> postings) {
    for (const indexer::Posting& p : postings) {
      if (p.next_move == indexer::kUnknownNextMove) {
        if (replay_ids.empty() || replay_ids.back() != p.game_id) replay_ids.push_back(p.game_id);
        continue;
      }
      const int32_t index = move_index(p.next_move);
      if (index == kNotHere) continue;
      if (p.game_id != current_game || entries.empty()) {
        current_game = p.game_id;
        game_start = entries.size();
      } else {
        bool seen = false;
        for (size_t i = game_start; i < entries.size() && !seen; ++i) seen = entries[i].move == uint16_t(index);
        if (seen) continue;
      }
      entries.push_back({p.game_id, uint16_t(index), uint8_t(p.result)});
    }
  });

  if (!replay_ids.empty()) {
    add_replayed_entries(db, position, replay_ids, move_index, entries, options.on_corrupt);
    auto by_game = [](const Entry& a, const Entry& b) { return a.game_id < b.game_id; };
    std::stable_sort(entries.begin(), entries.end(), by_game);
  }

  const bool need_games = options.ratings || options.filter.has_header_filters();
  std::vector<uint32_t> ids;
  std::vector<GameInfo> info;
  if (need_games) {
    auto by_game = [](const Entry& a, const Entry& b) { return a.game_id < b.game_id; };
    if (!std::is_sorted(entries.begin(), entries.end(), by_game))  // segments out of id order
      std::stable_sort(entries.begin(), entries.end(), by_game);
    for (const Entry& e : entries)
      if (ids.empty() || ids.back() != e.game_id) ids.push_back(e.game_id);
    info = look_up_games(db, options.filter, ids, position.side_to_move(), options.point_lookup_limit);
  }

  const Color mover = position.side_to_move();
  size_t id_index = 0;
  uint32_t last_counted = 0;
  bool any_counted = false;
  for (const Entry& e : entries) {
    const GameInfo* game = nullptr;
    if (need_games) {
      while (ids[id_index] != e.game_id) ++id_index;
      game = &info[id_index];
      if (!game->passes) continue;
    }
    if (!any_counted || e.game_id != last_counted) {
      ++result.games;
      last_counted = e.game_id;
      any_counted = true;
    }
    if (e.move == kEnded) {
      ++result.ended_here;
      continue;
    }
    ExplorerMove& m = result.moves[e.move];
    ++m.games;
    if (e.result == 1) ++m.white_wins;
    else if (e.result == 2) ++m.draws;
    else if (e.result == 3) ++m.black_wins;
    if (game && options.ratings) {
      const int rating = mover == WHITE ? game->white_elo : game->black_elo;
      if (rating != kNoRating) {
        ++m.rated_games;
        m.rating_sum += rating;
      }
    }
  }
  std::erase_if(result.moves, [](const ExplorerMove& m) { return m.games == 0; });
  std::sort(result.moves.begin(), result.moves.end(), [](const ExplorerMove& a, const ExplorerMove& b) {
    return a.games != b.games ? a.games > b.games : a.san < b.san;
  });
  return result;
}

void print_explorer_table(const ExplorerResult& r, OutputFile& out) {
  std::string& text = out.buffer();
  text += "position  " + r.fen + "\n";
  text += "games     " + std::to_string(r.games);
  if (r.ended_here) text += " (" + std::to_string(r.ended_here) + " end here)";
  text += "\n\n";
  std::vector<TextTable::Column> columns = {{"move", false, 12}, {"games", true, 12}, {"share", true, 8},
                                            {"white", true, 8},  {"draw", true, 8},   {"black", true, 8}};
  if (r.ratings) columns.push_back({"avg elo", true, 8});
  TextTable table(columns, out);
  uint64_t with_moves = 0;
  for (const ExplorerMove& m : r.moves) with_moves += m.games;
  for (const ExplorerMove& m : r.moves) {
    std::vector<std::string> cells = {m.san, std::to_string(m.games), percent(m.games, with_moves),
                                      percent(m.white_wins, m.games), percent(m.draws, m.games),
                                      percent(m.black_wins, m.games)};
    if (r.ratings) cells.push_back(m.rated_games ? std::to_string(int64_t(m.average_rating() + 0.5)) : "-");
    table.add_row(std::move(cells));
  }
  table.finish();
}

void print_explorer_json(const ExplorerResult& r, OutputFile& out) {
  std::string& text = out.buffer();
  char buffer[64];
  auto fraction = [&](uint64_t part, uint64_t whole) {
    std::snprintf(buffer, sizeof buffer, "%.4f", whole ? double(part) / double(whole) : 0.0);
    return std::string(buffer);
  };
  text += "{\"fen\":";
  append_json_string(r.fen, text);
  text += ",\"games\":" + std::to_string(r.games) + ",\"ended_here\":" + std::to_string(r.ended_here) + ",\"moves\":[";
  for (size_t i = 0; i < r.moves.size(); ++i) {
    const ExplorerMove& m = r.moves[i];
    if (i) text += ',';
    text += "{\"san\":";
    append_json_string(m.san, text);
    text += ",\"uci\":";
    append_json_string(m.uci, text);
    text += ",\"games\":" + std::to_string(m.games) + ",\"white_wins\":" + std::to_string(m.white_wins) +
            ",\"draws\":" + std::to_string(m.draws) + ",\"black_wins\":" + std::to_string(m.black_wins) +
            ",\"white\":" + fraction(m.white_wins, m.games) + ",\"draw\":" + fraction(m.draws, m.games) +
            ",\"black\":" + fraction(m.black_wins, m.games);
    if (r.ratings) {
      text += ",\"average_elo\":";
      if (m.rated_games) {
        std::snprintf(buffer, sizeof buffer, "%.1f", m.average_rating());
        text += buffer;
      } else {
        text += "null";
      }
      text += ",\"rated_games\":" + std::to_string(m.rated_games);
    }
    text += '}';
  }
  text += "]}\n";
}

}  // namespace pgnbase::query
