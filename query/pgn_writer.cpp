#include "query/pgn_writer.h"

#include <algorithm>

#include "core/fen.h"
#include "store/blob_codec.h"
#include "store/moves_codec.h"

namespace pgnbase::query {

namespace {

bool can_start_line(std::string_view word) {
  if (word.empty()) return true;
  if (word[0] == '%') return false;
  return !(word[0] == '[' && word.size() > 1 && ((word[1] | 0x20) >= 'a' && (word[1] | 0x20) <= 'z'));
}

void append_number(int64_t n, std::string& out) {
  char buffer[24];
  int i = sizeof buffer;
  uint64_t v = n < 0 ? 0 : uint64_t(n);
  do buffer[--i] = char('0' + v % 10); while (v /= 10);
  out.append(buffer + i, sizeof buffer - i);
}

}  // namespace

Parsed<ExportNotation> parse_notation(std::string_view text) {
  ExportNotation out;
  if (text == "san" || text == "en") out.style = MoveStyle::San;
  else if (text == "long") out.style = MoveStyle::Long;
  else if (text == "uci") out.style = MoveStyle::Uci;
  else if (text == "figurine") out.style = MoveStyle::Figurine;
  else if (const PieceLetters* letters = find_piece_letters(text)) {
    out.style = MoveStyle::San;
    out.letters = letters;
  } else {
    std::string error = "bad notation '" + std::string(text) + "': expected san, long, uci, figurine or a language code";
    for (const PieceLetters& l : all_piece_letters()) error += (l.code == "en" ? " (" : ", ") + std::string(l.code);
    return ParseError{error + ")"};
  }
  return out;
}

PgnWriter::PgnWriter(PgnWriteOptions options) : options_(options) {}

void PgnWriter::write_tag(std::string_view name, std::string_view value) {
  std::string& out = *out_;
  out += '[';
  out += name;
  out += " \"";
  for (char c : value) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  out += "\"]\n";
}

void PgnWriter::write_tags(const store::GameRow& row, const Board& start) {
  store::visit_column_tags(row, [&](std::string_view name, std::string_view value) { write_tag(name, value); });

  const bool chess960 = row.variant == store::Variant::Chess960;
  bool has_variant = false, has_setup = false, has_fen = false;
  for (const store::TagView& t : tags_) {
    has_variant |= t.name == "Variant";
    has_setup |= t.name == "SetUp";
    has_fen |= t.name == "FEN";
  }
  auto write_setup = [&] {
    if (chess960 && !has_variant) write_tag("Variant", "Chess960");
    if (!has_setup) write_tag("SetUp", "1");
  };
  bool fen_written = false;
  for (const store::TagView& t : tags_) {
    if (t.name == "FEN" && row.start_fen && !fen_written) {
      write_setup();
      write_tag("FEN", chess960 ? write_fen(start, CastlingStyle::XFen) : t.value);
      fen_written = true;
      continue;
    }
    write_tag(t.name, t.value);
  }
  if (row.start_fen && !has_fen) {
    write_setup();
    write_tag("FEN", write_fen(start, chess960 ? CastlingStyle::XFen : CastlingStyle::Auto));
  }
}

void PgnWriter::word(std::string_view text) {
  std::string& out = *out_;
  if (column_ > 0 && column_ + 1 + text.size() > options_.line_width) {
    if (can_start_line(text)) {
      out += '\n';
      column_ = 0;
    } else if (previous_word_ > line_start_ && can_start_line(std::string_view(out).substr(previous_word_))) {
      // Carry the previous word down with this one, so that this one does not start a line.
      out[previous_word_ - 1] = '\n';
      line_start_ = previous_word_;
      column_ = out.size() - previous_word_;
    }
  }
  if (column_ > 0) {
    out += ' ';
    ++column_;
  } else {
    line_start_ = out.size();
  }
  previous_word_ = out.size();
  out += text;
  column_ += text.size();
}

void PgnWriter::words_of(std::string_view annotation) {
  size_t pos = 0;
  while (pos < annotation.size()) {
    size_t end = annotation.find(' ', pos);
    if (end == std::string_view::npos) end = annotation.size();
    if (end > pos) word(annotation.substr(pos, end - pos));
    pos = end + 1;
  }
}

bool PgnWriter::write_movetext(const store::GameRow& row, std::span<const MoveCode> codes, const Board& start) {
  Board board = start;
  size_t next_annotation = 0;
  auto annotate_after = [&](size_t ply) {
    bool any = false;
    while (next_annotation < annotations_.size() && annotations_[next_annotation].ply <= ply) {
      words_of(annotations_[next_annotation++].text);
      any = true;
    }
    return any;
  };
  int64_t number = std::max<int64_t>(1, board.fullmove_number());
  bool need_number = true;
  annotate_after(0);
  UndoInfo undo;
  for (size_t ply = 0; ply < codes.size(); ++ply) {
    Move m;
    if (!decode_stored_move(board, codes[ply], m)) return false;
    const Color us = board.side_to_move();
    if (us == WHITE || need_number) {
      move_text_.clear();
      append_number(number, move_text_);
      move_text_ += us == WHITE ? "." : "...";
      word(move_text_);
    }
    move_text_.clear();
    if (m.is_null()) move_text_ = "--";
    else append_move(board, m, options_.notation.style, *options_.notation.letters, move_text_);
    word(move_text_);
    play(board, m, undo);
    if (us == BLACK) ++number;
    need_number = annotate_after(ply + 1);
  }
  annotate_after(SIZE_MAX);  // entries past the last ply (never written by the importer)
  word(store::result_token(row.result));
  *out_ += '\n';
  return true;
}

bool PgnWriter::write(const store::GameRow& row, std::span<const MoveCode> codes, std::string& out,
                      std::optional<uint32_t> pattern_ply) {
  const size_t rollback = out.size();
  out_ = &out;
  column_ = 0;
  line_start_ = previous_word_ = out.size();
  Board start;
  bool ok = store::stored_start_position(row.variant, row.start_fen, start);
  ok = ok && store::decode_tags(row.tags, tags_);  // the tags payload is stored unframed
  if (ok) write_tags(row, start);
  annotations_.clear();
  if (ok && options_.annotations && !row.annotations.empty()) {
    ok = reader_.read(row.annotations);  // sorted by ply, clocks back in their comments
    annotations_ = reader_.entries();
  }
  if (pattern_ply) {  // after the game's own text at that ply
    auto at = std::find_if(annotations_.begin(), annotations_.end(),
                           [&](const store::AnnotationView& a) { return a.ply > *pattern_ply; });
    annotations_.insert(at, store::AnnotationView{*pattern_ply, kPatternComment});
  }
  if (ok) {
    out += '\n';
    ok = write_movetext(row, codes, start);
  }
  if (!ok) {
    out.resize(rollback);
    return false;
  }
  out += '\n';
  return true;
}

}  // namespace pgnbase::query
