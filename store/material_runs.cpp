#include "store/material_runs.h"

#include "core/bitboard.h"
#include "store/varint.h"

namespace pgnbase::store {

namespace {

constexpr uint8_t kBlackAtPly0 = 1, kStartCounts = 2, kPawnsOffHome = 4;
constexpr Square kHomeSquare[2] = {SQ_A2, SQ_A7};  // + file
constexpr unsigned kGapInline = 7;  // gap field value meaning "a varint follows"

Material standard_material() {
  Material m;
  for (Color c : {WHITE, BLACK}) m.count[c] = {0, 8, 2, 2, 2, 1};
  return m;
}

// A board of 64 men, enough to follow captures and promotions through trusted codes.
class Mailbox {
 public:
  explicit Mailbox(const Board& start) {
    for (int s = 0; s < 64; ++s) box_[s] = start.piece_on(Square(s));
  }

  // Plays a code for `us`; returns the type taken (NO_PIECE_TYPE when none).
  PieceType play(Color us, MoveCode code) {
    const Square from = Square(code & 63), to = Square((code >> 6) & 63);
    const unsigned promoted = (code >> 12) & 7;
    const Piece piece = box_[from], target = box_[to];
    if (type_of(piece) == KING && target != NO_PIECE && color_of(target) == us) {
      castle(us, from, to, to > from);  // Chess960: king takes own rook
      return NO_PIECE_TYPE;
    }
    if (type_of(piece) == KING && (file_of(from) - file_of(to) == 2 || file_of(to) - file_of(from) == 2)) {
      castle(us, from, to > from ? Square(from + 3) : Square(from - 4), to > from);
      return NO_PIECE_TYPE;
    }
    PieceType taken = target == NO_PIECE ? NO_PIECE_TYPE : type_of(target);
    if (type_of(piece) == PAWN && target == NO_PIECE && file_of(from) != file_of(to)) {
      box_[make_square(file_of(to), rank_of(from))] = NO_PIECE;  // en passant
      taken = PAWN;
    }
    box_[from] = NO_PIECE;
    box_[to] = promoted ? make_piece(us, PieceType(PAWN + promoted)) : piece;
    return taken;
  }

 private:
  void castle(Color us, Square king, Square rook, bool king_side) {
    const Piece k = box_[king], r = box_[rook];
    box_[king] = box_[rook] = NO_PIECE;
    box_[Board::castling_king_to(us, king_side)] = k;
    box_[Board::castling_rook_to(us, king_side)] = r;
  }

