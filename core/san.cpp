#include "core/san.h"

#include "core/movegen.h"

namespace pgnbase {

const char* describe(SanError e) {
  switch (e) {
    case SanError::None: return "ok";
    case SanError::Empty: return "empty move";
    case SanError::Unparsable: return "unparsable move";
    case SanError::NoSuchMove: return "illegal move";
    case SanError::Ambiguous: return "ambiguous move";
    case SanError::MissingPromotion: return "promotion piece missing";
    case SanError::BadPromotion: return "bad promotion";
    case SanError::NullMove: return "null move while in check";
  }
  return "unknown";
}

namespace {

// ---- reading -------------------------------------------------------------------

constexpr std::string_view kDagger = "\xE2\x80\xA0", kDoubleDagger = "\xE2\x80\xA1";
constexpr std::string_view kTimes = "\xC3\x97";

// Removes what follows the move itself: check and mate marks, assessments, en-passant
// marks and a capture colon written after the target ("Td3:").
std::string_view strip_marks(std::string_view t) {
  for (;;) {
    if (t.empty()) return t;
    char c = t.back();
    if (c >= '1' && c <= '8') return t;  // a target's rank: no mark (most tokens)
    if (c == '!' || c == '?' || c == '+' || c == '#' || c == ':') {
      t.remove_suffix(1);
    } else if (t.ends_with(kDagger) || t.ends_with(kDoubleDagger)) {
      t.remove_suffix(3);
    } else if (t.ends_with("e.p.")) {
      t.remove_suffix(4);
    } else if (t.size() >= 3 && t.ends_with("ep") && t[t.size() - 3] >= '1' && t[t.size() - 3] <= '8') {
      t.remove_suffix(2);
    } else {
      return t;
    }
  }
}

// A token reduced to what matters: pieces, files and ranks, in order.
struct Symbol {
  enum Kind : uint8_t { Piece, File, Rank } kind;
  uint8_t value;  // PieceType, File or Rank
};

struct Symbols {
  Symbol items[12];
  int size = 0;
  bool push(Symbol s) {
    if (size == 12) return false;
    items[size++] = s;
    return true;
  }
};

PieceType figurine_piece(unsigned char third_byte) {
  // U+2654..U+2659 white K Q R B N P, U+265A..U+265F black K Q R B N P (UTF-8 E2 99 94..9F).
  static constexpr PieceType kOrder[6] = {KING, QUEEN, ROOK, BISHOP, KNIGHT, PAWN};
  if (third_byte < 0x94 || third_byte > 0x9F) return NO_PIECE_TYPE;
  return kOrder[(third_byte - 0x94) % 6];
}

bool to_symbols(std::string_view t, const PieceLetters& letters, Symbols& out) {
  for (size_t i = 0; i < t.size(); ++i) {
    unsigned char c = t[i];
    if (c >= 'a' && c <= 'h') {
      if (!out.push({Symbol::File, uint8_t(c - 'a')})) return false;
    } else if (c >= '1' && c <= '8') {
      if (!out.push({Symbol::Rank, uint8_t(c - '1')})) return false;
    } else if (c == 'x' || c == ':' || c == '-' || c == '=' || c == '/' || c == '(' || c == ')') {
      continue;  // capture marks, long-form dash, promotion marks
    } else if (c >= 'A' && c <= 'Z') {
      PieceType pt = letters.piece_of(char(c));
      if (pt == NO_PIECE_TYPE || !out.push({Symbol::Piece, pt})) return false;
    } else if (c == 'q' || c == 'r' || c == 'n') {  // UCI promotion; 'b' is read as a file first
      PieceType pt = c == 'q' ? QUEEN : c == 'r' ? ROOK : KNIGHT;
      if (!out.push({Symbol::Piece, pt})) return false;
    } else if (c == 0xC3 && t.substr(i, 2) == kTimes) {
      ++i;
    } else if (c == 0xE2 && i + 2 < t.size() && (unsigned char)t[i + 1] == 0x99) {
      PieceType pt = figurine_piece(t[i + 2]);
      if (pt == NO_PIECE_TYPE || !out.push({Symbol::Piece, pt})) return false;
      i += 2;
    } else {
      return false;
    }
  }
  return true;
}

// What a token asks for; -1 means "not given".
struct MoveRequest {
  PieceType piece = NO_PIECE_TYPE;  // NO_PIECE_TYPE: pawn, or the piece on a given from-square
  int from_file = -1, from_rank = -1;
  int to_file = -1, to_rank = -1;   // to_rank -1 only in the short pawn capture "fe"
  PieceType promotion = NO_PIECE_TYPE;
  bool uci_bishop_promotion = false;  // a trailing 'b' after the target ("e7e8b")
};

bool interpret(Symbols& s, Color us, MoveRequest& r) {
  int begin = 0, end = s.size;
  if (end == 0) return false;
  if (s.items[0].kind == Symbol::Piece) r.piece = PieceType(s.items[begin++].value);
  // Promotion: a piece after the target, or UCI's lower-case 'b' (parsed as a file).
  if (end - begin >= 3 && s.items[end - 1].kind == Symbol::Piece) {
    r.promotion = PieceType(s.items[--end].value);
  } else if (end - begin >= 3 && s.items[end - 1].kind == Symbol::File && s.items[end - 1].value == FILE_B &&
             s.items[end - 2].kind == Symbol::Rank) {
    r.promotion = BISHOP;
    r.uci_bishop_promotion = true;
    --end;
  }
  if (end - begin < 2) return false;
  const Symbol last = s.items[end - 1], before = s.items[end - 2];
  if (last.kind == Symbol::Rank && before.kind == Symbol::File) {
    r.to_file = before.value, r.to_rank = last.value;
    end -= 2;
  } else if (last.kind == Symbol::File && before.kind == Symbol::File && end - begin == 2 &&
             r.piece == NO_PIECE_TYPE) {
    r.from_file = before.value, r.to_file = last.value;  // short pawn capture "fe"
    return true;
  } else if (last.kind == Symbol::File && before.kind == Symbol::Rank && r.promotion != NO_PIECE_TYPE &&
             !r.uci_bishop_promotion) {
    // "e7fD": the target rank replaced by the promotion piece.
    r.to_file = last.value, r.to_rank = relative_rank(us, RANK_8);
    end -= 1;
  } else {
    return false;
  }
  // Between piece and target: from file, from rank, and the long form's captured piece.
  if (begin < end && s.items[end - 1].kind == Symbol::Piece) --end;  // captured piece: the board knows it
  if (begin < end && s.items[begin].kind == Symbol::File) r.from_file = s.items[begin++].value;
  if (begin < end && s.items[begin].kind == Symbol::Rank) r.from_rank = s.items[begin++].value;
  return begin == end;
}

// Plain English SAN, the form of nearly every game: a piece letter (NBRQK) or none, the
// file and rank it comes from when given, an 'x', the target square and, for a pawn, a
// promotion piece ("=Q" or "Q"). Fills r as to_symbols and interpret would, without their
// general tokenising (a fifth of the import's SAN reading); false, r untouched, for
// any other form, which goes the general way.
bool read_plain_english(std::string_view t, MoveRequest& r) {
  // An upper-case piece letter but P (a lower-case b is a file).
  auto piece = [](char c) {
    const PieceType pt = c >= 'A' && c <= 'Z' ? piece_type_of_letter(c) : NO_PIECE_TYPE;
    return pt == PAWN ? NO_PIECE_TYPE : pt;
  };
  auto is_file = [](char c) { return c >= 'a' && c <= 'h'; };
  auto is_rank = [](char c) { return c >= '1' && c <= '8'; };
  size_t begin = 0, end = t.size();
  MoveRequest q;
  if (end > 0 && (q.piece = piece(t[0])) != NO_PIECE_TYPE) begin = 1;
  if (q.piece == NO_PIECE_TYPE && end - begin >= 3) {  // a pawn's promotion
    const PieceType promotion = piece(t[end - 1]);
    if (promotion != NO_PIECE_TYPE) {
      q.promotion = promotion;
      end -= t[end - 2] == '=' ? 2 : 1;
    }
  }
  if (end - begin < 2 || !is_file(t[end - 2]) || !is_rank(t[end - 1])) return false;
  q.to_file = t[end - 2] - 'a', q.to_rank = t[end - 1] - '1';
  end -= 2;
  if (begin < end && t[end - 1] == 'x') --end;
  if (begin < end && is_file(t[begin])) q.from_file = t[begin++] - 'a';
  if (begin < end && is_rank(t[begin])) q.from_rank = t[begin++] - '1';
  if (begin != end) return false;
  r = q;
  return true;
}

// Builds the move the piece on `from` makes to `to` if its movement rules allow it;
// Move::null() otherwise. Promotion piece requirements are checked by the caller.
Move pseudo_move(const Board& board, PieceType pt, Square from, Square to, PieceType promotion, bool& promotes) {
  const Color us = board.side_to_move();
  const Bitboard occupied = board.pieces();
  promotes = false;
  if (pt == PAWN) {
    const int push = pawn_push(us);
    bool ok = false;
    MoveKind kind = MoveKind::NORMAL;
    if (pawn_attacks(us, from) & square_bb(to)) {
      if (board.pieces(~us) & square_bb(to)) ok = true;
      else if (to == board.en_passant()) ok = true, kind = MoveKind::EN_PASSANT;
    } else if (!(occupied & square_bb(to))) {
      if (int(to) == int(from) + push) ok = true;
      else if (int(to) == int(from) + 2 * push && relative_rank(us, rank_of(from)) == RANK_2 &&
               !(occupied & square_bb(Square(from + push))))
        ok = true;
    }
    if (!ok) return Move::null();
    if (relative_rank(us, rank_of(to)) == RANK_8) {
      promotes = true;
      return Move::make(from, to, MoveKind::PROMOTION, promotion == NO_PIECE_TYPE ? QUEEN : promotion);
    }
    return Move::make(from, to, kind);
  }
  if (pt == KING) {
    // Castling written as the king's move: onto its own castling rook (UCI_Chess960),
    // or two files along the back rank in standard chess (e1g1).
    if (board.pieces(us, ROOK) & square_bb(to)) {
      for (bool king_side : {true, false})
        if (board.castling_rook(castling_right(us, king_side)) == to) return Move::make(from, to, MoveKind::CASTLING);
      return Move::null();
    }
    if (!board.chess960() && rank_of(from) == rank_of(to) && (from > to ? from - to : to - from) == 2 &&
        relative_rank(us, rank_of(from)) == RANK_1 && file_of(from) == FILE_E) {
      Square rook = board.castling_rook(castling_right(us, file_of(to) == FILE_G));
      if (rook != SQ_NONE) return Move::make(from, rook, MoveKind::CASTLING);
    }
  }
  if (!(piece_attacks(pt, from, occupied) & square_bb(to)) || (board.pieces(us) & square_bb(to)))
    return Move::null();
  return Move::make(from, to);
}

SanError parse_castling(const Board& board, std::string_view t, Move& out) {
  int letters = 0;
  for (char c : t) {
    if (c == 'O' || c == '0' || c == 'o') ++letters;
    else if (c != '-') return SanError::Unparsable;
  }
  if (letters != 2 && letters != 3) return SanError::Unparsable;
  const Color us = board.side_to_move();
  Square rook = board.castling_rook(castling_right(us, letters == 2));
  if (rook == SQ_NONE) return SanError::NoSuchMove;
  Move m = Move::make(board.king_square(us), rook, MoveKind::CASTLING);
  if (!is_legal(board, m)) return SanError::NoSuchMove;
  out = m;
  return SanError::None;
}

bool is_castling_token(std::string_view t) {
  return !t.empty() && (t[0] == 'O' || t[0] == '0' || t[0] == 'o') && t.size() >= 3 && t[1] == '-';
}

}  // namespace

SanError parse_move(const Board& board, std::string_view token, const PieceLetters& letters, Move& out) {
  std::string_view t = strip_marks(token);
  if (t.empty()) return SanError::Empty;
  if (t == "--" || t == "Z0" || t == "0000" || t == "@@@@") {
    if (board.in_check()) return SanError::NullMove;
    out = Move::null();
    return SanError::None;
  }
  const Color us = board.side_to_move();
  MoveRequest r;
  if (&letters != &english() || !read_plain_english(t, r)) {
    if (is_castling_token(t)) return parse_castling(board, t, out);
    Symbols symbols;
    if (!to_symbols(t, letters, symbols) || !interpret(symbols, us, r)) return SanError::Unparsable;
  }
  if (r.promotion == PAWN || r.promotion == KING) return SanError::BadPromotion;

  // Which pieces may be moving.
  Bitboard from_mask = ~Bitboard(0);
  if (r.from_file >= 0) from_mask &= file_bb(File(r.from_file));
  if (r.from_rank >= 0) from_mask &= rank_bb(Rank(r.from_rank));
  PieceType pt = r.piece;
  if (pt == NO_PIECE_TYPE) {
    if (r.from_file >= 0 && r.from_rank >= 0) {  // UCI or long form without a letter
      Piece p = board.piece_on(make_square(File(r.from_file), Rank(r.from_rank)));
      if (p == NO_PIECE || color_of(p) != us) return SanError::NoSuchMove;
      pt = type_of(p);
    } else {
      pt = PAWN;
    }
  }
  Bitboard targets = r.to_rank >= 0 ? square_bb(make_square(File(r.to_file), Rank(r.to_rank)))
                                    : file_bb(File(r.to_file));  // "fe": any rank
  Bitboard candidates = board.pieces(us, pt) & from_mask;
  // With one target square, only pieces that could reach it are tried (pseudo_move would
  // refuse the others one by one): a pawn push or capture seen from the target; a piece's
  // attacks, which are symmetric. The king is left alone (castling onto a rook).
  const bool reach_known = r.to_rank >= 0 && pt != PAWN && pt != KING;  // candidates attack the target
  if (r.to_rank >= 0) {
    const Square to = make_square(File(r.to_file), Rank(r.to_rank));
    if (pt == PAWN) {
      const int back = -pawn_push(us);
      Bitboard reach = pawn_attacks(~us, to);
      if (int(to) + back >= 0 && int(to) + back < 64) reach |= square_bb(Square(int(to) + back));
      if (int(to) + 2 * back >= 0 && int(to) + 2 * back < 64) reach |= square_bb(Square(int(to) + 2 * back));
      candidates &= reach;
    } else if (pt != KING) {
      candidates &= piece_attacks(pt, to, board.pieces());
    }
  }

  Move found = Move::null();
  int matches = 0;
  bool promotion_missing = false, promotion_misplaced = false;
  while (candidates) {
    const Square from = pop_lsb(candidates);
    Bitboard tos = targets;
    while (tos) {
      const Square to = pop_lsb(tos);
      if (to == from) continue;
      bool promotes = false;
      Move m = !reach_known ? pseudo_move(board, pt, from, to, r.promotion, promotes)
               : board.pieces(us) & square_bb(to) ? Move::null()
                                                  : Move::make(from, to);
      if (m.is_null()) continue;
      if (r.to_rank < 0 && file_of(from) == file_of(to)) continue;  // "fe" is a capture
      if (promotes && r.promotion == NO_PIECE_TYPE) {
        if (is_legal(board, m)) promotion_missing = true;
        continue;
      }
      if (!promotes && r.promotion != NO_PIECE_TYPE) {
        if (r.uci_bishop_promotion) continue;
        if (is_legal(board, m)) promotion_misplaced = true;
        continue;
      }
      if (!is_legal(board, m)) continue;
      found = m;
      ++matches;
    }
  }
  if (matches == 1) {
    out = found;
    return SanError::None;
  }
  if (matches > 1) return SanError::Ambiguous;
  if (promotion_missing) return SanError::MissingPromotion;
  if (promotion_misplaced) return SanError::BadPromotion;
  return SanError::NoSuchMove;
}

// ---- writing -------------------------------------------------------------------

namespace {

constexpr std::string_view kFigurines[PIECE_TYPE_NB] = {"", "\xE2\x99\x99", "\xE2\x99\x98", "\xE2\x99\x97",
                                                        "\xE2\x99\x96", "\xE2\x99\x95", "\xE2\x99\x94"};

void append_square(Square s, std::string& out) {
  out += char('a' + file_of(s));
  out += char('1' + rank_of(s));
}

void append_piece(PieceType pt, MoveStyle style, const PieceLetters& letters, std::string& out) {
  if (style == MoveStyle::Figurine) out += kFigurines[pt];
  else if (char c = letters.letter_of(pt)) out += c;
}

void append_check_mark(const Board& board, Move m, std::string& out) {
  Board after = board;
  UndoInfo undo;
  after.do_move(m, undo);
  if (!after.in_check()) return;
  MoveList replies;
  generate_legal_moves(after, replies);
  out += replies.empty() ? '#' : '+';
}

// Other pieces of the same kind that could legally go to the same square (FIDE E10).
void append_disambiguation(const Board& board, Move m, PieceType pt, std::string& out) {
  const Color us = board.side_to_move();
  const Square from = m.from(), to = m.to();
  Bitboard rivals = board.pieces(us, pt) & piece_attacks(pt, to, board.pieces()) & ~square_bb(from);
  bool any = false, same_file = false, same_rank = false;
  while (rivals) {
    Square s = pop_lsb(rivals);
    if (!is_legal(board, Move::make(s, to))) continue;
    any = true;
    same_file |= file_of(s) == file_of(from);
    same_rank |= rank_of(s) == rank_of(from);
  }
  if (!any) return;
  if (!same_file) out += char('a' + file_of(from));
  else if (!same_rank) out += char('1' + rank_of(from));
  else append_square(from, out);
}

}  // namespace

void append_move(const Board& board, Move m, MoveStyle style, const PieceLetters& letters, std::string& out) {
  if (m.is_null()) {
    out += style == MoveStyle::Uci ? "0000" : "--";
    return;
  }
  const Square from = m.from(), to = m.to();
  const PieceType pt = type_of(board.piece_on(from));
  if (style == MoveStyle::Uci) {
    append_square(from, out);
    if (m.kind() == MoveKind::CASTLING && !board.chess960())
      append_square(Board::castling_king_to(board.side_to_move(), to > from), out);
    else
      append_square(to, out);
    if (m.kind() == MoveKind::PROMOTION) out += "nbrq"[m.promotion() - KNIGHT];
    return;
  }
  if (m.kind() == MoveKind::CASTLING) {
    out += to > from ? "O-O" : "O-O-O";
  } else {
    const bool capture = m.kind() == MoveKind::EN_PASSANT || (board.pieces() & square_bb(to));
    if (style == MoveStyle::Long) {
      append_piece(pt, style, letters, out);  // pawns get a letter only where the language has one
      append_square(from, out);
      out += capture ? 'x' : '-';
    } else if (pt == PAWN) {
      if (capture) out += char('a' + file_of(from)), out += 'x';
    } else {
      append_piece(pt, style, letters, out);
      if (pt != KING) append_disambiguation(board, m, pt, out);
      if (capture) out += 'x';
    }
    append_square(to, out);
    if (m.kind() == MoveKind::PROMOTION) {
      out += '=';
      append_piece(m.promotion(), style, letters, out);
    }
  }
  append_check_mark(board, m, out);
}

}  // namespace pgnbase
