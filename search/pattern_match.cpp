#include "search/pattern_match.h"

#include <algorithm>

namespace pgnbase::search {

namespace {

bool material_in_spec(const MaterialSpec& spec, const store::Material& m, bool swapped) {
  for (Color c : {WHITE, BLACK}) {
    const Color of = swapped ? ~c : c;
    for (int pt = PAWN; pt <= QUEEN; ++pt) {
      const MaterialSpec::Range r = spec.range[c][pt];
      const int n = m.count[of][pt];
      if (n < r.min || (r.max != 255 && n > r.max)) return false;
    }
  }
  return true;
}

bool imbalance_in_spec(const ImbalanceSpec& spec, const store::Material& m, int sign) {
  for (int pt = spec.pawns_free ? KNIGHT : PAWN; pt <= QUEEN; ++pt)
    if (int(m.count[WHITE][pt]) - int(m.count[BLACK][pt]) != sign * spec.difference[pt]) return false;
  return true;
}

constexpr Bitboard kHomeRank[2] = {rank_bb(RANK_2), rank_bb(RANK_7)};

}  // namespace

bool material_matches(const Pattern& p, const store::Material& m) {
  if (p.material && !material_in_spec(*p.material, m, false) &&
      !(p.either_colour && material_in_spec(*p.material, m, true)))
    return false;
  if (p.imbalance && !imbalance_in_spec(*p.imbalance, m, 1) && !(p.either_colour && imbalance_in_spec(*p.imbalance, m, -1)))
    return false;
  if (p.pieces)
    for (Color c : {WHITE, BLACK})
      for (int pt = PAWN; pt <= QUEEN; ++pt)
        if (m.count[c][pt] < popcount(p.pieces->required[c][pt])) return false;
  if (p.pawns)
    for (Color c : {WHITE, BLACK})
      if (p.pawns->checked[c] && m.count[c][PAWN] != popcount(p.pawns->pawns[c])) return false;
  return true;
}

bool squares_match(const Pattern& p, const Board& board) {
  if (p.pieces) {
    if (board.pieces() & p.pieces->empty) return false;
    for (Color c : {WHITE, BLACK})
      for (int pt = PAWN; pt <= KING; ++pt) {
        const Bitboard need = p.pieces->required[c][pt];
        if ((board.pieces(c, PieceType(pt)) & need) != need) return false;
      }
  }
  if (p.pawns)
    for (Color c : {WHITE, BLACK})
      if (p.pawns->checked[c] && board.pieces(c, PAWN) != p.pawns->pawns[c]) return false;
  return true;
}

bool squares_impossible(const Pattern& p, const Board& board) {
  for (Color c : {WHITE, BLACK}) {
    Bitboard home = 0;
    if (p.pieces) home |= p.pieces->required[c][PAWN] & kHomeRank[c];
    if (p.pawns && p.pawns->checked[c]) home |= p.pawns->pawns[c] & kHomeRank[c];
    if ((board.pieces(c, PAWN) & home) != home) return true;
  }
  return false;
}

PlyWindow squares_window(const Pattern& p, const store::MaterialRuns& game) {
  PlyWindow w;
  // The leaving ply as a bound on later plies (a late one is a lower bound only).
  auto after = [](uint32_t left) { return left == store::kNeverLeft ? uint64_t(UINT32_MAX) + 1 : uint64_t(left); };
  for (Color c : {WHITE, BLACK}) {
    Bitboard need = p.pieces ? p.pieces->required[c][PAWN] : 0;
    if (p.pawns && p.pawns->checked[c]) {
      need |= p.pawns->pawns[c];
      // Home squares the structure leaves empty: their pawns must have gone.
      const Bitboard gone = kHomeRank[c] & ~p.pawns->pawns[c];
      for (int f = 0; f < 8; ++f)
        if (gone & file_bb(File(f))) w.first = std::max(w.first, after(game.pawn_left[c][f]));
    }
    for (Bitboard b = need; b;) {
      const Square s = pop_lsb(b);
      const int f = file_of(s);
      const int advance = relative_rank(c, rank_of(s)) - RANK_2;
      if (advance == 0) {
        const uint32_t left = game.pawn_left[c][f];
        if (left != store::kNeverLeft && left != store::kLeftLate) w.last = std::min<uint64_t>(w.last, left - 1u);
        if (left == 0) w.first = uint64_t(UINT32_MAX) + 1;
        continue;
      }
      if (!game.pawns_start_home || advance < 0) continue;
      // A pawn that reached s left a home square at most `advance` files away.
      uint64_t earliest = uint64_t(UINT32_MAX) + 1;
      for (int g = std::max(0, f - advance); g <= std::min(7, f + advance); ++g)
        earliest = std::min(earliest, after(game.pawn_left[c][g]));
      w.first = std::max(w.first, earliest);
    }
  }
  return w;
}

StreakFinder::StreakFinder(const Pattern& pattern, Color side_at_ply0, uint32_t final_ply)
    : pattern_(pattern), side_at_ply0_(side_at_ply0), final_ply_(final_ply) {}

// With the current stretch of holding plies, sets the match ply if one is complete.
bool StreakFinder::try_stretch() {
  const uint32_t n = pattern_.streak;
  uint32_t first;
  if (pattern_.last) {
    if (stretch_last_ != final_ply_ || final_ply_ + 1 < n) return false;
    first = final_ply_ + 1 - n;
    if (first < stretch_first_) return false;
    if (pattern_.side_to_move && ((first % 2 == 0) != (*pattern_.side_to_move == side_at_ply0_))) return false;
  } else {
    first = stretch_first_;
    if (pattern_.side_to_move && ((first % 2 == 0) != (*pattern_.side_to_move == side_at_ply0_))) ++first;
    if (uint64_t(first) + n - 1 > stretch_last_) return false;
  }
  match_ = first;
  found_ = true;
  return true;
}

bool StreakFinder::feed(uint32_t first, uint32_t count, bool holds) {
  if (found_ || count == 0) return found_;
  const uint64_t last = uint64_t(first) + count - 1;
  // The part inside --ply-range holds; the rest does not.
  const uint64_t lo = std::max<uint64_t>(first, pattern_.ply_from), hi = std::min<uint64_t>(last, pattern_.ply_to);
  if (!holds || lo > hi) {
    in_stretch_ = false;
    return false;
  }
  if (!in_stretch_ || lo != first || stretch_last_ + 1 != first) stretch_first_ = uint32_t(lo);
  in_stretch_ = true;
  stretch_last_ = uint32_t(hi);
  if (try_stretch()) return true;
  if (hi != last) in_stretch_ = false;  // the range ended inside this span
  return false;
}

}  // namespace pgnbase::search
