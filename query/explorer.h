// The opening explorer: for a position, every next move played from it with its game
// count, results and the average rating of the player who made it.
//
// Counts come from the position index postings, which carry the next move and the
// game's result. Ratings and header filters need the games table: without filters the
// ratings are read from the mover's rating index (one pass, no game rows) when the position
// is common, or by game id when it is rare; with filters the passing games are found in
// SQL and merged with the postings by id.
//
// A game that reaches the position several times counts once per distinct move it
// played from there. Postings of other positions that share a stored fingerprint are
// dropped: their move is not legal here (see position_search.h for exact matching).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/board.h"
#include "indexer/store/database.h"
#include "query/game_check.h"
#include "query/game_filter.h"
#include "query/output_file.h"

namespace pgnbase::query {

struct ExplorerMove {
  Move move;
  std::string san, uci;
  uint64_t games = 0;
  uint64_t white_wins = 0, draws = 0, black_wins = 0;  // games with an unknown result count in none
  uint64_t rated_games = 0;                            // games where the mover's rating is known
  double rating_sum = 0;

  double average_rating() const { return rated_games ? rating_sum / double(rated_games) : 0; }
};

struct ExplorerResult {
  std::string fen;
  uint64_t games = 0;         // distinct games that reach the position (after filters)
  uint64_t ended_here = 0;    // of them, games whose main line ends in it (or plays a null move)
  bool ratings = false;       // whether average ratings were computed
  std::vector<ExplorerMove> moves;  // most games first, then SAN
};

struct ExplorerOptions {
  GameFilter filter;  // position is required; the other filters are optional
  bool ratings = true;
  // Up to this many games reaching the position, ratings and filters are looked up
  // game by game; above it, in one pass over the mover's rating index or the filtered games.
  size_t point_lookup_limit = 20000;
  // Games replayed for lean postings whose stored moves do not replay (when set).
  CorruptGameReport on_corrupt;
};

ExplorerResult explore(store::Database& db, const ExplorerOptions& options);

void print_explorer_table(const ExplorerResult& result, OutputFile& out);
void print_explorer_json(const ExplorerResult& result, OutputFile& out);

}  // namespace pgnbase::query
