// Assessment symbols that hand-annotated and ChessBase-exported files write as text after
// a move ("+=", "±", "N", "∞" ...), and the NAG each stands for: the PGN standard's table
// ($8, $10-$19, $44) and ChessBase's extension ($140 with the idea, $142 better is,
// $145 editorial comment, $146 novelty).
//
//   text                      NAG   meaning
//   =                         $10   drawish / equal
//   inf  ∞                    $13   unclear
//   +=  +/=  ⩲                $14   White is slightly better
//   =+  =/+  ⩱                $15   Black is slightly better
//   +/-  ±                    $16   White is better
//   -/+  ∓                    $17   Black is better
//   +-  +−                    $18   White is winning
//   -+  −+                    $19   Black is winning
//   =/inf  =/∞                $44   compensation for the material
//   □                         $8    only move
//   Δ  ∆                      $140  with the idea
//   ⌓                         $142  better is
//   RR                        $145  editorial comment
//   N                         $146  novelty
//
// Symbols are UTF-8 ("−" is U+2212, "∆" U+2206 as ChessBase fonts write Δ); "±" is also
// read as the Latin-1 byte 0xB1.
#pragma once

#include <cstddef>
#include <string_view>

namespace pgnbase {

// The NAG of a token that is an assessment symbol and nothing else, or 0.
int assessment_nag(std::string_view token);

// Length of an assessment glued to the end of a move token ("Nd5±", "Qh5+-"), or 0; nag
// gets its NAG. The longest symbol wins ("Nf3+=" is Nf3 with $14, not a check and $10),
// and what is left must end like a move (a square, a piece letter, a castling O, a check
// mark). Letter symbols (N, RR, inf) are never split off: "e8N" is a promotion.
size_t glued_assessment_length(std::string_view token, int& nag);

// A cheap first test for glued_assessment_length, so that most move tokens ("e4", "Nf3",
// "Qh5+") skip the table: whether the token ends with a byte some symbol ends with.
inline bool may_end_with_assessment(std::string_view token) {
  if (token.size() < 2) return false;
  const char last = token.back(), before = token[token.size() - 2];
  if (last == '+') return before == '=' || before == '/' || before == '-' || before == '\x92';
  return last == '=' || last == '-' || static_cast<unsigned char>(last) >= 0x80;
}

}  // namespace pgnbase
