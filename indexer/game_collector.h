// A PgnVisitor that gathers one game for the builder: tags, main-line move tokens,
// annotations (with regenerated variation move numbers) and the first syntax error.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/pgn_reader.h"
#include "store/annotations.h"
#include "indexer/game_record.h"

namespace pgnbase::indexer {

// One entry of a game's annotations (store/annotations.h): text after main-line ply
// `ply`, at annotation_text.substr(offset, size).
struct DraftAnnotation {
  uint32_t ply;
  size_t offset, size;
};

struct GameDraft {
  uint64_t offset = 0;
  uint64_t line = 0;
  std::vector<store::Tag> tags;
  std::vector<std::string_view> moves;  // main line, as written (views into the chunk)
  // The entries in ply order, their texts one after another in one buffer that the
  // collector reuses game after game: a lichess game has an entry at every ply, and a
  // string per entry cost an allocation per entry.
  std::vector<DraftAnnotation> annotations;
  std::string annotation_text;
  std::string_view result_token;
  std::optional<PgnError> error;
  std::string_view text;  // the game's original bytes

  const std::string* find_tag(std::string_view name) const;
  // The entries as views into annotation_text (valid while the draft is unchanged).
  void annotation_views(std::vector<store::AnnotationView>& out) const;
};

class GameCollector : public PgnVisitorBase {
 public:
  explicit GameCollector(bool keep_annotations) : keep_annotations_(keep_annotations) {}

  const GameDraft& draft() const { return draft_; }

  void begin_game(uint64_t offset, uint64_t line);
  void tag(std::string_view name, std::string_view raw_value);
  bool end_tags();
  void move(std::string_view token);
  void nag(int value);
  void comment(std::string_view text);
  void draw_offer();
  void begin_variation();
  void end_variation();
  void result(std::string_view token);
  void end_game(const GameText& game, const PgnError* error);

 private:
  // Appends annotation text after the current main-line ply.
  void annotate(std::string_view text);
  void append_move_number(uint32_t ply);

  bool keep_annotations_;
  GameDraft draft_;
  // Ply numbering for move numbers inside variations.
  bool black_starts_ = false;
  int64_t first_move_number_ = 1;  // the FEN's fullmove number, up to kMaxFullmoveNumber
  std::vector<uint32_t> line_ply_;  // per open variation: ply of its last move
  bool need_number_ = true;         // next variation move needs "N..." even for Black
  std::string scratch_;
  std::string comment_text_;  // a comment as stored; only grows
};

}  // namespace pgnbase::indexer
