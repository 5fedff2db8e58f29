// `pgn-query explore --format csv`: one line per next move (query/csv_writer.h).
#pragma once

#include "search/explorer.h"
#include "io/output_file.h"

namespace pgnbase::query {

// Columns: fen, move (SAN), uci, games, white_wins, draws, black_wins, average_elo
// (empty when unknown or not computed).
void print_explorer_csv(const search::ExplorerResult& result, io::OutputFile& out);

}  // namespace pgnbase::query
