// The material of every position of a game, stored as the plies where it changes
// (game_material.runs), so that material and imbalance searches read no moves.
//
// Material changes only at a capture or a promotion, and the side that moved is known
// from the ply's parity, so each change is one byte: what was taken and what was
// promoted to. Blob layout:
// | byte 0        | bit 0: Black moves at ply 0; bit 1: start counts follow        |
// | [10 bytes]    | start counts W P N B R Q, B P N B R Q (only with bit 1; else   |
// |               | the standard 8 2 2 2 1 per side)                               |
// | varint        | plies of the game                                              |
// | change, ...   | one per ply where the material changes, in ply order:          |
// |   bits 0-4    |   captured * 5 + promoted; captured 0 none, 1 P ... 5 Q;       |
// |               |   promoted 0 none, 1 N ... 4 Q                                 |
// |   bits 5-7    |   ply - previous change's ply - 1 (previous: 0), when below 7; |
// |               |   7: the gap minus 8 follows as a varint                       |
// Typical master games have 15-25 changes: about 25 bytes per game in all.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/board.h"
#include "core/move_code.h"

namespace pgnbase::indexer {

// Men of each colour by type, PAWN..QUEEN (kings are always one each).
struct Material {
  std::array<std::array<uint8_t, 6>, 2> count{};  // [Color][PieceType], index 0 and KING unused
  bool operator==(const Material&) const = default;
};

Material material_of(const Board& board);

// Plies [first, first + length) of a game with one material.
struct MaterialRun {
  uint32_t first = 0;
  uint32_t length = 0;
  Material material;
};

struct MaterialRuns {
  Color side_at_ply0 = WHITE;
  uint32_t plies = 0;
  std::vector<MaterialRun> runs;  // cover plies 0 .. plies, in order
};

// Encodes the runs of a game from its start position and (legal) move codes.
void encode_material_runs(const Board& start, std::span<const MoveCode> codes, std::string& out);

// Decodes a game_material.runs blob; false when it is corrupt.
bool decode_material_runs(std::string_view blob, MaterialRuns& out);

}  // namespace pgnbase::indexer
