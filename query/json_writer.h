// JSON output: strings escaped per RFC 8259, games as one object per line (JSON Lines).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/move_code.h"
#include "indexer/store/tag_codec.h"
#include "query/game_row.h"

namespace pgnbase::query {

// Appends text as a JSON string literal (with quotes). Valid UTF-8 passes through;
// each byte that is not part of valid UTF-8 is read as Latin-1 (old PGN files are
// often Latin-1), so the output is always valid UTF-8 JSON.
void append_json_string(std::string_view text, std::string& out);

// Formats games as JSON Lines:
//   {"id":1,"tags":{"Event":"...",...},"variant":"standard","start_fen":null,
//    "eco":"C60","eco_source":"tag","opening":"...","plies":40,"moves":["e4","e5",...],
//    "fen_plies":[5]}
// Tags come in export order (pgn_writer.h); a repeated tag name keeps its first value.
// Moves are SAN. fen_plies appears when plies is not empty. One thread at a time.
class JsonGameWriter {
 public:
  // Appends one line; false (nothing appended) when the row is corrupt.
  bool write(const GameRow& row, std::span<const MoveCode> codes, std::span<const uint32_t> plies, std::string& out,
             std::optional<uint32_t> pattern_ply = std::nullopt);

 private:
  std::string move_;
  std::vector<indexer::TagView> tags_;
};

}  // namespace pgnbase::query
