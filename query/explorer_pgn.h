// `pgn-query explore --format pgn`: the explorer's tree from the position as one PGN game.
// The most played move is the main line and the others are variations, each move with a
// comment of its games and results ({1033 games, +42.0% =8.9% -49.1%}); a move is kept
// when it has at least min_share of the position's games (at most max_moves of them), and
// each kept move is explored again, depth plies deep. --moves, when given, leads up to the
// position; otherwise the game starts from it (FEN and SetUp tags).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "io/output_file.h"
#include "search/explorer.h"
#include "search/move_sequence.h"
#include "store/database.h"

namespace pgnbase::query {

struct ExplorerTreeOptions {
  size_t depth = 3;         // plies explored from the position
  double min_share = 0.05;  // of the games that go on from a position
  size_t max_moves = 4;     // per position
};

// Explores from options.filter.position (the filters apply at every node) and writes the
// tree. path: the moves of --moves from the start position (nullptr when --fen).
void print_explorer_pgn(store::Database& db, const search::ExplorerOptions& options, const search::MoveSequence* path,
                        const ExplorerTreeOptions& tree, io::OutputFile& out);

}  // namespace pgnbase::query
