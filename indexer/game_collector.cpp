#include "indexer/game_collector.h"

#include <charconv>
#include <cstdio>

namespace pgnbase::indexer {

const std::string* GameDraft::find_tag(std::string_view name) const {
  for (const store::Tag& t : tags)
    if (t.name == name) return &t.value;
  return nullptr;
}

void GameDraft::annotation_views(std::vector<store::AnnotationView>& out) const {
  out.clear();
  for (const DraftAnnotation& a : annotations)
    out.push_back({a.ply, std::string_view(annotation_text).substr(a.offset, a.size)});
}

void GameCollector::begin_game(uint64_t offset, uint64_t line) {
  draft_.offset = offset;
  draft_.line = line;
  draft_.tags.clear();
  draft_.moves.clear();
  draft_.annotations.clear();
  draft_.annotation_text.clear();
  draft_.result_token = {};
  draft_.error.reset();
  draft_.text = {};
  black_starts_ = false;
  first_move_number_ = 1;
  line_ply_.clear();
  need_number_ = true;
}

void GameCollector::tag(std::string_view name, std::string_view raw_value) {
  store::Tag& t = draft_.tags.emplace_back();
  t.name.assign(name);
  unescape_tag_value(raw_value, t.value);
}

bool GameCollector::end_tags() {
  // Variation move numbers depend on who moves first in a set-up position.
  if (const std::string* fen = draft_.find_tag("FEN")) {
    size_t side = fen->find(' ');
    black_starts_ = side != std::string::npos && side + 1 < fen->size() && (*fen)[side + 1] == 'b';
    size_t last = fen->find_last_of(' ');
    int64_t number = 0;
    if (last != std::string::npos) {
      auto [ptr, ec] = std::from_chars(fen->data() + last + 1, fen->data() + fen->size(), number);
      if (ec == std::errc() && number > 0) first_move_number_ = number;
    }
  }
  return true;
}

void GameCollector::append_move_number(uint32_t ply) {
  // ply is 1-based from the start position.
  uint32_t half = ply - 1 + (black_starts_ ? 1 : 0);
  bool white = half % 2 == 0;
  if (!white && !need_number_) return;
  scratch_ += std::to_string(first_move_number_ + int64_t(half / 2));
  scratch_ += white ? ". " : "... ";
}

void GameCollector::move(std::string_view token) {
  if (line_ply_.empty()) {
    draft_.moves.push_back(token);
    return;
  }
  if (!keep_annotations_) return;
  uint32_t ply = ++line_ply_.back();
  scratch_.clear();
  append_move_number(ply);
  scratch_ += token;
  need_number_ = false;
  annotate(scratch_);
}

void GameCollector::nag(int value) {
  if (!keep_annotations_) return;
  char text[16];
  int n = std::snprintf(text, sizeof text, "$%d", value);
  annotate(std::string_view(text, size_t(n)));
}

namespace {

bool is_comment_blank(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

}  // namespace

void GameCollector::comment(std::string_view text) {
  if (!keep_annotations_) return;
  // Whitespace runs become one space, so that wrapping on export does not change the
  // text, and '}' becomes ')'. Written word by word through a pointer into a buffer kept
  // large enough (the most frequent comment, a lichess clock, comes at every move).
  if (comment_text_.size() < text.size() + 2) comment_text_.resize(text.size() + 2);
  char* const begin = comment_text_.data();
  char* out = begin;
  *out++ = '{';
  const char* p = text.data();
  const char* const end = p + text.size();
  while (true) {
    while (p != end && is_comment_blank(*p)) ++p;
    if (p == end) break;
    if (out != begin + 1) *out++ = ' ';
    for (; p != end && !is_comment_blank(*p); ++p) *out++ = *p == '}' ? ')' : *p;
  }
  if (std::string_view(begin, size_t(out - begin)) == "{(=)") {  // an exported draw offer reads back as one
    draw_offer();
    return;
  }
  *out++ = '}';
  annotate(std::string_view(begin, size_t(out - begin)));
  need_number_ = true;
}

void GameCollector::draw_offer() {
  if (!keep_annotations_) return;
  annotate("{(=)}");
}

void GameCollector::begin_variation() {
  if (!keep_annotations_) {
    line_ply_.push_back(0);
    return;
  }
  // A variation replaces the last move of the line that contains it.
  uint32_t replaced = line_ply_.empty() ? uint32_t(draft_.moves.size()) : line_ply_.back();
  line_ply_.push_back(replaced == 0 ? 0 : replaced - 1);
  annotate("(");
  need_number_ = true;
}

void GameCollector::end_variation() {
  if (line_ply_.empty()) return;
  line_ply_.pop_back();
  if (!keep_annotations_) return;
  annotate(")");
  need_number_ = true;
}

void GameCollector::result(std::string_view token) { draft_.result_token = token; }

void GameCollector::end_game(const GameText& game, const PgnError* error) {
  draft_.text = game.text;
  draft_.offset = game.offset;
  draft_.line = game.line;
  if (error) draft_.error = *error;
}

void GameCollector::annotate(std::string_view text) {
  const uint32_t ply = uint32_t(draft_.moves.size());
  std::string& all = draft_.annotation_text;
  auto& entries = draft_.annotations;
  if (entries.empty() || entries.back().ply != ply) {
    entries.push_back({ply, all.size(), text.size()});
    all += text;
    return;
  }
  // The ply's entry is the buffer's last text, which grows in place. No space after "("
  // or before ")".
  DraftAnnotation& last = entries.back();
  if (last.size > 0 && all.back() != '(' && text != ")") {
    all += ' ';
    ++last.size;
  }
  all += text;
  last.size += text.size();
}

}  // namespace pgnbase::indexer
