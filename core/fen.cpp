#include "core/fen.h"

#include <charconv>
#include <optional>
#include <vector>

namespace pgnbase {

const char* field_name(FenField field) {
  switch (field) {
    case FenField::Placement: return "piece placement";
    case FenField::SideToMove: return "side to move";
    case FenField::Castling: return "castling";
    case FenField::EnPassant: return "en passant";
    case FenField::HalfmoveClock: return "halfmove clock";
    case FenField::FullmoveNumber: return "fullmove number";
    case FenField::Position: return "position";
  }
  return "?";
}

namespace {

struct FenError {
  FenField field;
  std::string message;
};

// Keeps a message on one line whatever bytes the FEN held: control bytes become '?'.
std::string one_line(std::string message) {
  for (char& c : message)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) c = '?';
  return message;
}

FenError error(FenField field, std::string_view value, const std::string& why) {
  return {field, one_line(std::string(field_name(field)) + " field '" + std::string(value) + "': " + why)};
}

std::vector<std::string_view> split_fields(std::string_view fen) {
  std::vector<std::string_view> fields;
  size_t i = 0;
  while (i < fen.size()) {
    while (i < fen.size() && (fen[i] == ' ' || fen[i] == '\t')) ++i;
    size_t start = i;
    while (i < fen.size() && fen[i] != ' ' && fen[i] != '\t') ++i;
    if (i > start) fields.push_back(fen.substr(start, i - start));
  }
  return fields;
}

Piece piece_from_letter(char c) {
  switch (c) {
    case 'P': return W_PAWN; case 'N': return W_KNIGHT; case 'B': return W_BISHOP;
    case 'R': return W_ROOK; case 'Q': return W_QUEEN; case 'K': return W_KING;
    case 'p': return B_PAWN; case 'n': return B_KNIGHT; case 'b': return B_BISHOP;
    case 'r': return B_ROOK; case 'q': return B_QUEEN; case 'k': return B_KING;
    default: return NO_PIECE;
  }
}

std::optional<FenError> parse_placement(std::string_view field, Board& board) {
  int rank = 7, file = 0;
  for (char c : field) {
    if (c == '/') {
      if (file != 8) return error(FenField::Placement, field, "rank " + std::to_string(rank + 1) + " does not sum to 8 squares");
      if (--rank < 0) return error(FenField::Placement, field, "more than 8 ranks");
      file = 0;
    } else if (c >= '1' && c <= '8') {
      file += c - '0';
      if (file > 8) return error(FenField::Placement, field, "rank " + std::to_string(rank + 1) + " has more than 8 squares");
    } else {
      Piece p = piece_from_letter(c);
      if (p == NO_PIECE) return error(FenField::Placement, field, std::string("bad piece letter '") + c + "'");
      if (file > 7) return error(FenField::Placement, field, "rank " + std::to_string(rank + 1) + " has more than 8 squares");
      board.put_piece(p, make_square(File(file), Rank(rank)));
      ++file;
    }
  }
  if (rank != 0) return error(FenField::Placement, field, "fewer than 8 ranks");
  if (file != 8) return error(FenField::Placement, field, "rank 1 does not sum to 8 squares");
  for (Color c : {WHITE, BLACK}) {
    int kings = popcount(board.pieces(c, KING));
    if (kings != 1)
      return error(FenField::Placement, field, std::string(c == WHITE ? "white" : "black") +
                                                   (kings ? " has more than one king" : " king missing"));
  }
  if (board.pieces(PAWN) & (rank_bb(RANK_1) | rank_bb(RANK_8)))
    return error(FenField::Placement, field, "pawns on the first or eighth rank");
  return std::nullopt;
}

// Finds the rook a castling letter means; SQ_NONE when there is none.
Square castling_rook_for(const Board& board, Color c, char letter) {
  const Square ksq = board.king_square(c);
  if (rank_of(ksq) != relative_rank(c, RANK_1)) return SQ_NONE;
  const Bitboard rooks = board.pieces(c, ROOK) & rank_bb(relative_rank(c, RANK_1));
  char upper = char(letter & ~0x20);
  if (upper == 'K' || upper == 'Q') {
    Bitboard side = 0;
    for (int f = 0; f < 8; ++f) {
      Square s = make_square(File(f), rank_of(ksq));
      if (upper == 'K' ? s > ksq : s < ksq) side |= square_bb(s);
    }
    Bitboard candidates = rooks & side;
    if (!candidates) return SQ_NONE;
    return upper == 'K' ? msb(candidates) : lsb(candidates);  // the outermost rook
  }
  Square s = make_square(File(upper - 'A'), rank_of(ksq));
  return (rooks & square_bb(s)) ? s : SQ_NONE;
}

std::optional<FenError> parse_castling(std::string_view field, Board& board, bool& chess960) {
  if (field == "-") return std::nullopt;
  int seen = 0;
  for (char letter : field) {
    Color c = (letter >= 'a' && letter <= 'z') ? BLACK : WHITE;
    char upper = char(letter & ~0x20);
    bool valid = upper == 'K' || upper == 'Q' || (upper >= 'A' && upper <= 'H');
    if (!valid) return error(FenField::Castling, field, std::string("unknown letter '") + letter + "'");
    Square rook = castling_rook_for(board, c, letter);
    if (rook == SQ_NONE)
      return error(FenField::Castling, field, std::string("no ") + (c == WHITE ? "white" : "black") +
                                                  " king and rook on the back rank for '" + letter + "'");
    CastlingRight cr = castling_right(c, rook > board.king_square(c));
    if (seen & cr) return error(FenField::Castling, field, std::string("castling right given twice by '") + letter + "'");
    seen |= cr;
    const bool standard_squares = file_of(board.king_square(c)) == FILE_E &&
                                  (file_of(rook) == FILE_A || file_of(rook) == FILE_H);
    if (!standard_squares || (upper != 'K' && upper != 'Q')) chess960 = true;
    board.add_castling_right(c, rook);
  }
  return std::nullopt;
}

std::optional<FenError> parse_en_passant(std::string_view field, Board& board) {
  if (field == "-") return std::nullopt;
  if (field.size() != 2 || field[0] < 'a' || field[0] > 'h' || field[1] < '1' || field[1] > '8')
    return error(FenField::EnPassant, field, "not a square");
  const Color us = board.side_to_move();
  Square ep = make_square(File(field[0] - 'a'), Rank(field[1] - '1'));
  if (rank_of(ep) != relative_rank(us, RANK_6))
    return error(FenField::EnPassant, field, std::string("must be on rank ") + (us == WHITE ? "6" : "3") +
                                                 " when " + (us == WHITE ? "white" : "black") + " is to move");
  Square pushed = Square(ep - pawn_push(us));
  Square origin = Square(ep + pawn_push(us));
  if (board.piece_on(pushed) != make_piece(~us, PAWN) || board.piece_on(ep) != NO_PIECE ||
      board.piece_on(origin) != NO_PIECE)
    return error(FenField::EnPassant, field, "no pawn can just have moved two squares past it");
  board.set_en_passant(ep);
  return std::nullopt;
}

// A move counter: digits only, at most max. Returns the reason it is not one.
std::optional<std::string> parse_counter(std::string_view s, int64_t max, int64_t& value) {
  const bool digits = !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
  if (!digits) return "not a non-negative number";
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || end != s.data() + s.size() || value > max) return "larger than " + std::to_string(max);
  return std::nullopt;
}

