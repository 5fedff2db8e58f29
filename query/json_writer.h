// JSON output: strings escaped per RFC 8259, games as one object per line (JSON Lines).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "core/move_code.h"
#include "store/game_annotations.h"
#include "store/tag_codec.h"
#include "store/game_row.h"

namespace pgnbase::query {

// Appends text as a JSON string literal (with quotes). Valid UTF-8 passes through;
// each byte that is not part of valid UTF-8 is read as Latin-1 (old PGN files are
// often Latin-1), so the output is always valid UTF-8 JSON. Every control character
// (C0, DEL and C1) is escaped, so no raw one reaches a terminal.
void append_json_string(std::string_view text, std::string& out);

// The tag names already written for one game, so that a repeated name keeps its first
// value. One hash look-up per name (a scan of the names so far made a game of 80,000
// tags take 10 s). The views must stay valid until clear(). Not copyable: the
// comparison counter is shared with the set by address.
class TagNameSet {
 public:
  TagNameSet();
  TagNameSet(const TagNameSet&) = delete;
  TagNameSet& operator=(const TagNameSet&) = delete;

  // True when name is new (and adds it), false when it was inserted before.
  bool insert(std::string_view name);
  void clear();
  // Name comparisons made so far: the tests bound the work per name with it.
  uint64_t comparisons() const { return comparisons_; }

 private:
  struct CountingEqual {
    uint64_t* count;
    bool operator()(std::string_view a, std::string_view b) const {
      ++*count;
      return a == b;
    }
  };
  using Set = std::unordered_set<std::string_view, std::hash<std::string_view>, CountingEqual>;

  uint64_t comparisons_ = 0;
  Set names_;
};

// Formats games as JSON Lines:
//   {"id":1,"tags":{"Event":"...",...},"variant":"standard","start_fen":null,
//    "eco":"C60","eco_source":"tag","opening":"...","plies":40,"moves":["e4","e5",...],
//    "fen_plies":[5],"clocks":[60,59.5,...],"evals":[17,null,...],"mates":[null,-3,...]}
// Tags come in export order (pgn_writer.h); a repeated tag name keeps its first value.
// Moves are SAN. fen_plies appears when plies is not empty. clocks appears when the
// game has a clock ([%clk]), evals and mates together when it has an evaluation
// ([%eval]): one element per move, null where the move has none; clocks in seconds left
// after the move, evals in centipawns from White's side, mates in moves to mate
// (negative: Black mates).
// One thread at a time.
class JsonGameWriter {
 public:
  // Appends one line; false (nothing appended) when the row is corrupt.
  bool write(const store::GameRow& row, std::span<const MoveCode> codes, std::span<const uint32_t> plies, std::string& out,
             std::optional<uint32_t> pattern_ply = std::nullopt);
  // Tag-name comparisons made by every write() so far (the tests bound the work per tag).
  uint64_t tag_name_comparisons() const { return written_.comparisons(); }

 private:
  std::string move_;
  std::vector<store::TagView> tags_;
  store::AnnotationReader annotations_;
  TagNameSet written_;
};

}  // namespace pgnbase::query
