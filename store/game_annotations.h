// A game's annotations as the import stores them and every reader reads them back:
// the entries of store/annotations.h, with the main line's lichess clocks and
// evaluations lifted out of the comment text into a numeric section
// (store/clock_eval_codec.h) wherever they write back byte for byte.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "store/annotations.h"
#include "store/clock_eval_codec.h"
#include "store/clock_eval_text.h"

namespace pgnbase::store {

// Encodes the entries (ascending plies, as the import collects them) with the commands
// lifted: the section first (under kLiftedSectionKey) when any ply gave one, then the
// entries whose text is left.
void encode_game_annotations(std::span<const AnnotationView> entries, std::string& out);

// Reads stored annotations blobs (blob_codec.h framing, then the payload above, or a
// payload without a section, as schema 5 wrote them). One reader per thread; what it
// returns stays valid until its next read().
class AnnotationReader {
 public:
  // False when the blob is corrupt (then entries() and clock_evals() are empty).
  bool read(std::string_view blob);

  // Every entry as the game had it, the lifted commands back in their text, sorted by ply
  // (file order within a ply).
  const std::vector<AnnotationView>& entries() const { return entries_; }

  // The main line's clocks and evaluations by ascending ply: each ply's lifted numbers,
  // and what its text still holds (read_clock_eval). Plies past the game's last may
  // appear in a damaged file: a reader indexing by ply checks.
  const std::vector<PlyClockEval>& clock_evals();

 private:
  std::string payload_, restored_;
  std::vector<AnnotationView> stored_, entries_;
  std::vector<LiftedCommands> lifted_;
  std::vector<PlyClockEval> clock_evals_;
  bool clock_evals_read_ = false;
};

}  // namespace pgnbase::store
