// The tables of the dataset (docs/dataset.md has the contract): their columns, and how
// one game, its clocks and evaluations, one bucket of postings and its explorer counts
// become rows.
#pragma once

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "core/move_code.h"
#include "dataset/parquet_writer.h"
#include "dataset/posting_buckets.h"
#include "store/game_annotations.h"
#include "store/game_row.h"

namespace pgnbase::dataset {

std::vector<ColumnSpec> games_columns();
std::vector<ColumnSpec> plies_columns();
std::vector<ColumnSpec> positions_columns();
std::vector<ColumnSpec> explorer_columns();
std::vector<ColumnSpec> removed_columns();

// The sorting columns of positions and explorer files (indexes into their columns).
std::vector<int> positions_sorting_columns();
std::vector<int> explorer_sorting_columns();

// Appends row's game to the games columns (one value each); codes are its decoded moves.
// Its annotations are read into `annotations` (for add_ply_rows), and written to their
// column as the text payload, clocks and evaluations back in their comments. False when
// its stored tags or annotations are corrupt (nothing appended then).
bool add_game_row(const store::GameRow& row, std::span<const MoveCode> codes, store::AnnotationReader& annotations,
                  std::vector<ColumnValues>& columns);

// Appends the plies rows of a game of `plies` moves: one per move with a clock or an
// evaluation (clock_evals, by ascending ply); returns the rows added.
size_t add_ply_rows(const store::GameRow& row, size_t plies, const std::vector<store::PlyClockEval>& clock_evals,
                    std::vector<ColumnValues>& columns);

// What the positions and explorer rows need of a game, by game id.
struct GameFacts {
  uint8_t result = 0;         // GameResult code, 0 unknown
  bool black_starts = false;  // Black moves first (a FEN start position)
  int32_t white_elo = -1, black_elo = -1;  // -1 unknown
  uint32_t source_id = 0;     // the source the game belongs to now
};

// The facts of the export's games, by id; memory grows with the games added, never with
// the ids' values (a database may hold any id up to 2^32 - 1). The new games come in
// ascending id order from first_new_id on and are kept by id - first_new_id while their
// ids are dense (every id but removed games'); after a gap larger than the games seen so
// far, and for the few earlier games written again (moved to another source), in a hash
// map.
class GameFactsTable {
 public:
  explicit GameFactsTable(int64_t first_new_id = 0) : first_id_(first_new_id) {}

  GameFacts& add(uint32_t game_id) {
    if (game_id >= first_id_ && !dense_closed_) {
      const uint64_t at = game_id - uint64_t(first_id_);
      if (at < dense_.size()) return dense_[at];
      if (at <= 2 * dense_games_ + kDenseSlack) {
        dense_.resize(at + 1);
        ++dense_games_;
        return dense_[at];
      }
      dense_closed_ = true;  // later ids are larger still: all of them go to the map
    }
    return sparse_[game_id];
  }
  const GameFacts& of(uint32_t game_id) const {
    if (game_id >= first_id_ && game_id - uint64_t(first_id_) < dense_.size()) return dense_[game_id - first_id_];
    return sparse_.at(game_id);
  }

 private:
  static constexpr uint64_t kDenseSlack = 1 << 16;  // ids a gap may skip while the table is small
  int64_t first_id_;
  std::vector<GameFacts> dense_;
  uint64_t dense_games_ = 0;
  bool dense_closed_ = false;
  std::unordered_map<uint32_t, GameFacts> sparse_;
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
