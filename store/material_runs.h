// The material of every position of a game, stored as the plies where it changes
// (an entry of material_blocks: material_blocks.h), so that material and imbalance
// searches read no moves.
//
// Material changes only at a capture or a promotion, and the side that moved is known
// from the ply's parity, so each change is one byte: what was taken and what was
// promoted to. Blob layout:
// | byte 0        | bit 0: Black moves at ply 0; bit 1: start counts follow;       |
// |               | bit 2: some pawn stands off its home rank at ply 0             |
// | [10 bytes]    | start counts W P N B R Q, B P N B R Q (only with bit 1; else   |
// |               | the standard 8 2 2 2 1 per side)                               |
// | varint        | plies of the game                                              |
// | 2 bytes       | home squares a2..h2 (bits 0-7), a7..h7 (bits 8-15) whose pawn  |
// |               | left during the game (or was not there at ply 0), LE           |
// | 1 byte each   | for each set bit in order: the first ply without that pawn,    |
// |               | 255 for 255 or later                                           |
// | change, ...   | one per ply where the material changes, in ply order:          |
// |   bits 0-4    |   captured * 5 + promoted; captured 0 none, 1 P ... 5 Q;       |
// |               |   promoted 0 none, 1 N ... 4 Q                                 |
// |   bits 5-7    |   ply - previous change's ply - 1 (previous: 0), when below 7; |
// |               |   7: the gap minus 8 follows as a varint                       |
// Typical master games have 15-25 changes: about 35 bytes per game in all. Pawns never
// go back, so a home pawn's leaving ply bounds where a pawn structure can occur.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/board.h"
#include "core/move_code.h"

namespace pgnbase::store {

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

inline constexpr uint32_t kNeverLeft = UINT32_MAX;
inline constexpr uint32_t kLeftLate = 255;  // stored for "at ply 255 or later"

struct MaterialRuns {
  Color side_at_ply0 = WHITE;
  uint32_t plies = 0;
  bool pawns_start_home = true;  // every pawn of ply 0 stood on its home rank
  // The first ply whose board lacks the pawn of each home square ([Color][File]):
  // kNeverLeft, or kLeftLate meaning "kLeftLate or later".
  std::array<std::array<uint32_t, 8>, 2> pawn_left{};
  std::vector<MaterialRun> runs;  // cover plies 0 .. plies, in order
};

// Encodes the runs of a game from its start position and (legal) move codes; `taken`
// holds, per ply, the PieceType its move took (NO_PIECE_TYPE when none), as the replay
// that made the codes saw it (core/replay.h), so no board is played again.
void encode_material_runs(const Board& start, std::span<const MoveCode> codes, std::span<const uint8_t> taken,
                          std::string& out);
// The same, finding what each move takes by playing the codes on a board of 64 men.
void encode_material_runs(const Board& start, std::span<const MoveCode> codes, std::string& out);

// Decodes a game's runs; false when they are corrupt.
bool decode_material_runs(std::string_view blob, MaterialRuns& out);

}  // namespace pgnbase::store
