// Reading and writing moves: every notation form of NOTATION.md on input, resolved
// against the legal moves of the position (never a guess); SAN and its relatives on output.
#pragma once

#include <string>
#include <string_view>

#include "core/board.h"
#include "core/notation.h"

namespace pgnbase {

enum class SanError : uint8_t {
  None,
  Empty,           // nothing left after removing marks
  Unparsable,      // not a move in any known form
  NoSuchMove,      // well-formed, but no legal move matches
  Ambiguous,       // well-formed, but several legal moves match
  MissingPromotion,
  BadPromotion,    // promotion piece on a move that does not promote, or to pawn/king
  NullMove,        // "--" where a null move is not allowed (side in check)
};

const char* describe(SanError e);

// Parses one move token in the given language (figurines, UCI and castling are
// language-independent). Check, mate, assessment and en-passant marks are ignored:
// the board decides. A null move ("--", "Z0", "0000") gives Move::null().
SanError parse_move(const Board& board, std::string_view token, const PieceLetters& letters, Move& out);

enum class MoveStyle : uint8_t {
  San,       // Nf3, exd5, e8=Q, O-O, with + and #
  Long,      // Ng1-f3, e4xd5, e7-e8=Q, O-O
  Uci,       // g1f3, e7e8q; castling e1g1 (Chess960: king takes rook, e1h1)
  Figurine,  // SAN with the white figurines U+2654-U+2658 for both sides
};

// Appends a legal move of board in the given style and language (the language's letters
// replace English ones in San and Long styles). The null move is written "--".
void append_move(const Board& board, Move m, MoveStyle style, const PieceLetters& letters, std::string& out);

inline void append_san(const Board& board, Move m, std::string& out) {
  append_move(board, m, MoveStyle::San, english(), out);
}
inline std::string to_san(const Board& board, Move m) {
  std::string s;
  append_san(board, m, s);
  return s;
}

}  // namespace pgnbase
