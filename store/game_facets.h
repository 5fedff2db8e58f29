// Game facets: what the explorer filters and ranks games by (both ratings, the date key
// and the time control), kept beside the games table as arrays indexed by game id, in
// table game_facets (schema 3; chunked since schema 7, docs/schema.md). Each array is
// stored in chunks of 65,536 elements, row "NAME.K" holding the elements of ids
// K * 65536 to K * 65536 + 65535 (the last chunk only up to last_id), so that an import
// rewrites the last chunk and adds new ones, not whole columns:
//
// | name            | element  | value                                                     |
// |-----------------|----------|-----------------------------------------------------------|
// | white_elo.K     | u16 LE   | games.white_elo, 0 when unknown                           |
// | black_elo.K     | u16 LE   | games.black_elo, 0 when unknown                           |
// | date_key.K      | i32 LE   | games.date_key, 0 when unknown                            |
// | time_control.K  | u16 LE   | 1 + index into time_controls, 0 when unknown              |
// | time_controls   | text     | the distinct TimeControl values, one per line             |
// | last_id         | text     | the largest game id covered (decimal)                     |
//
// Element i belongs to game id i (ids of removed games hold zeros: clear_game_facets). The
// writer appends the games of each import (append_game_facets); a reader that finds
// last_id behind the largest game id ever given (store/counters.h), or a chunk missing or
// of the wrong size, treats the facets as absent (read_game_facets returns nullopt).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "store/database.h"

namespace pgnbase::store {

struct GameFacets {
  std::vector<uint16_t> white_elo, black_elo;
  std::vector<int32_t> date_key;
  std::vector<uint16_t> time_control;
  std::vector<std::string> time_controls;  // time_control value v names time_controls[v - 1]
  uint32_t last_id = 0;
};

// The facets of the games an import adds, kept as it writes their rows (10 bytes a game,
// as stored) until append_game_facets writes them, so that the rows need not be read
// back. Ids ascend from the first one added; an id skipped holds zeros (unknown).
class NewGameFacets {
 public:
  // A game's columns as its games row holds them (nullopt: NULL).
  void add(uint32_t id, std::optional<int64_t> white_elo, std::optional<int64_t> black_elo,
           std::optional<int64_t> date_key, const std::optional<std::string>& time_control);
  // Forgets the games from id on (those of an abandoned source).
  void drop_from(uint32_t id);
  void clear();

  uint32_t first_id() const { return first_id_; }
  size_t size() const { return white_elo_.size(); }
  const std::vector<uint16_t>& white_elo() const { return white_elo_; }
  const std::vector<uint16_t>& black_elo() const { return black_elo_; }
  const std::vector<int32_t>& date_key() const { return date_key_; }
  // 1 + an index into time_controls(), 0 when unknown (or a value that cannot be stored:
  // one holding a line break, or past 65,535 distinct ones).
  const std::vector<uint16_t>& time_control() const { return time_control_; }
  const std::vector<std::string>& time_controls() const { return time_controls_; }

 private:
  uint32_t first_id_ = 0;
  std::vector<uint16_t> white_elo_, black_elo_, time_control_;
  std::vector<int32_t> date_key_;
  std::vector<std::string> time_controls_;
  std::unordered_map<std::string, uint16_t> time_control_index_;
};

// Appends the facets of the games with ids above the stored last_id (all of them on a
// fresh database), inside the caller's transaction, from those the writer kept (games
// at or below the stored last_id, or past last_game_id, are ignored): reading the new
// rows back would scan them, moves and all (4% of the writer's CPU on a first import).
// last_id becomes last_game_id, which must be the largest id ever given to a game
// (next_game_id() - 1, store/counters.h), as the writer knows it: finding it here would
// scan position_segments, a row per source, at every source. Cost: a write of the new
// chunks (10 bytes per game), plus a rewrite of the old last chunk (at most 640 KB); one
// chunk of each column in memory at a time.
void append_game_facets(Database& db, uint32_t last_game_id, const NewGameFacets& games);

// Zeroes the facets of removed games, inside the caller's transaction.
void clear_game_facets(Database& db, std::span<const int64_t> ids);

// Which columns read_game_facets loads (the others stay empty): each is megabytes on a
// big database, so a query loads what its filters need.
struct FacetColumns {
  bool ratings = true, date = true, time_control = true;
};

// The stored facets, or nullopt when the table is missing or behind the games table.
std::optional<GameFacets> read_game_facets(Database& db, FacetColumns columns = {});

}  // namespace pgnbase::store
