// `pgn-query event DB NAME`: an event's standings and crosstable from its games' White,
// Black, Result, Round and ratings.
//
// Points: 1 a win, ½ a draw, 0 a loss; a game without a result counts in games, not in
// points. A player's Elo is the highest rating the event's games give them. Performance
// (where the opponents' ratings are known, in those games only) is the "algorithm of
// 400": (sum of the opponents' ratings + 400 x (wins - losses)) / games. The crosstable
// has one column per opponent (by rank) for up to 24 players; a larger event (a Swiss)
// has one column per round instead, each cell the result and the opponent's rank
// ("+12w": a win against number 12 with White).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "io/output_file.h"
#include "query/output_format.h"
#include "search/game_filter.h"
#include "store/database.h"

namespace pgnbase::query {

struct EventGame {
  size_t white = 0, black = 0;  // indexes into EventReport::players
  int result = 0;               // games.result
  std::string round;
};

struct EventPlayer {
  std::string name;
  std::optional<int64_t> elo;
  double points = 0;
  int64_t games = 0, wins = 0, draws = 0, losses = 0;
  std::optional<int64_t> performance;
  int64_t rated_games = 0;  // games whose opponent's rating is known
};

struct EventReport {
  std::string event;                 // the event's name
  std::vector<EventPlayer> players;  // ranked: points, then performance, then name
  std::vector<EventGame> games;
};

// The report of the one event whose name matches the pattern (the --event rule); throws
// std::runtime_error naming them when several match, and returns no players when none.
EventReport build_event_report(store::Database& db, const search::NamePattern& event);
void print_event_report(const EventReport& report, OutputFormat format, io::OutputFile& out);

}  // namespace pgnbase::query
