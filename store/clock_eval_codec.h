// The clocks and evaluations the import takes out of a game's comments, stored as
// numbers in a section of the annotations payload (store/annotations.h), and put back
// into the text on reading, byte for byte.
//
// A main-line ply's commands are taken out ("lifted") only in the one layout lichess and
// most broadcasts write, and only when writing the numbers back gives exactly the text:
// the ply's first comment (after its NAGs, if any) begins with "[%clk C]", "[%eval E]",
// or both in either order, one space apart; the comment either ends there (it then goes,
// with the space that separated it) or goes on after one more space (its rest stays,
// as "{rest}"). Any other form stays in the text as it was.
//
// Section layout (LEB128 varints; zigzag where signed):
//
// | field | meaning |
// |---|---|
// | varint flags | bit 0: clocks count tenths of a second (else seconds) |
// | varint runs, then per run: 1 byte layout, varint plies | plies 1, 2, ... in order; layout 0 = nothing lifted |
// | zigzag varint per lifted clock | minus the previous lifted clock of the same player (ply parity), 0 for the first |
// | varint per lifted evaluation | zigzag(x) * 2 + mate: x moves to mate, or centipawns minus the previous lifted centipawns (0 at first) |
//
// Layout bits: 1 clock, 2 evaluation, 4 clock written first, 8 the comment went on
// after the commands, 16 the clock has a tenths digit.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "store/clock_eval_text.h"

namespace pgnbase::store {

enum LiftLayout : uint8_t {
  LIFT_CLOCK = 1,
  LIFT_EVAL = 2,
  LIFT_CLOCK_FIRST = 4,
  LIFT_JOINED = 8,
  LIFT_TENTHS = 16,
  LIFT_ALL = 31,
};

// The commands taken out of one ply's annotation text.
struct LiftedCommands {
  uint32_t ply = 0;
  uint8_t layout = 0;  // LiftLayout bits
  int32_t clock = 0;   // tenths of a second (LIFT_CLOCK)
  Evaluation eval;     // (LIFT_EVAL)
  friend bool operator==(const LiftedCommands&, const LiftedCommands&) = default;
};

// Takes the commands out of the text after main-line ply `ply` (>= 1) when the layout
// above allows and restore_commands gives `text` back exactly: true, with the text left
// in `stored` (empty when nothing is left) and the numbers in `lifted`.
bool lift_commands(uint32_t ply, std::string_view text, std::string& stored, LiftedCommands& lifted);

// Puts lifted commands back into the stored text of their ply (empty when the ply has no
// entry left); false when the text cannot hold them (a corrupt payload).
bool restore_commands(std::string_view stored, const LiftedCommands& lifted, std::string& out);

// Appends the section of a game's lifted commands (ascending plies) to out.
void encode_lifted(const std::vector<LiftedCommands>& lifted, std::string& out);
// Reads a section; false when it is corrupt. Memory grows with the section's bytes only.
bool decode_lifted(std::string_view section, std::vector<LiftedCommands>& out);

}  // namespace pgnbase::store
