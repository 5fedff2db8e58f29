// games.moves: a game's main line. One header byte (blob_codec.h's BlobFormat), then
//   2 (CompactMoves, what pgnbase writes since schema 4): compact bytes, about one byte
//     per ply (core/compact_move.h); reading them needs the game's start position;
//   0 (Raw) or 1 (Zstd): 16-bit MoveCodes, little-endian (schema 3 and older; still read).
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/board.h"
#include "core/move_code.h"
#include "store/stored_columns.h"

namespace pgnbase::store {

// The start position of a stored game: its start_fen column when set, else the standard
// array (as a Chess960 board for a Chess960 game). False when the FEN does not parse.
bool stored_start_position(Variant variant, std::optional<std::string_view> start_fen, Board& board);

// The blob of compact bytes that the replay made (ReplayOutput::compact).
void encode_moves_blob(std::string_view compact, std::string& out);
// The blob of the moves `codes`, legal from `start`; false (out unchanged) when one is not.
bool encode_moves(const Board& start, std::span<const MoveCode> codes, std::string& out);

// The move codes of a blob, each checked to be a legal move as it is played from
// `start` (a database may come from anyone); false when the blob is corrupt.
bool decode_moves(std::string_view blob, const Board& start, std::vector<MoveCode>& codes);

// The same, calling visit(board, ply) on the start position (ply 0) and after each move
// as it is played, so that a reader that looks at positions replays the game once. When
// visit returns false, reading stops there: true, with the codes read so far.
using PositionVisit = std::function<bool(const Board& board, size_t ply)>;
bool decode_moves(std::string_view blob, const Board& start, std::vector<MoveCode>& codes, const PositionVisit& visit);

}  // namespace pgnbase::store
