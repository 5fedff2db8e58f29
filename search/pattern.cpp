#include "search/pattern.h"

#include <cctype>
#include <charconv>

namespace pgnbase::search {

namespace {

std::string quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

bool parse_square(std::string_view text, Square& out) {
  if (text.size() != 2 || text[0] < 'a' || text[0] > 'h' || text[1] < '1' || text[1] > '8') return false;
  out = make_square(File(text[0] - 'a'), Rank(text[1] - '1'));
  return true;
}

// One side of a material spec: "KR2P", "KR*P", or without its king ("RP", pgn-extract's
// form; empty: the bare king). A count applies to the next letter. offset: where side
// starts in whole, for the error's character number.
bool parse_material_side(std::string_view side, std::string_view whole, size_t offset,
                         std::array<MaterialSpec::Range, 6>& out, std::string& error) {
  int kings = 0, men = 0;
  size_t i = 0;
  while (i < side.size()) {
    bool any = false;
    int count = 1;
    if (side[i] == '*') {
      any = true;
      ++i;
    } else if (std::isdigit(static_cast<unsigned char>(side[i]))) {
      count = 0;
      while (i < side.size() && std::isdigit(static_cast<unsigned char>(side[i])) && count < 100)
        count = count * 10 + (side[i++] - '0');
      if (count > 15) {
        error = quoted(whole) + " has a count above 15";
        return false;
      }
    }
    if (i == side.size()) {
      error = quoted(whole) + " ends in a count with no piece";
      return false;
    }
    const PieceType pt = piece_type_of_letter(side[i]);
    if (pt == NO_PIECE_TYPE) {
      error = quoted(whole) + " has no piece " + std::string(1, side[i]) + " (character " +
              std::to_string(offset + i + 1) + "; pieces are K Q R B N P, counts 2P or *P)";
      return false;
    }
    ++i;
    if (pt == KING) {
      ++kings;
      continue;
    }
    MaterialSpec::Range& r = out[pt];
    // A side has at most 16 men, 8 of them pawns: checked as the counts add up, so that a
    // long spec cannot wrap a count around to "any number".
    men += any ? 0 : count;
    if (men > 15 || (pt == PAWN && r.min + (any ? 0 : count) > 8)) {
      error = quoted(whole) + (pt == PAWN && men <= 15 ? " has more than 8 pawns on one side"
                                                        : " has more than 16 men on one side");
      return false;
    }
    if (any) r = {r.min, 255};
    else r = {uint8_t(r.min + count), r.max == 255 ? uint8_t(255) : uint8_t(r.max + count)};
  }
  if (kings > 1) {
    error = quoted(whole) + ": a side has more than one K";
    return false;
  }
  return true;
}

// Counts of QRBNP on one side of an imbalance ("RR" -> two rooks).
bool count_letters(std::string_view side, std::string_view whole, std::array<int, 6>& counts, bool& pawns,
                   std::string& error) {
  for (char c : side) {
    const PieceType pt = piece_type_of_letter(c);
    if (pt == NO_PIECE_TYPE || pt == KING) {
      error = quoted(whole) + " has no piece " + std::string(1, c) + (pt == KING ? " (kings never differ)" : "");
      return false;
    }
    ++counts[pt];
    pawns |= pt == PAWN;
  }
  return true;
}

// Parses the 8 ranks of a FEN-like board, calling on_square(square, char) for each
// square that is not a digit's empty run; '.' and digits are empty squares.
template <typename F>
bool parse_board(std::string_view text, std::string_view whole, F&& on_square, std::string& error) {
  int rank = 7, file = 0;
  bool bad = false;
  for (char c : text) {
    if (c == '/') {
      if (file != 8 || rank == 0) {
        bad = true;
        break;
      }
      --rank;
      file = 0;
      continue;
    }
    const int run = c >= '1' && c <= '8' ? c - '0' : 1;
    if (file + run > 8) {
      bad = true;
      break;
    }
    if (run > 1 || c == '1') {
      for (int k = 0; k < run; ++k) on_square(make_square(File(file++), Rank(rank)), '.');
      continue;
    }
    if (!on_square(make_square(File(file), Rank(rank)), c)) {
      error = quoted(whole) + " has no piece " + std::string(1, c);
      return false;
    }
    ++file;
  }
  if (bad || rank != 0 || file != 8) {
    error = quoted(whole) + ": expected 8 ranks of 8 squares separated by '/'";
    return false;
  }
  return true;
}

}  // namespace

Parsed<MaterialSpec> parse_material(std::string_view text) {
  MaterialSpec out;
  std::string error;
  // The sides are split by 'v' (either case), a blank or '-', or a run of them ("KRP v KR").
  constexpr std::string_view kSeparators = "vV -";
  const size_t first = text.find_first_of(kSeparators);
  const size_t after = first == std::string_view::npos ? first : text.find_first_not_of(kSeparators, first);
  if (first == std::string_view::npos || after == std::string_view::npos ||
      text.find_first_of(kSeparators, after) != std::string_view::npos) {
    std::array<MaterialSpec::Range, 6> ignored{};
    if (first == std::string_view::npos && !parse_material_side(text, text, 0, ignored, error) &&
        error.find(" has no piece ") != std::string::npos)
      return ParseError{error};  // name a bad letter first: 'KRX' has no piece X
    return ParseError{quoted(text) + ": expected WHITEvBLACK, e.g. KRPvKR, KRP KR, KRP-KR or RPvR"};
  }
  if (!parse_material_side(text.substr(0, first), text, 0, out.range[WHITE], error) ||
      !parse_material_side(text.substr(after), text, after, out.range[BLACK], error))
    return ParseError{error};
  return out;
}

Parsed<ImbalanceSpec> parse_imbalance(std::string_view text) {
  ImbalanceSpec out;
  std::string lower;
  for (char c : text) lower += char(std::tolower(static_cast<unsigned char>(c)));
  if (lower.starts_with("pawn") && text.size() > 5 && (text[4] == '+' || text[4] == '-')) {
    int n = 0;
    const auto [end, ec] = std::from_chars(text.data() + 5, text.data() + text.size(), n);
    if (ec != std::errc() || end != text.data() + text.size() || n > 8)
      return ParseError{quoted(text) + ": expected Pawn+N or Pawn-N with N from 0 to 8"};
    out.difference[PAWN] = text[4] == '+' ? n : -n;
    out.pawns_free = false;
    return out;
  }
  const size_t v = text.find_first_of("vV");
  if (v == std::string_view::npos || text.find_first_of("vV", v + 1) != std::string_view::npos)
    return ParseError{quoted(text) + ": expected WHITEvBLACK (QvRR, BvN, vPP) or Pawn+N"};
  std::array<int, 6> white{}, black{};
  bool pawns = false;
  std::string error;
  if (!count_letters(text.substr(0, v), text, white, pawns, error) ||
      !count_letters(text.substr(v + 1), text, black, pawns, error))
    return ParseError{error};
  for (int pt = PAWN; pt <= QUEEN; ++pt) out.difference[pt] = white[pt] - black[pt];
  out.pawns_free = !pawns;
  return out;
}

Parsed<PlacementSpec> parse_pieces(std::string_view text) {
  PlacementSpec out;
  std::string error;
  if (text.find('/') != std::string_view::npos) {
    if (!parse_board(
        text, text,
        [&](Square s, char c) {
          if (c == '?') return true;
          if (c == '.') {
            out.empty |= square_bb(s);
            return true;
          }
          const PieceType pt = piece_type_of_letter(c);
          if (pt == NO_PIECE_TYPE) return false;
          out.required[std::isupper(static_cast<unsigned char>(c)) ? WHITE : BLACK][pt] |= square_bb(s);
          return true;
        },
        error))
      return ParseError{error};
    return out;
  }
  size_t pos = 0;
  bool any = false;
  while (pos < text.size()) {
    const size_t end = std::min(text.find_first_of(" ,", pos), text.size());
    const std::string_view token = text.substr(pos, end - pos);
    pos = end + 1;
    if (token.empty()) continue;
    any = true;
    Square s;
    if (token[0] == '-') {
      if (!parse_square(token.substr(1), s)) return ParseError{quoted(token) + ": expected -SQUARE, e.g. -e4 (e4 empty)"};
      out.empty |= square_bb(s);
      continue;
    }
    // wKg1 / bKg8, or Kg1 / kg8 with the colour in the letter's case.
    const bool prefixed = token.size() == 4 && (token[0] == 'w' || token[0] == 'b');
    const std::string_view piece = prefixed ? token.substr(1) : token;
    if (piece.size() != 3 || !parse_square(piece.substr(1), s))
      return ParseError{quoted(token) + ": expected a piece on a square, e.g. wKg1, bPh7, Kg1, kg8 or -e4"};
    const PieceType pt = piece_type_of_letter(piece[0]);
    if (pt == NO_PIECE_TYPE) return ParseError{quoted(token) + " has no piece " + std::string(1, piece[0])};
    const Color c = prefixed ? (token[0] == 'w' ? WHITE : BLACK)
                             : (std::isupper(static_cast<unsigned char>(piece[0])) ? WHITE : BLACK);
    out.required[c][pt] |= square_bb(s);
  }
  if (!any) return ParseError{"empty piece list"};
  Bitboard seen = out.empty;
  for (const auto& side : out.required)
    for (Bitboard b : side) {
      if (seen & b) return ParseError{quoted(text) + " asks for two things on one square"};
      seen |= b;
    }
  return out;
}

Parsed<PawnSpec> parse_pawns(std::string_view text) {
  PawnSpec out;
  std::string error;
  const std::string_view whole = text;
  if (text.starts_with("w:") || text.starts_with("b:")) {
    out.checked = {text[0] == 'w', text[0] == 'b'};
    text.remove_prefix(2);
  }
  const bool ok = parse_board(
      text, whole,
      [&](Square s, char c) {
        if (c == '.') return true;
        if (c != 'P' && c != 'p') return false;
        const Color colour = c == 'P' ? WHITE : BLACK;
        if (!out.checked[colour]) return false;
        out.pawns[colour] |= square_bb(s);
        return true;
      },
      error);
  if (!ok) return ParseError{error};
  if ((out.pawns[WHITE] | out.pawns[BLACK]) & (rank_bb(RANK_1) | rank_bb(RANK_8)))
    return ParseError{quoted(whole) + " has a pawn on the first or eighth rank"};
  return out;
}

Parsed<PlyRange> parse_ply_range(std::string_view text) {
  uint32_t from = 0, to = UINT32_MAX;
  auto number = [&](std::string_view s, uint32_t& n) {
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
    return !s.empty() && ec == std::errc() && end == s.data() + s.size();
  };
  const size_t dash = text.find('-');
  bool ok;
  if (dash == std::string_view::npos) {
    ok = number(text, from);
    to = from;
  } else {
    const std::string_view low = text.substr(0, dash), high = text.substr(dash + 1);
    ok = (low.empty() || number(low, from)) && (high.empty() || number(high, to)) && !(low.empty() && high.empty());
  }
  if (!ok || from > to) return ParseError{quoted(text) + ": expected FROM-TO plies, e.g. 20-60, 20- or -60"};
  return PlyRange{from, to};
}

Parsed<Color> parse_side(std::string_view text) {
  if (text == "w" || text == "white") return WHITE;
  if (text == "b" || text == "black") return BLACK;
  return ParseError{quoted(text) + ": expected w or b"};
}

Parsed<std::optional<Pattern>> build_pattern(const PatternText& t) {
  Pattern p;
  // Sets `to` from the option's text, or says which option was bad.
  auto read = [](const char* option, auto parsed, auto& to) -> std::optional<ParseError> {
    if (!parsed) return ParseError{std::string(option) + ": " + parsed.error()};
    to = std::move(parsed).value();
    return std::nullopt;
  };
  std::optional<ParseError> bad;
  if (!t.material.empty()) bad = read("--material", parse_material(t.material), p.material);
  if (!bad && !t.imbalance.empty()) bad = read("--imbalance", parse_imbalance(t.imbalance), p.imbalance);
  if (!bad && !t.pieces.empty()) bad = read("--pieces", parse_pieces(t.pieces), p.pieces);
  if (!bad && !t.pawns.empty()) bad = read("--pawns", parse_pawns(t.pawns), p.pawns);
  if (!bad && !t.side_to_move.empty()) bad = read("--side-to-move", parse_side(t.side_to_move), p.side_to_move);
  PlyRange plies;
  if (!bad && !t.ply_range.empty()) bad = read("--ply-range", parse_ply_range(t.ply_range), plies);
  if (bad) return std::move(*bad);
  p.ply_from = plies.from;
  p.ply_to = plies.to;
  if (t.streak) {
    if (*t.streak < 1 || *t.streak > 10000) return ParseError{"--for: expected a number of plies from 1 to 10000"};
    p.streak = uint32_t(*t.streak);
  }
  p.either_colour = t.either_colour;
  p.last = t.last;
  const bool any = p.material || p.imbalance || p.pieces || p.pawns;
  const bool qualified = !t.side_to_move.empty() || !t.ply_range.empty() || t.streak || t.either_colour || t.last;
  if (!any) {
    if (qualified)
      return ParseError{"--side-to-move, --ply-range, --for, --last and --material-either-colour qualify a pattern: "
                        "add --material, --imbalance, --pieces or --pawns"};
    return std::optional<Pattern>();
  }
  return std::optional<Pattern>(p);
}

}  // namespace pgnbase::search
