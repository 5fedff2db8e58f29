// The filter and pattern options of pgn-query search, export and explore, and the
// GameFilter they make.
#pragma once

#include <boost/program_options.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "search/game_filter.h"
#include "search/pattern.h"

namespace pgnbase::tools {

// The filter options as typed; make_filter() checks them.
struct FilterText {
  std::string fen, moves, eco, white, black, as, elo_of = "both", event, site, result, date_from, date_to,
      time_control, opening, comment, min_eval, max_eval, eval_plies;
  std::vector<std::string> players, tags;  // --player (once, or twice: head to head), --tag
  bool from_start_only = false;
  std::optional<int64_t> min_elo, max_elo, min_plies, max_plies;
};

// fen_defaults_to_start: explore's help for --fen.
void add_filter_options(boost::program_options::options_description& d, FilterText& f, bool fen_defaults_to_start);
void add_pattern_options(boost::program_options::options_description& d, search::PatternText& p);

// A --fen that is a piece placement alone ("rnbqkbnr/pppppppp/8/..." with no side to
// move) moves to --pieces, which searches it whatever the side to move and castling
// rights; returns the note that says so (nullopt: nothing moved). Throws UsageError when
// --pieces is given too.
std::optional<std::string> take_placement_fen(FilterText& text, search::PatternText& pattern);

// The filter the options ask for; throws UsageError. path_keys, when given, receives the
// keys of the positions --moves passes through (explore names the opening by them).
search::GameFilter make_filter(const FilterText& text, std::vector<uint64_t>* path_keys = nullptr);

}  // namespace pgnbase::tools
