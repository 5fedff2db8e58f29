// `pgn-query player DB NAME`: what one player played and scored, as SCID's player
// report or a lichess profile shows it. `players` and `events`: the names a database
// holds, with their game counts and date spans.
//
// The player's games are found through the name filter of query/game_filter.h (the same
// matching as --player), as White and as Black separately, so the games_white and
// games_black indexes answer; each game is then read by id without its blobs. Nothing
// here scans the games table.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/database.h"
#include "search/game_filter.h"
#include "io/output_file.h"
#include "query/output_format.h"

namespace pgnbase::query {

// Results from one player's side. Games with an unknown result ('*') count in games and
// unknown only; the score is over the decided and drawn games.
struct ResultCounts {
  int64_t games = 0, wins = 0, draws = 0, losses = 0, unknown = 0;
  double score() const {
    const int64_t known = wins + draws + losses;
    return known ? (double(wins) + 0.5 * double(draws)) / double(known) : 0;
  }
};

struct PlayerGame {
  int64_t id = 0;
  bool as_white = true;
  std::string opponent, eco, opening, event;
  std::optional<int64_t> date_key, elo, opponent_elo;
  int outcome = 0;  // the player's: 1 win, 0 draw, -1 loss, 2 unknown
  int64_t plies = 0;
};

struct PlayerReport {
  std::vector<std::string> names;  // the distinct names the pattern matched, most games first
  ResultCounts as_white, as_black, total;
  std::optional<int64_t> first_date, last_date;
  struct Year {
    std::optional<int64_t> year;  // nullopt: games of unknown date
    ResultCounts results;
    std::optional<int64_t> first_elo, last_elo, peak_elo;  // the player's rating in that year's games
  };
  std::vector<Year> years;  // oldest first, unknown last
  struct Opening {
    bool as_white = true;
    std::string eco, name;  // name: the opening most of its games were given
    ResultCounts results;
  };
  std::vector<Opening> openings;  // most played first
  struct Opponent {
    std::string name;
    ResultCounts results;
  };
  std::vector<Opponent> opponents;  // most games first
  std::vector<PlayerGame> longest_wins, shortest_wins;
};

struct PlayerReportOptions {
  search::NamePattern name;
  size_t top = 10;       // lines of the openings and opponents lists (0: all)
  size_t wins_shown = 3; // longest and shortest wins
};

PlayerReport build_player_report(store::Database& db, const PlayerReportOptions& options);
void print_player_report(const PlayerReport& report, OutputFormat format, bool wide, io::OutputFile& out);

// One name of `players` or `events`.
struct NameCount {
  std::string name;
  int64_t games = 0, as_white = 0, as_black = 0;  // events: games only
  std::optional<int64_t> first_date, last_date;
};

struct NameListOptions {
  bool events = false;                // event names instead of players
  std::optional<search::NamePattern> like;    // --like: the pattern of --player / --event
  int64_t min_games = 1;
  std::optional<int64_t> limit;
};

// Most games first, then by name.
std::vector<NameCount> list_names(store::Database& db, const NameListOptions& options);
void print_name_list(const std::vector<NameCount>& names, bool events, OutputFormat format, bool wide, io::OutputFile& out);

// A date key as people write a date: 20190517 "2019.05.17", 20190500 "2019.05", 20190000 "2019".
std::string date_text(int64_t date_key);

}  // namespace pgnbase::query
