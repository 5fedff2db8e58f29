#include "core/notation.h"

#include <array>

namespace pgnbase {

namespace {

// Indexed by PieceType: none, pawn (long form only), knight, bishop, rook, queen, king.
// Adding a language is one line; detection tries them in this order.
constexpr std::array<PieceLetters, 10> kLanguages = {{
    {"en", "English", {0, 0, 'N', 'B', 'R', 'Q', 'K'}},
    {"de", "German", {0, 'B', 'S', 'L', 'T', 'D', 'K'}},
    {"nl", "Dutch", {0, 0, 'P', 'L', 'T', 'D', 'K'}},
    {"fr", "French", {0, 0, 'C', 'F', 'T', 'D', 'R'}},
    {"it", "Italian", {0, 0, 'C', 'A', 'T', 'D', 'R'}},
    {"es", "Spanish", {0, 0, 'C', 'A', 'T', 'D', 'R'}},  // same letters as Italian: detected as "it"
    {"pt", "Portuguese", {0, 0, 'C', 'B', 'T', 'D', 'R'}},
    {"cs", "Czech", {0, 0, 'J', 'S', 'V', 'D', 'K'}},
    {"pl", "Polish", {0, 0, 'S', 'G', 'W', 'H', 'K'}},
    {"hu", "Hungarian", {0, 0, 'H', 'F', 'B', 'V', 'K'}},
}};

PieceType own_piece(const PieceLetters& language, char letter) {
  for (int pt = PAWN; pt <= KING; ++pt)
    if (language.letters[pt] == letter) return PieceType(pt);
  return NO_PIECE_TYPE;
}

// Where a move token's piece letters are: its first character, and in the long form the
// letter that names a captured piece just before the target square (Dutch "Pa3xLb5").
template <typename Visit>
void for_each_piece_letter(std::string_view token, Visit visit) {
  if (token.empty()) return;
  if (token[0] >= 'A' && token[0] <= 'Z' && token[0] != 'O') visit(token[0]);
  for (size_t i = 1; i + 2 < token.size(); ++i) {
    char c = token[i];
    if (c >= 'A' && c <= 'Z' && token[i + 1] >= 'a' && token[i + 1] <= 'h' && token[i + 2] >= '1' &&
        token[i + 2] <= '8' && token[i - 1] != '=' && token[i - 1] != '(' && token[i - 1] != '/')
      visit(c);
  }
}

}  // namespace

PieceType PieceLetters::piece_of(char letter) const {
  PieceType own = own_piece(*this, letter);
  if (own != NO_PIECE_TYPE) return own;
  PieceType in_english = own_piece(kLanguages[0], letter);
  return in_english;  // no clash: own_piece found nothing for this letter
}

const PieceLetters& english() { return kLanguages[0]; }

const PieceLetters* find_piece_letters(std::string_view code) {
  for (const PieceLetters& language : kLanguages)
    if (language.code == code) return &language;
  return nullptr;
}

std::span<const PieceLetters> all_piece_letters() { return kLanguages; }

void candidate_languages(std::span<const std::string_view> tokens, std::vector<const PieceLetters*>& out) {
  out.clear();
  uint32_t used = 0;  // bit per upper-case letter seen in a piece position
  for (std::string_view token : tokens)
    for_each_piece_letter(token, [&](char c) { used |= 1u << (c - 'A'); });
  for (const PieceLetters& language : kLanguages) {
    uint32_t accepted = 0;
    for (char c = 'A'; c <= 'Z'; ++c)
      if (language.piece_of(c) != NO_PIECE_TYPE) accepted |= 1u << (c - 'A');
    if ((used & ~accepted) == 0) out.push_back(&language);
  }
}

}  // namespace pgnbase
