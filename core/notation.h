// Piece letters of the languages a PGN file may be written in (FIDE Laws, appendix E3),
// and the rule that picks a game's language from its move tokens.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "core/types.h"

namespace pgnbase {

struct PieceLetters {
  std::string_view code;  // "en", "de", ...: stored with each game, accepted by --piece-letters
  std::string_view name;
  // Indexed by PieceType; letters[PAWN] is the pawn letter of the long form ('B' in
  // German) or 0 when the language writes pawn moves without a letter.
  char letters[PIECE_TYPE_NB];

  // The piece type a letter stands for: one of the language's own letters, or an English
  // letter that none of its own letters clashes with (a printed "Q" in a German text
  // still means the queen); NO_PIECE_TYPE otherwise.
  PieceType piece_of(char letter) const;
  char letter_of(PieceType pt) const { return letters[pt]; }
};

const PieceLetters& english();
// nullptr when the code names no known language.
const PieceLetters* find_piece_letters(std::string_view code);
// Every language, English first; the order is the order in which detection tries them.
std::span<const PieceLetters> all_piece_letters();

// Detection rule: a language is a candidate for a game when every upper-case letter that
// begins a move token (or follows a long-form square) is one of its piece letters. The
// candidates come out in all_piece_letters() order; the replayer tries them in turn and
// the first language in which every move is legal wins. So an English game stays
// English, and a German game whose first moves happen to be legal in English is still
// read as German, because English fails at its first knight move ("Sf3").
void candidate_languages(std::span<const std::string_view> tokens, std::vector<const PieceLetters*>& out);

}  // namespace pgnbase
