// What --fen reads beyond a whole FEN: a piece placement alone (no side to move), searched
// as a placement pattern, and the castling rights no position of a legal game can have.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/board.h"

namespace pgnbase::search {

// Whether the text is a FEN's first field alone: 8 ranks of pieces and digits between
// '/', nothing else (blanks around it allowed).
bool is_placement_only(std::string_view fen);

// The first castling right of the board that no game can reach (the king and that rook
// must stand on their first rank, the rook on the side it castles to, as in standard chess
// and Chess960), as one sentence; nullopt when every right can be had.
std::optional<std::string> impossible_castling(const Board& board);

}  // namespace pgnbase::search
