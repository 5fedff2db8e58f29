#include "query/explorer_csv.h"

#include <cstdio>

#include "query/csv_writer.h"

namespace pgnbase::query {

void print_explorer_csv(const search::ExplorerResult& r, io::OutputFile& out) {
  // One row per move, as the JSON's moves: fen is the position after the move (to explore
  // next), share its part of the games that go on from the position, the opening that
  // of the position after the move.
  CsvWriter csv({"move", "uci", "fen", "games", "share", "white_wins", "draws", "black_wins", "average_elo", "eco",
                 "opening"},
                out);
  uint64_t with_moves = 0;
  for (const search::ExplorerMove& m : r.moves) with_moves += m.games;
  char buffer[32];
  for (const search::ExplorerMove& m : r.moves) {
    std::string elo;
    if (r.ratings && m.rated_games) {
      std::snprintf(buffer, sizeof buffer, "%.1f", m.average_rating());
      elo = buffer;
    }
    std::snprintf(buffer, sizeof buffer, "%.4f", with_moves ? double(m.games) / double(with_moves) : 0.0);
    csv.add_row({m.san, m.uci, m.fen, std::to_string(m.games), buffer, std::to_string(m.white_wins),
                 std::to_string(m.draws), std::to_string(m.black_wins), elo, m.opening.eco, m.opening.name});
  }
}

}  // namespace pgnbase::query
