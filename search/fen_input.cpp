#include "search/fen_input.h"

#include <algorithm>

namespace pgnbase::search {

bool is_placement_only(std::string_view fen) {
  const size_t first = fen.find_first_not_of(" \t");
  if (first == std::string_view::npos) return false;
  const size_t last = fen.find_last_not_of(" \t");
  fen = fen.substr(first, last - first + 1);
  return std::count(fen.begin(), fen.end(), '/') == 7 &&
         fen.find_first_not_of("/12345678pnbrqkPNBRQK") == std::string_view::npos;
}

std::optional<std::string> impossible_castling(const Board& board) {
  for (Color c : {WHITE, BLACK}) {
    for (bool king_side : {true, false}) {
      const CastlingRight right = castling_right(c, king_side);
      if (!(board.castling_rights() & right)) continue;
      const Rank home = relative_rank(c, RANK_1);
      const Square king = board.king_square(c), rook = board.castling_rook(right);
      const bool possible = rank_of(king) == home && rook != SQ_NONE && rank_of(rook) == home &&
                            board.piece_on(rook) == make_piece(c, ROOK) &&
                            (king_side ? file_of(rook) > file_of(king) : file_of(rook) < file_of(king));
      if (possible) continue;
      const char letter = king_side ? 'K' : 'Q';
      return std::string("castling right ") + (c == WHITE ? letter : char(letter - 'A' + 'a')) + " needs the " +
             (c == WHITE ? "white" : "black") + " king and a rook on its first rank, the rook on the " +
             (king_side ? "king's" : "queen's") + " side: no position of a legal game has it";
    }
  }
  return std::nullopt;
}

}  // namespace pgnbase::search