std::optional<FenError> set_position(std::string_view fen, Board& board, bool chess960) {
  auto fields = split_fields(fen);
  if (fields.size() < 4 || fields.size() > 6)
    return FenError{FenField::Position, one_line("FEN '" + std::string(fen) + "' has " + std::to_string(fields.size()) +
                                                     " fields; expected 4 to 6")};
  board.clear();
  if (auto e = parse_placement(fields[0], board)) return e;
  if (fields[1] != "w" && fields[1] != "b") return error(FenField::SideToMove, fields[1], "must be 'w' or 'b'");
  board.set_side_to_move(fields[1] == "w" ? WHITE : BLACK);
  if (auto e = parse_castling(fields[2], board, chess960)) return e;
  if (auto e = parse_en_passant(fields[3], board)) return e;
  int64_t halfmove = 0, fullmove = 1;
  if (fields.size() > 4)
    if (auto why = parse_counter(fields[4], kMaxHalfmoveClock, halfmove))
      return error(FenField::HalfmoveClock, fields[4], *why);
  if (fields.size() > 5)
    if (auto why = parse_counter(fields[5], kMaxFullmoveNumber, fullmove))
      return error(FenField::FullmoveNumber, fields[5], *why);
  board.set_counters(int(halfmove), fullmove);
  board.set_chess960(chess960);
  board.finish_setup();
  const Color them = ~board.side_to_move();
  if (board.attacked_by(board.side_to_move(), board.king_square(them), board.pieces()))
    return FenError{FenField::Position, "position: the side not to move (" + std::string(them == WHITE ? "white" : "black") +
                                            ") is in check"};
  return std::nullopt;
}

}  // namespace

Parsed<Board> parse_fen(std::string_view fen, bool chess960) {
  Board board;
  if (auto e = set_position(fen, board, chess960)) return ParseError{std::move(e->message)};
  return board;
}

std::string write_fen(const Board& board, CastlingStyle style) {
  static constexpr char kLetters[] = " PNBRQK  pnbrqk ";
  std::string fen;
  for (int r = 7; r >= 0; --r) {
    int empty = 0;
    for (int f = 0; f < 8; ++f) {
      Piece p = board.piece_on(make_square(File(f), Rank(r)));
      if (p == NO_PIECE) { ++empty; continue; }
      if (empty) fen += char('0' + empty), empty = 0;
      fen += kLetters[p];
    }
    if (empty) fen += char('0' + empty);
    if (r) fen += '/';
  }
  fen += board.side_to_move() == WHITE ? " w " : " b ";
  const int rights = board.castling_rights();
  if (!rights) fen += '-';
  for (Color c : {WHITE, BLACK}) {
    for (bool king_side : {true, false}) {
      CastlingRight cr = castling_right(c, king_side);
      if (!(rights & cr)) continue;
      Square rook = board.castling_rook(cr);
      char letter = king_side ? 'K' : 'Q';
      bool use_file = style == CastlingStyle::Shredder;
      if (style != CastlingStyle::Shredder) {
        // X-FEN: the side letter unless another rook stands further out on that side.
        Bitboard beyond = 0;
        for (int f = 0; f < 8; ++f) {
          Square s = make_square(File(f), rank_of(rook));
          if (king_side ? s > rook : s < rook) beyond |= square_bb(s);
        }
        use_file = board.pieces(c, ROOK) & beyond;
      }
      if (use_file) letter = char('A' + file_of(rook));
      fen += c == WHITE ? letter : char(letter | 0x20);
    }
  }
  fen += ' ';
  if (board.en_passant() == SQ_NONE) fen += '-';
  else fen += {char('a' + file_of(board.en_passant())), char('1' + rank_of(board.en_passant()))};
  fen += ' ' + std::to_string(board.halfmove_clock()) + ' ' + std::to_string(board.fullmove_number());
  return fen;
}

}  // namespace pgnbase
