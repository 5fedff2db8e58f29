// Canonical PGN export of stored games, in any notation the importer reads back.
//
// Tags: the Seven Tag Roster in its order ("?", "????.??.??", "*" for absent ones), then
// WhiteElo, BlackElo, ECO (only when it came from the game's ECO tag), TimeControl,
// then every other tag the game had, in file order. A Chess960 game gets its FEN in
// X-FEN, with SetUp "1" and a Variant tag added when the file lacked them.
// Movetext: moves regenerated from the 16-bit codes; comments, NAGs, variations and
// draw offers (written as the comment {(=)}, which no reader takes for a variation) at
// their plies; "N..." before a Black move that follows annotation text; the result
// token last; lines wrapped at 80 columns, never inside a move or NAG, inside a comment
// only at a space (the importer collapses comment whitespace, so this is lossless), and
// never so that a line starts with '%' (an escape line) or '[' + letter (a tag).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/parsed.h"
#include "core/board.h"
#include "core/move_code.h"
#include "core/notation.h"
#include "core/san.h"
#include "store/game_annotations.h"
#include "store/tag_codec.h"
#include "store/game_row.h"

namespace pgnbase::query {

struct ExportNotation {
  MoveStyle style = MoveStyle::San;
  const PieceLetters* letters = &english();
};

// "san", "long", "uci", "figurine", or a language code ("de", "nl", "fr", "it", ...:
// SAN with that language's piece letters).
Parsed<ExportNotation> parse_notation(std::string_view text);

inline constexpr std::string_view kPatternComment = "{pattern matches here}";

struct PgnWriteOptions {
  ExportNotation notation;
  bool annotations = true;  // false: --no-annotations
  size_t line_width = 80;
};

// Formats games. Keeps scratch buffers between games; one thread at a time.
class PgnWriter {
 public:
  explicit PgnWriter(PgnWriteOptions options = {});

  // Appends one game (tags, blank line, movetext, blank line) to out. Returns false,
  // appending nothing, when the row's blobs are corrupt or its codes do not replay.
  // pattern_ply: where a pattern search matched, marked by the comment kPatternComment.
  bool write(const store::GameRow& row, std::span<const MoveCode> codes, std::string& out,
             std::optional<uint32_t> pattern_ply = std::nullopt);

 private:
  void write_tag(std::string_view name, std::string_view value);
  void write_tags(const store::GameRow& row, const Board& start);
  bool write_movetext(const store::GameRow& row, std::span<const MoveCode> codes, const Board& start);
  // Movetext word with the wrapping rules above.
  void word(std::string_view text);
  void words_of(std::string_view annotation);

  PgnWriteOptions options_;
  std::string* out_ = nullptr;
  size_t column_ = 0;
  size_t line_start_ = 0, previous_word_ = 0;  // offsets in *out_ of the line and the last word
  std::string move_text_;
  store::AnnotationReader reader_;
  std::vector<store::TagView> tags_;
  std::vector<store::AnnotationView> annotations_;
};

}  // namespace pgnbase::query
