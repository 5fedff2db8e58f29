// FEN parse (strict, with a message naming the bad field) and canonical write.
// Castling fields: standard `KQkq`, X-FEN (`K`/`Q` = outermost rook on that side,
// a file letter for an inner rook) and Shredder-FEN (`HAha`) are all read.
#pragma once

#include <string>
#include <string_view>

#include "core/board.h"
#include "core/parsed.h"

namespace pgnbase {

enum class FenField { Placement, SideToMove, Castling, EnPassant, HalfmoveClock, FullmoveNumber, Position };

// The name an error message gives the field: "castling field 'KQkx': ...".
const char* field_name(FenField field);

// Parses a FEN. Four fields suffice (counters default to 0 1). A Chess960 castling
// field (rooks or king off their standard squares, file letters) turns on
// chess960(); `chess960` forces it on. The error is one line naming the field
// ("castling field 'KQkx': ...") or the whole position.
Parsed<Board> parse_fen(std::string_view fen, bool chess960 = false);

enum class CastlingStyle { Auto, XFen, Shredder };

// Writes the six fields. Auto writes `KQkq` for standard positions and X-FEN otherwise.
std::string write_fen(const Board& board, CastlingStyle style = CastlingStyle::Auto);

inline constexpr std::string_view kStartFen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

}  // namespace pgnbase
