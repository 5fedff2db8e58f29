#include "tools/query_filters.h"

#include <utility>

#include "core/fen.h"
#include "search/fen_input.h"
#include "search/move_sequence.h"
#include "search/pattern.h"
#include "search/row_filter.h"
#include "search/time_control.h"
#include "store/clock_eval_text.h"
#include "tools/query_command.h"

namespace pgnbase::tools {

using namespace pgnbase::query;

void add_filter_options(po::options_description& d, FilterText& f, bool fen_defaults_to_start) {
  d.add_options()
      ("fen", po::value(&f.fen), fen_defaults_to_start ? "position to explore (default: the start position)"
                                                       : "games reaching this position at any ply (FEN; move counters ignored)")
      ("moves", po::value(&f.moves), "games reaching the position after these moves, by any move order "
                                     "(\"1.e4 e5 2.Nf3\"; SAN in any notation, move numbers optional)")
      ("from-start-only", po::bool_switch(&f.from_start_only), "with --moves: only games that start with exactly those moves")
      ("eco", po::value(&f.eco), "ECO code C60, range C60-C99, prefix C6 (C60-C69), or volume C")
      ("opening", po::value(&f.opening), "opening name (the Opening tag or the computed one), word by word: \"Najdorf\"")
      ("white", po::value(&f.white), "White player, word by word, case- and accent-insensitive (* and ? wildcards); "
                                     "\"Magnus Carlsen\" also finds \"Carlsen,M\"; ? alone: unknown; =NAME: exactly")
      ("black", po::value(&f.black), "Black player (as --white)")
      ("player", po::value(&f.players)->composing(), "either player (as --white); given twice, games between the two")
      ("as", po::value(&f.as), "with --player: white or black, only the games where the (first) player has that colour")
      ("min-elo", po::value<int64_t>()->notifier([&](int64_t v) { f.min_elo = v; }), "both players rated at least this")
      ("max-elo", po::value<int64_t>()->notifier([&](int64_t v) { f.max_elo = v; }), "both players rated at most this")
      ("elo-of", po::value(&f.elo_of)->default_value(f.elo_of), "whose rating --min-elo/--max-elo test: both or either")
      ("date-from", po::value(&f.date_from), "played on or after: 2019, 2019.05 or 2019.05.17 (a game dated "
                                             "\"2019\" or \"2019.05\" must lie wholly inside the range)")
      ("date-to", po::value(&f.date_to), "played on or before (partial dates include the whole year/month)")
      ("result", po::value(&f.result), "1-0, 0-1, 1/2-1/2 or *")
      ("event", po::value(&f.event), "Event tag (as --white)")
      ("site", po::value(&f.site), "Site tag (as --white); a game's URL, or its id alone, finds that game")
      ("time-control", po::value(&f.time_control),
       "bullet|blitz|rapid|classical|correspondence|ultrabullet|unknown, a TimeControl value (180+2), or 180+* / *+0")
      ("tag", po::value(&f.tags)->composing(), "NAME=VALUE: the game has this tag with this value (whole value, "
                                               "case-insensitive, * and ? wildcards); NAME alone: has the tag; repeatable")
      ("comment", po::value(&f.comment), "a comment of the game holds these words (word by word, as --player)")
      ("min-eval", po::value(&f.min_eval), "an evaluation ([%eval] of lichess and broadcasts) after some ply is at "
                                           "least this, from White's side: 1.5 (pawns), #5 (White mates in 5 or "
                                           "sooner), #-5 (Black mates in 5 or more moves, or better for White)")
      ("max-eval", po::value(&f.max_eval), "an evaluation after some ply is at most this (as --min-eval); with "
                                           "--min-eval, one evaluation within both")
      ("eval-plies", po::value(&f.eval_plies), "the plies --min-eval/--max-eval look at: 40 (after White's 20th "
                                               "move), 20-40, 60-, -30 (ply 1 is White's first move)")
      ("min-plies", po::value<int64_t>()->notifier([&](int64_t v) { f.min_plies = v; }), "at least this many half-moves")
      ("max-plies", po::value<int64_t>()->notifier([&](int64_t v) { f.max_plies = v; }), "at most this many half-moves");
}

std::optional<std::string> take_placement_fen(FilterText& text, search::PatternText& pattern) {
  if (!search::is_placement_only(text.fen)) return std::nullopt;
  if (!pattern.pieces.empty()) throw UsageError{"--fen with a piece placement alone and --pieces: give one"};
  pattern.pieces = std::exchange(text.fen, {});
  return "--fen has the piece placement only: searching games where exactly these men stand, with either side "
         "to move (as --pieces)";
}

search::GameFilter make_filter(const FilterText& t, std::vector<uint64_t>* path_keys) {
  search::GameFilter f;
  if (!t.fen.empty()) {
    Parsed<Board> board = parse_fen(t.fen);
    if (!board) throw UsageError{"bad FEN: " + board.error()};
    if (const auto why = search::impossible_castling(*board)) throw UsageError{"--fen: " + *why};
    f.position = *board;
  }
  if (!t.fen.empty() && !t.moves.empty()) throw UsageError{"--fen and --moves both name a position: give one"};
  if (t.from_start_only && t.moves.empty()) throw UsageError{"--from-start-only needs --moves"};
  if (!t.moves.empty()) {
    search::MoveSequence sequence = parsed_or_usage_error(search::parse_move_sequence(t.moves));
    f.position = sequence.final_position();
    if (path_keys)
      for (const Board& b : sequence.positions) path_keys->push_back(b.key());
    if (t.from_start_only) f.opening = std::move(sequence);
  }
  if (!t.eco.empty()) f.eco = parsed_or_usage_error(search::parse_eco_range(t.eco));
  auto name = [](const std::string& s) { return s.empty() ? std::nullopt : std::optional<search::NamePattern>(search::NamePattern{s}); };
  f.white = name(t.white);
  f.black = name(t.black);
  if (t.players.size() > 2) throw UsageError{"--player given " + std::to_string(t.players.size()) + " times: give one, or two for their games"};
  for (const std::string& p : t.players)
    if (p.empty()) throw UsageError{"--player is empty"};
  if (!t.players.empty()) f.player = name(t.players[0]);
  if (t.players.size() == 2) f.opponent = name(t.players[1]);
  if (!t.as.empty()) {
    if (!f.player) throw UsageError{"--as needs --player"};
    if (t.as != "white" && t.as != "black") throw UsageError{"bad --as '" + t.as + "': expected white or black"};
    std::optional<search::NamePattern>& side = t.as == "white" ? f.white : f.black;
    std::optional<search::NamePattern>& other = t.as == "white" ? f.black : f.white;
    if (side) throw UsageError{"--player with --as " + t.as + " and --" + t.as + " name the same player: give one"};
    if (f.opponent && other)
      throw UsageError{"a second --player with --as " + t.as + " and --" + (t.as == "white" ? "black" : "white") +
                       " name the same player: give one"};
    side = std::exchange(f.player, std::nullopt);
    if (f.opponent) other = std::exchange(f.opponent, std::nullopt);
  }
  if (f.opponent && (f.white || f.black)) throw UsageError{"two --player options with --white or --black: give at most two players"};
  for (const std::string& tag : t.tags) f.tags.push_back(parsed_or_usage_error(search::parse_tag_condition(tag)));
  f.opening_name = name(t.opening);
  f.comment = name(t.comment);
  auto eval_bound = [](const char* option, const std::string& text) -> std::optional<int64_t> {
    if (text.empty()) return std::nullopt;
    const std::optional<store::Evaluation> eval = store::parse_eval(text);
    if (!eval) throw UsageError{std::string("bad ") + option + " '" + text + "': expected pawns (1.5, -0.3) or a mate (#5, #-5)"};
    return search::eval_score(*eval);
  };
  f.min_eval = eval_bound("--min-eval", t.min_eval);
  f.max_eval = eval_bound("--max-eval", t.max_eval);
  if (f.min_eval && f.max_eval && *f.min_eval > *f.max_eval)
    throw UsageError{"--min-eval " + t.min_eval + " is above --max-eval " + t.max_eval};
  if (!t.eval_plies.empty()) {
    if (!f.has_eval_filter()) throw UsageError{"--eval-plies needs --min-eval or --max-eval"};
    const search::PlyRange plies = parsed_or_usage_error(search::parse_ply_range(t.eval_plies));
    f.eval_ply_from = plies.from;
    f.eval_ply_to = plies.to;
  }
  if (t.elo_of != "both" && t.elo_of != "either") throw UsageError{"bad --elo-of '" + t.elo_of + "': expected both or either"};
  f.elo_either = t.elo_of == "either";
  f.event = name(t.event);
  f.site = name(t.site);
  f.min_elo = t.min_elo;
  f.max_elo = t.max_elo;
  if (f.min_elo && f.max_elo && *f.min_elo > *f.max_elo)
    throw UsageError{"--min-elo " + std::to_string(*f.min_elo) + " is above --max-elo " + std::to_string(*f.max_elo)};
  f.min_plies = t.min_plies;
  f.max_plies = t.max_plies;
  if (!t.date_from.empty()) f.date_from_key = parsed_or_usage_error(search::parse_date_bound(t.date_from, false));
  if (!t.date_to.empty()) f.date_to_key = parsed_or_usage_error(search::parse_date_bound(t.date_to, true));
  if (f.date_from_key && f.date_to_key && *f.date_from_key > *f.date_to_key)
    throw UsageError{"--date-from " + t.date_from + " is after --date-to " + t.date_to};
  if (!t.result.empty()) f.result = parsed_or_usage_error(search::parse_result(t.result));
  if (!t.time_control.empty()) {
    Parsed<search::TimeControlMatcher> matcher = search::TimeControlMatcher::parse(t.time_control);
    if (!matcher) throw UsageError{"bad --time-control '" + t.time_control + "': " + matcher.error()};
    f.time_control = *matcher;
  }
  return f;
}

void add_pattern_options(po::options_description& d, search::PatternText& p) {
  d.add_options()
      ("material", po::value(&p.material), "material at some ply: KRPvKR, KR2PvKR, KR*PvKR*P (* any number)")
      ("material-either-colour", po::bool_switch(&p.either_colour), "--material/--imbalance also with colours swapped")
      ("imbalance", po::value(&p.imbalance), "material difference: QvRR, BvN, vPP, Pawn+2")
      ("pieces", po::value(&p.pieces), "men on squares, the rest free: \"wKg1 wBg2 bKg8 -e4\" (-e4: e4 empty), or a "
                                       "mask of 8 ranks as in a FEN: ? any square, . or a digit empty")
      ("pawns", po::value(&p.pawns), "exact pawns: 8/pp3ppp/4p3/3p4/3P4/8/PP3PPP/8; w: or b: for one colour")
      ("side-to-move", po::value(&p.side_to_move), "the pattern's first ply has w or b to move")
      ("ply-range", po::value(&p.ply_range), "the pattern holds within these plies: 20-60, 20-, -60")
      ("for", po::value<int64_t>()->notifier([&](int64_t v) { p.streak = v; }), "for at least N consecutive plies")
      ("last", po::bool_switch(&p.last), "at the final position");
}

}  // namespace pgnbase::tools
