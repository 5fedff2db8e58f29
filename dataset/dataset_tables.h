// The three tables of the dataset (docs/dataset.md has the contract): their columns,
// and how one game, one bucket of postings and its explorer counts become rows.
#pragma once

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "core/move_code.h"
#include "dataset/parquet_writer.h"
#include "dataset/posting_buckets.h"
#include "query/game_row.h"

namespace pgnbase::dataset {

std::vector<ColumnSpec> games_columns();
std::vector<ColumnSpec> positions_columns();
std::vector<ColumnSpec> explorer_columns();
std::vector<ColumnSpec> removed_columns();

// The sorting columns of positions and explorer files (indexes into their columns).
std::vector<int> positions_sorting_columns();
std::vector<int> explorer_sorting_columns();

// Appends row's game to the games columns (one value each); codes are its decoded moves.
// False when its stored tags or annotations are corrupt (nothing appended then).
bool add_game_row(const query::GameRow& row, std::span<const MoveCode> codes, std::vector<ColumnValues>& columns);

// What the positions and explorer rows need of a game, by game id.
struct GameFacts {
  uint8_t result = 0;         // GameResult code, 0 unknown
  bool black_starts = false;  // Black moves first (a FEN start position)
  int32_t white_elo = -1, black_elo = -1;  // -1 unknown
  uint32_t source_id = 0;     // the source the game belongs to now
};

// The export's games: the new ones by id - first_id (their ids are dense but for removed
// games), and the few earlier games written again (moved to another source) by id.
class GameFactsTable {
 public:
  // Room for the new games first_id..last_id (none when last_id < first_id).
  void reserve_new(int64_t first_id, int64_t last_id) {
    first_id_ = first_id;
    new_.assign(last_id >= first_id ? size_t(last_id - first_id + 1) : 0, GameFacts{});
  }
  GameFacts& add(uint32_t game_id) {
    if (game_id >= first_id_ && game_id - first_id_ < int64_t(new_.size())) return new_[size_t(game_id - first_id_)];
    return earlier_[game_id];
  }
  const GameFacts& of(uint32_t game_id) const {
    if (game_id >= first_id_ && game_id - first_id_ < int64_t(new_.size())) return new_[size_t(game_id - first_id_)];
    return earlier_.at(game_id);
  }

 private:
  int64_t first_id_ = 0;
  std::vector<GameFacts> new_;
  std::unordered_map<uint32_t, GameFacts> earlier_;
};

// Writes sorted postings as positions rows: row groups of about group_rows rows, cut only
// between keys, so that one key's postings share a row group. Returns nothing; rows go to
// writer.
void write_positions(std::span<const DatasetPosting> sorted, const GameFactsTable& games, size_t group_rows,
                     ParquetWriter& writer);

// Writes the explorer rows of sorted postings: per (key, source, next_move) the games
// that played it (a game once per distinct move), their results, and the mover's
// ratings; the first row of each (key, source) carries the distinct games that reach the
// key, the others 0, so that their sum over any rows of a key counts each game once.
// Returns the rows written.
uint64_t write_explorer(std::span<const DatasetPosting> sorted, const GameFactsTable& games, size_t group_rows,
                        ParquetWriter& writer);

}  // namespace pgnbase::dataset
