// The three tables of the dataset (docs/dataset.md has the contract): their columns,
// and how one game, one bucket of postings and its explorer counts become rows.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/move_code.h"
#include "dataset/parquet_writer.h"
#include "dataset/posting_buckets.h"
#include "query/game_row.h"

namespace pgnbase::dataset {

std::vector<ColumnSpec> games_columns();
std::vector<ColumnSpec> positions_columns();
std::vector<ColumnSpec> explorer_columns();

// Appends row's game to the games columns (one value each); codes are its decoded moves.
// False when its stored tags or annotations are corrupt (nothing appended then).
bool add_game_row(const query::GameRow& row, std::span<const MoveCode> codes, std::vector<ColumnValues>& columns);

// What the positions and explorer rows need of a game, by game id.
struct GameFacts {
  uint8_t result = 0;         // GameResult code, 0 unknown
  bool black_starts = false;  // Black moves first (a FEN start position)
  int32_t white_elo = -1, black_elo = -1;  // -1 unknown
};

// The export's games: facts[id - first_id].
struct GameFactsTable {
  int64_t first_id = 0;
  std::vector<GameFacts> facts;
  const GameFacts& of(uint32_t game_id) const { return facts[size_t(game_id - first_id)]; }
};

// Writes sorted postings as positions rows: row groups of about group_rows rows, cut only
// between keys, so that one key's postings share a row group. Returns nothing; rows go to
// writer.
void write_positions(std::span<const DatasetPosting> sorted, const GameFactsTable& games, size_t group_rows,
                     ParquetWriter& writer);

// Writes the explorer rows of sorted postings: per (key, next_move) the games that
// played it (a game once per distinct move), their results, and the mover's ratings.
// Returns the rows written.
uint64_t write_explorer(std::span<const DatasetPosting> sorted, const GameFactsTable& games, size_t group_rows,
                        ParquetWriter& writer);

}  // namespace pgnbase::dataset
