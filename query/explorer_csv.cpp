#include "query/explorer_csv.h"

#include <cstdio>

#include "query/csv_writer.h"

namespace pgnbase::query {

void print_explorer_csv(const search::ExplorerResult& r, io::OutputFile& out) {
  CsvWriter csv({"fen", "move", "uci", "games", "white_wins", "draws", "black_wins", "average_elo"}, out);
  for (const search::ExplorerMove& m : r.moves) {
    std::string elo;
    if (r.ratings && m.rated_games) {
      char buffer[32];
      std::snprintf(buffer, sizeof buffer, "%.1f", m.average_rating());
      elo = buffer;
    }
    csv.add_row({r.fen, m.san, m.uci, std::to_string(m.games), std::to_string(m.white_wins), std::to_string(m.draws),
                 std::to_string(m.black_wins), elo});
  }
}

}  // namespace pgnbase::query
