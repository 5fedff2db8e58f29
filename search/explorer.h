// The opening explorer: for a position, every next move played from it with its game
// count, results and the average rating of the player who made it.
//
// Counts come from the position index postings, which carry the next move and the
// game's result. Ratings, top games and the rating, date and time-control filters come
// from the game facets (store/game_facets.h: arrays by game id, so a million games
// are judged without reading a row). Name, ECO, result and length filters need the games
// table: the passing games are found in SQL (game by game when the position is rare) and
// merged with the postings by id; so is everything when a database has no facets.
//
// A game that reaches the position several times counts once per distinct move it
// played from there. Postings of other positions that share a stored fingerprint are
// dropped: their move is not legal here (see position_search.h for exact matching).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/board.h"
#include "store/database.h"
#include "store/explorer_summaries.h"
#include "store/game_facets.h"
#include "store/position_index_reader.h"
#include "search/game_check.h"
#include "search/game_filter.h"

namespace pgnbase::search {

using store::OpeningName;

struct ExplorerMove {
  Move move;
  std::string san, uci;
  std::string fen;      // the position after the move, to explore next
  OpeningName opening;  // of the position after the move (inherits the position's)
  uint64_t games = 0;
  uint64_t white_wins = 0, draws = 0, black_wins = 0;  // games with an unknown result count in none
  uint64_t rated_games = 0;                            // games where the mover's rating is known
  double rating_sum = 0;

  uint64_t unknown_results() const { return games - white_wins - draws - black_wins; }
  double average_rating() const { return rated_games ? rating_sum / double(rated_games) : 0; }
};

// One of the highest-rated games reaching the position (lichess's "top games").
struct TopGame {
  int64_t id = 0;
  std::string white, black, result, date;
  int white_elo = 0, black_elo = 0;
  std::string san;  // the move it played from the position ("" when it ended there)
};

struct ExplorerResult {
  std::string fen;
  OpeningName opening;
  uint64_t games = 0;         // distinct games that reach the position (after filters)
  uint64_t ended_here = 0;    // of them, games whose main line ends in it (or plays a null move)
  bool ratings = false;       // whether average ratings were computed
  bool used_facets = false;   // whether the game facets answered (else SQL)
  std::vector<ExplorerMove> moves;  // most games first, then SAN
  std::vector<TopGame> top_games;   // both players rated, highest average first
};

struct ExplorerOptions {
  GameFilter filter;  // position is required; the other filters are optional
  // The positions played on the way to the position (from --moves), for its opening name;
  // empty: the position's own name only.
  std::vector<uint64_t> path_keys;
  bool ratings = true;
  size_t top_games = 5;
  bool use_facets = true;  // false: SQL for everything (tests compare the two)
  // Fewer postings than this (about the games that reach the position): their rows are read
  // by id (cheaper than the facet columns, megabytes on a big database).
  size_t facet_min_games = 2000;
  bool use_summaries = true;  // unfiltered: the stored answer when there is one (explorer_summary.h)
  // Only postings of position segments from this id on (0: every segment): the games
  // imported since, for an update of the stored answers.
  int64_t first_segment_id = 0;
  // Counts, moves and top game ids only, what a stored answer keeps: no FEN or opening
  // name per move, no opening, no players or dates of the top games.
  bool counts_only = false;
  // Facets already read (all columns), for many calls in a row; else read per call.
  const store::GameFacets* facets = nullptr;
  // Up to this many games reaching the position, ratings and filters are looked up
  // game by game; above it, in one pass over the mover's rating index or the filtered games.
  size_t point_lookup_limit = 20000;
  // Games replayed for lean postings whose stored moves do not replay (when set).
  CorruptGameReport on_corrupt;
  // Threads beside the caller's that decode the position's blocks while it counts the
  // postings (store::PositionIndexReader::set_decode_threads): on two cores the filtered
  // start position of 1.48M games in 0.77-0.92 of the time (bench/README.md).
  unsigned decode_threads = store::PositionIndexReader::default_decode_threads();
};

ExplorerResult explore(store::Database& db, const ExplorerOptions& options);

}  // namespace pgnbase::search
