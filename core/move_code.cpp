#include "core/move_code.h"

namespace pgnbase {

bool decode_move(const Board& board, MoveCode code, Move& out) {
  if (code == kNullMoveCode) {
    out = Move::null();
    return true;
  }
  MoveList list;
  generate_legal_moves(board, list);
  for (Move m : list) {
    if (encode_move(board, m) == code) {
      out = m;
      return true;
    }
  }
  return false;
}

}  // namespace pgnbase
