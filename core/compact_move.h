// Compact move bytes: the stored form of a game's moves (games.moves, format 2 of
// store/moves_codec.h), one byte for almost every move instead of a 16-bit code.
//
// A move is named relative to the position it is played in:
// | bits 4-7 | which of the mover's pieces moves: its rank among the mover's occupied   |
// |          | squares in square order (a1 = 0 ... h8 = 63)                           |
// | bits 0-3 | which of that piece's target squares it goes to: the destination's rank |
// |          | among target_squares() below, in square order; 0-14                     |
// Anything else (a promotion, a destination ranked 15 or later among a queen's many
// targets, a null move, a 17th piece of one colour) is the escape byte 0x0F followed by
// the 16-bit MoveCode, little-endian: three bytes, about 1% of real moves (1.02 bytes per
// ply on the master-style bench file).
//
// Target squares need not be legal destinations, only the same for writer and reader:
// a pawn's two pushes and two diagonal steps, a knight's or slider's attacks off its own
// pieces, a king's steps off its own pieces plus the two-square steps along its rank and
// its own rooks on that rank (castling as a standard or a Chess960 code).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "core/board.h"
#include "core/move_code.h"

namespace pgnbase {

inline constexpr unsigned char kCompactMoveEscape = 0x0F;

// Appends the bytes of `code`, a move (or the null move) of board.
void append_compact_move(const Board& board, MoveCode code, std::string& out);

// Reads the move at bytes[at] for board and advances `at`; false when the bytes name no
// piece or no target square of board, or end early. The code is not checked for
// legality here: decode_stored_move does that before the move is played.
bool read_compact_move(const Board& board, std::string_view bytes, size_t& at, MoveCode& code);

}  // namespace pgnbase
