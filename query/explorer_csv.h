// `pgn-query explore --format csv`: one line per next move (query/csv_writer.h).
#pragma once

#include "search/explorer.h"
#include "io/output_file.h"

namespace pgnbase::query {

// Columns: move (SAN), uci, fen (the position after the move, as in JSON), games, share
// (of the games that go on from the position, 0..1), white_wins, draws, black_wins,
// average_elo (empty when unknown or not computed), eco and opening (of the position after
// the move).
void print_explorer_csv(const search::ExplorerResult& result, io::OutputFile& out);

}  // namespace pgnbase::query
