// Polyglot-compatible Zobrist keys (http://hgm.nubati.net/book_format.html):
// the published 781-entry Random64 table, so our keys match any Polyglot book.
#pragma once

#include "core/types.h"

namespace pgnbase::zobrist {

extern const Key kRandom64[781];

// Polyglot numbers pieces black pawn 0, white pawn 1, black knight 2, ... white king 11.
inline Key piece_key(Piece p, Square s) {
  int kind = 2 * (type_of(p) - 1) + (color_of(p) == WHITE ? 1 : 0);
  return kRandom64[64 * kind + s];
}
// One key per right: white O-O, white O-O-O, black O-O, black O-O-O (bits of CastlingRight).
inline Key castling_key(int rights) {
  Key k = 0;
  for (int i = 0; i < 4; ++i)
    if (rights & (1 << i)) k ^= kRandom64[768 + i];
  return k;
}
inline Key en_passant_key(File f) { return kRandom64[772 + f]; }
inline Key white_to_move_key() { return kRandom64[780]; }

}  // namespace pgnbase::zobrist
