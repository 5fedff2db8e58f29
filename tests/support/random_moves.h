// Seeded random legal moves as PGN movetext, for tests and benchmarks that need games but
// no data files (the CLI tests' random_games, bench/make_zip_members.cpp): the same seed
// gives the same text on every machine. Core only, no GoogleTest.
#pragma once

#include <random>
#include <string>

#include "core/board.h"
#include "core/movegen.h"
#include "core/san.h"

namespace pgnbase::test {

// Appends 20 to 119 random legal plies from the standard start (fewer if the game ends),
// numbered, ten plies a line, without a result.
inline void append_random_moves(std::mt19937& rng, std::string& out) {
  Board board;
  const int plies = 20 + int(rng() % 100);
  for (int ply = 0; ply < plies; ++ply) {
    MoveList list;
    generate_legal_moves(board, list);
    if (list.empty()) break;
    const Move move = list[rng() % list.size()];
    if (ply % 2 == 0) out += std::to_string(ply / 2 + 1) + ". ";
    append_san(board, move, out);
    out += ply % 10 == 9 ? "\n" : " ";
    UndoInfo undo;
    board.do_move(move, undo);
  }
}

}  // namespace pgnbase::test