  Piece box_[64];
};

}  // namespace

Material material_of(const Board& board) {
  Material m;
  for (Color c : {WHITE, BLACK})
    for (int pt = PAWN; pt <= QUEEN; ++pt) m.count[c][pt] = uint8_t(popcount(board.pieces(c, PieceType(pt))));
  return m;
}

void encode_material_runs(const Board& start, std::span<const MoveCode> codes, std::span<const uint8_t> taken,
                          std::string& out) {
  out.clear();
  const Material m = material_of(start);
  const bool standard = m == standard_material();
  out.push_back(char((start.side_to_move() == BLACK ? kBlackAtPly0 : 0) | (standard ? 0 : kStartCounts)));
  if (!standard)
    for (Color c : {WHITE, BLACK})
      for (int pt = PAWN; pt <= QUEEN; ++pt) out.push_back(char(m.count[c][pt]));
  const bool off_home = (start.pieces(WHITE, PAWN) & ~rank_bb(RANK_2)) || (start.pieces(BLACK, PAWN) & ~rank_bb(RANK_7));
  if (off_home) out[0] = char(out[0] | kPawnsOffHome);
  uint8_t buffer[kMaxVarintBytes];
  out.append(reinterpret_cast<const char*>(buffer), size_t(put_varint(buffer, codes.size()) - buffer));
  // Home pawns: h is a2..h2 (0-7) and a7..h7 (8-15). One absent at ply 0 "left" at 0. One
  // present leaves at the first move that starts or ends on its square: pawns never go
  // back, so nothing but that pawn moves from there while it stands, and a move there
  // takes it (castling moves nothing on ranks 2 and 7; en passant takes a pawn that left).
  // `home` holds the squares whose pawn has not left yet: one test a move while any does.
  uint32_t left[16];
  unsigned mask = 0;
  Bitboard home = 0;
  for (unsigned h = 0; h < 16; ++h) {
    const Color c = Color(h / 8);
    const Square square = Square(kHomeSquare[c] + h % 8);
    if (start.piece_on(square) != make_piece(c, PAWN)) {
      mask |= 1u << h;
      left[h] = 0;
    } else {
      home |= square_bb(square);
    }
  }
  for (size_t i = 0; i < codes.size() && home; ++i) {
    if (codes[i] == kNullMoveCode) continue;
    Bitboard touched = home & (square_bb(Square(codes[i] & 63)) | square_bb(Square((codes[i] >> 6) & 63)));
    home &= ~touched;
    while (touched) {
      const Square square = pop_lsb(touched);
      const unsigned h = (rank_of(square) == RANK_7 ? 8 : 0) + file_of(square);
      mask |= 1u << h;
      left[h] = uint32_t(std::min<size_t>(i + 1, kLeftLate));
    }
  }
  out.push_back(char(mask & 0xFF));
  out.push_back(char(mask >> 8));
  for (unsigned h = 0; h < 16; ++h)
    if (mask >> h & 1) out.push_back(char(left[h]));
  size_t previous = 0;
  for (size_t i = 0; i < codes.size(); ++i) {
    if (codes[i] == kNullMoveCode) continue;
    const unsigned promoted = (codes[i] >> 12) & 7;
    const unsigned took = i < taken.size() ? taken[i] : 0;
    if (!took && !promoted) continue;
    const size_t gap = i + 1 - previous - 1;
    previous = i + 1;
    const unsigned change = took * 5 + promoted;
    out.push_back(char(change | (std::min<size_t>(gap, kGapInline) << 5)));
    if (gap >= kGapInline)
      out.append(reinterpret_cast<const char*>(buffer), size_t(put_varint(buffer, gap - kGapInline) - buffer));
  }
}

void encode_material_runs(const Board& start, std::span<const MoveCode> codes, std::string& out) {
  std::vector<uint8_t> taken(codes.size(), uint8_t(NO_PIECE_TYPE));
  Mailbox box(start);
  Color us = start.side_to_move();
  for (size_t i = 0; i < codes.size(); ++i, us = ~us)
    if (codes[i] != kNullMoveCode) taken[i] = uint8_t(box.play(us, codes[i]));
  encode_material_runs(start, codes, taken, out);
}

bool decode_material_runs(std::string_view blob, MaterialRuns& out) {
  out.runs.clear();
  const uint8_t* p = reinterpret_cast<const uint8_t*>(blob.data());
  const uint8_t* end = p + blob.size();
  if (p == end) return false;
  const uint8_t flags = *p++;
  out.side_at_ply0 = flags & kBlackAtPly0 ? BLACK : WHITE;
  Material m = standard_material();
  if (flags & kStartCounts) {
    if (end - p < 10) return false;
    for (Color c : {WHITE, BLACK})
      for (int pt = PAWN; pt <= QUEEN; ++pt) m.count[c][pt] = *p++;
  }
  uint64_t plies;
  if (!get_varint(p, end, plies) || plies > UINT32_MAX) return false;
  out.plies = uint32_t(plies);
  out.pawns_start_home = !(flags & kPawnsOffHome);
  if (end - p < 2) return false;
  const unsigned mask = p[0] | unsigned(p[1]) << 8;
  p += 2;
  for (unsigned h = 0; h < 16; ++h) {
    uint32_t& left = out.pawn_left[h / 8][h % 8];
    left = kNeverLeft;
    if (!(mask >> h & 1)) continue;
    if (p == end) return false;
    left = *p++;
  }
  uint64_t ply = 0;
  out.runs.push_back({0, 0, m});
  while (p < end) {
    const uint8_t byte = *p++;
    uint64_t gap = byte >> 5;
    if (gap == kGapInline) {
      uint64_t more;
      if (!get_varint(p, end, more)) return false;
      gap += more;
    }
    ply += gap + 1;
    const unsigned change = byte & 31, taken = change / 5, promoted = change % 5;
    if (change >= 30 || ply > plies) return false;
    // The mover at this ply is the side to move before it: ply 1 is ply 0's side.
    const Color us = (ply % 2 == 1) == (out.side_at_ply0 == WHITE) ? WHITE : BLACK;
    if (taken) {
      uint8_t& n = m.count[~us][taken];
      if (n == 0) return false;
      --n;
    }
    if (promoted) {
      if (m.count[us][PAWN] == 0) return false;
      --m.count[us][PAWN];
      ++m.count[us][PAWN + promoted];
    }
    out.runs.back().length = uint32_t(ply - out.runs.back().first);
    out.runs.push_back({uint32_t(ply), 0, m});
  }
  out.runs.back().length = uint32_t(plies + 1 - out.runs.back().first);
  return true;
}

}  // namespace pgnbase::store
