// Helpers shared by the core tests: the perft suites copied into tests/data/perft,
// UCI move names, and seeded random games.
#pragma once

#include <cstdint>
#include <fstream>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "core/board.h"
#include "core/fen.h"
#include "core/move_code.h"
#include "core/movegen.h"

namespace pgnbase::test_support {

// A MoveCode from its fields (core/move_code.h layout), for hand-written expectations.
constexpr MoveCode code_of(Square from, Square to, unsigned promotion = 0) {
  return MoveCode(from | (to << 6) | (promotion << 12));
}

// Test data lives in the repository so that CI needs nothing outside it.
inline std::string test_data_path(std::string_view relative) {
  return std::string(PGNBASE_SOURCE_DIR) + "/tests/data/" + std::string(relative);
}
// Parses fen into board and returns the parser's message, "" on success, so that a
// failing assertion shows why.
inline std::string fen_error(std::string_view fen, Board& board, bool chess960 = false) {
  Parsed<Board> parsed = parse_fen(fen, chess960);
  if (!parsed) return parsed.error();
  board = *parsed;
  return "";
}

struct PerftExpectation {
  int depth;
  uint64_t nodes;
};

struct PerftCase {
  std::string id;
  std::string fen;  // four-field EPD as written in the file
  std::vector<PerftExpectation> expected;
};

// Reads a python-chess .perft file: `id NAME`, `epd FEN`, `perft DEPTH NODES` lines,
// `#` comments and blank lines. Returns no cases when the file cannot be opened.
inline std::vector<PerftCase> read_perft_file(const std::string& path) {
  std::vector<PerftCase> cases;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("id ", 0) == 0) {
      cases.push_back({line.substr(3), "", {}});
    } else if (line.rfind("epd ", 0) == 0 && !cases.empty()) {
      cases.back().fen = line.substr(4);
    } else if (line.rfind("perft ", 0) == 0 && !cases.empty()) {
      std::istringstream fields(line.substr(6));
      PerftExpectation e{};
      if (fields >> e.depth >> e.nodes) cases.back().expected.push_back(e);
    }
  }
  return cases;
}

// UCI is exactly the move code spelled out: from, to, promotion letter (castling is
// e1g1 in standard chess and king-takes-rook in Chess960, as in the code).
inline std::string move_to_uci(const Board& board, Move m) {
  const MoveCode code = encode_move(board, m);
  if (code == kNullMoveCode) return "0000";
  std::string uci;
  for (unsigned s : {code & 63u, (code >> 6) & 63u}) {
    uci += char('a' + s % 8);
    uci += char('1' + s / 8);
  }
  if (unsigned promotion = (code >> 12) & 7) uci += " nbrq"[promotion];
  return uci;
}

// Finds the legal move with this UCI name.
inline std::optional<Move> find_uci_move(const Board& board, std::string_view uci) {
  MoveList list;
  generate_legal_moves(board, list);
  for (Move m : list)
    if (move_to_uci(board, m) == uci) return m;
  return std::nullopt;
}

// Plays up to max_plies uniformly random legal moves from board, calling
// visit(board, move) before each move is made; stops early at mate or stalemate.
template <class Visit>
void play_random_game(Board board, std::mt19937& rng, int max_plies, Visit&& visit) {
  UndoInfo undo;
  for (int ply = 0; ply < max_plies; ++ply) {
    MoveList list;
    generate_legal_moves(board, list);
    if (list.empty()) return;
    const Move m = list[std::uniform_int_distribution<size_t>(0, list.size() - 1)(rng)];
    visit(static_cast<const Board&>(board), m);
    board.do_move(m, undo);
  }
}

}  // namespace pgnbase::test_support
