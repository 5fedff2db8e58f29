// Material, placement and pattern search (pgn-query --material, --imbalance, --pieces,
// --pawns and their qualifiers): the pattern as values, and the parsers of its text.
// Every parser returns false with a one-line message naming the bad part; none asserts
// on user input.
//
// Plies count positions: ply 0 is the start position, ply i the position after i
// half-moves. A game matches at ply p when the board pattern (material, imbalance,
// pieces, pawns) holds at the N = --for consecutive plies p .. p+N-1, all inside
// --ply-range, the side to move at p is --side-to-move, and with --last p+N-1 is the
// final position. The game's match ply is the smallest such p.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/bitboard.h"
#include "core/parsed.h"
#include "core/types.h"

namespace pgnbase::search {

// Allowed counts of each man, [Color][PieceType] for PAWN..QUEEN (kings: one each).
struct MaterialSpec {
  struct Range {
    uint8_t min = 0, max = 0;
  };
  std::array<std::array<Range, 6>, 2> range{};
};

// White's count minus Black's of each type PAWN..QUEEN; pawns free unless named.
struct ImbalanceSpec {
  std::array<int, 6> difference{};
  bool pawns_free = true;
};

// Men required on squares (everything else free) and squares required empty.
struct PlacementSpec {
  std::array<std::array<Bitboard, 7>, 2> required{};  // [Color][PieceType]
  Bitboard empty = 0;
};

// The exact pawns of both colours, or of one (the other's then free).
struct PawnSpec {
  std::array<Bitboard, 2> pawns{};
  std::array<bool, 2> checked{true, true};
};

struct Pattern {
  std::optional<MaterialSpec> material;
  std::optional<ImbalanceSpec> imbalance;
  bool either_colour = false;  // material and imbalance also match with colours swapped
  std::optional<PlacementSpec> pieces;
  std::optional<PawnSpec> pawns;
  std::optional<Color> side_to_move;
  uint32_t ply_from = 0, ply_to = UINT32_MAX;  // inclusive
  uint32_t streak = 1;                         // --for N
  bool last = false;

  // Whether the pattern looks at squares (and so needs the games' moves replayed).
  bool needs_board() const { return pieces.has_value() || pawns.has_value(); }
};

// The pattern options as the user typed them ("" when absent).
struct PatternText {
  std::string material, imbalance, pieces, pawns, side_to_move, ply_range;
  bool either_colour = false, last = false;
  std::optional<int64_t> streak;  // --for
};

// The Pattern of the options, nullopt when none selects anything (qualifiers alone are
// an error); errors such as "--material: 'KRX' has no piece X".
Parsed<std::optional<Pattern>> build_pattern(const PatternText& text);

// "KRPvKR", "KRPPvKR", "KR2PvKR", "KR*PvKR*P" (* = any number).
Parsed<MaterialSpec> parse_material(std::string_view text);
// "QvRR", "BvN", "vPP", "Pawn+2" (= "PPv"), "Pawn-1".
Parsed<ImbalanceSpec> parse_imbalance(std::string_view text);
// A list "wKg1 wRf1 bKg8 bPh7 -e4" (also "Kg1 kg8": FEN letter case; "-e4": e4 empty),
// or a mask of 8 ranks "?????rk?/?????ppp/8/..." ('?' any, '.' or a digit empty).
Parsed<PlacementSpec> parse_pieces(std::string_view text);
// A board of pawns only, "8/pp3ppp/4p3/3p4/3P4/8/PP3PPP/8" ('.' or a digit empty); a
// "w:" or "b:" prefix compares that colour's pawns only.
Parsed<PawnSpec> parse_pawns(std::string_view text);
// "20-60", "20-", "-60", "40": inclusive.
struct PlyRange {
  uint32_t from = 0, to = UINT32_MAX;
};
Parsed<PlyRange> parse_ply_range(std::string_view text);
// "w" or "b" (also "white", "black").
Parsed<Color> parse_side(std::string_view text);

}  // namespace pgnbase::search
