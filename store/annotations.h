// The per-game annotation blob: what export needs to reproduce comments, NAGs,
// variations and draw offers around the main line.
//
// Encoding (before compression): a sequence of entries, each
//   varint ply | varint length | length bytes of PGN movetext
// ply 0 is text before the first move, ply i text right after main-line ply i.
// The text is ready to print: "{comment}", "$14", "(12... Nf6 13. e4)", and the draw
// offer as the comment "{(=)}" so that no PGN reader takes it for a variation.
// Variation moves are kept as written (their language), with move numbers regenerated.
// One entry may instead have the key kLiftedSectionKey (2^32, past every ply): its bytes
// are the clocks and evaluations lifted out of the text (store/game_annotations.h, which
// every reader goes through).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pgnbase::store {

struct AnnotationEntry {
  uint32_t ply;
  std::string text;
};
// One entry as read back: text points into the payload given to decode_annotations.
struct AnnotationView {
  uint32_t ply;
  std::string_view text;
};

// The entry key of the lifted clocks and evaluations (store/clock_eval_codec.h).
inline constexpr uint64_t kLiftedSectionKey = uint64_t{1} << 32;

// Encodes the entries as they are (the import lifts clocks first: game_annotations.h).
void encode_annotations(const std::vector<AnnotationEntry>& entries, std::string& out);
// Reads a decompressed payload: its text entries, and the bytes of its lifted section
// (empty when it has none); false when it is corrupt (two sections, or an empty one).
bool decode_annotations(std::string_view payload, std::vector<AnnotationView>& out, std::string_view& lifted_section);

void append_varint(uint64_t value, std::string& out);
// Reads a varint at pos (advanced); false when the input ends first.
bool read_varint(std::string_view in, size_t& pos, uint64_t& value);
// Reads "varint length, that many bytes" at pos (advanced); false when the input ends first.
bool read_length_prefixed(std::string_view in, size_t& pos, std::string_view& bytes);

}  // namespace pgnbase::store
