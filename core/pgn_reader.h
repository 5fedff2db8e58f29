// Streaming, zero-copy PGN tokenizer: walks a byte range and calls a visitor per token.
#pragma once

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "core/assessment.h"

namespace pgnbase {

enum class PgnErrorCode : uint8_t {
  UnterminatedTag,        // the line ends before the tag's closing quote or ']'
  MalformedTag,           // not of the form [Name "value"]
  UnterminatedComment,    // '{' without '}' before the end of the range
  UnbalancedParenthesis,  // ')' without '(' or a '(' still open when the game ends
  UnexpectedToken,        // a byte or token that has no place in movetext
};

const char* describe(PgnErrorCode code);

// line and offset are absolute (base_offset/first_line of the reader added), both 64
// bits: a multi-GB archive has more than 2^32 lines;
// token views the offending bytes (at most a few dozen) inside the reader's text.
struct PgnError {
  PgnErrorCode code;
  uint64_t line;
  uint64_t offset;
  std::string_view token;
};

// A game's raw bytes, from the first byte of its first tag (or of a comment before
// the tags, or of its first movetext token) to the end of its last token: the result,
// or the ';' comments that follow the result on the next lines. For a malformed game
// it runs to the point where the reader resynchronised (trailing blanks cut).
struct GameText {
  uint64_t offset;
  uint64_t line;
  std::string_view text;
};

// Callbacks per game, in this order:
//   begin_game, tag*, end_tags, { move | nag | comment | draw_offer |
//   begin_variation | end_variation }*, result?, comment*, end_game.
// end_tags is not called when a tag is malformed; after any error the rest of the
// game is skipped without callbacks and end_game gets the first error.
// Moves inside variations come through move() too; a result token inside a
// variation is dropped. Every view points into the reader's text.
template <class V>
concept PgnVisitor = requires(V& visitor, std::string_view text, uint64_t offset, uint64_t line,
                              int value, const GameText& game, const PgnError* error) {
  visitor.begin_game(offset, line);
  visitor.tag(text, text);
  { visitor.end_tags() } -> std::convertible_to<bool>;
  visitor.move(text);
  visitor.nag(value);
  visitor.comment(text);
  visitor.draw_offer();
  visitor.begin_variation();
  visitor.end_variation();
  visitor.result(text);
  visitor.end_game(game, error);
};

// Does nothing with every callback: derive from it and hide the ones you need.
struct PgnVisitorBase {
  void begin_game(uint64_t, uint64_t) {}
  void tag(std::string_view, std::string_view) {}
  bool end_tags() { return true; }
  void move(std::string_view) {}
  void nag(int) {}
  void comment(std::string_view) {}
  void draw_offer() {}
  void begin_variation() {}
  void end_variation() {}
  void result(std::string_view) {}
  void end_game(const GameText&, const PgnError*) {}
};

// Reads games from one byte range. A game is its tag section and its movetext, either
// of which may be missing or empty. A tag section ends where something else than a tag
// pair follows, or at a tag that begins the next game's section: a tag named as the
// section's key (Event once the section holds an Event tag, before that the name of its
// first tag), or an Event tag after a blank line in a section without one. So games of
// tags alone (broadcast pairings, forfeits, byes) are read one by one, with a blank
// line between them or not, while a blank line inside one section (ChessBase writes one
// after [Event]) and a repeated tag other than the key (broken files repeat tags) stay
// in one game. Tolerates a UTF-8 BOM, LF/CRLF/CR line ends,
// Latin-1 bytes, '%' escape lines, ';' and '{}' comments, variations nested to any
// depth (no recursion), missing results, and assessments written as text ("+=", "±",
// "N": core/assessment.h), which it reports as their NAGs. A malformed game ends with an
// error and the reader carries on at the next line starting with '[' + letter. It never
// reads outside its range and allocates nothing.
// The text must stay alive while the reader and every view it handed out are in use.
// Not thread-safe; use one reader per range.
class PgnReader {
 public:
  // base_offset/first_line: absolute position of text[0] in the file (for messages).
  explicit PgnReader(std::string_view text, uint64_t base_offset = 0, uint64_t first_line = 1);

  // Reads the next game; false when no game is left.
  template <PgnVisitor V>
  bool read_game(V& visitor);

  template <PgnVisitor V>
  void read_all(V& visitor) {
    while (read_game(visitor)) {
    }
  }

  // Bytes of the text consumed so far.
  size_t position() const { return static_cast<size_t>(cur_ - begin_); }

  // Line breaks in the whole text, as the reader counts them for game lines: after the
  // last game, only the bytes past the last counted position are read.
  uint64_t line_breaks() { return line_at(end_) - first_line_; }

 private:
  struct GameState {
    PgnError error{};
    bool failed = false;
    // Set when a tag ends the section because it begins the next game's (the rule
    // above PgnReader): this game then has no movetext.
    bool next_game_in_tags = false;
    const char* last_token_end = nullptr;
    std::string_view key_tag;  // Event, or the first tag's name while no Event tag came
  };

  const char* find_game_start() const;
  const char* skip_comments(const char* p) const;
  const char* next_tag_line(const char* from) const;
  bool at_line_start(const char* p) const;
  bool at_column_zero(const char* p) const { return p == begin_ || p[-1] == '\n' || p[-1] == '\r'; }
  uint64_t line_at(const char* p);
  void fail(GameState& game, PgnErrorCode code, const char* at, const char* token_end);
  void fail_and_resync(GameState& game, PgnErrorCode code, const char* at);
  bool fail_tag(GameState& game, PgnErrorCode code, const char* open);
  bool begins_next_game(GameState& game, std::string_view name, const char* open) const;
  bool after_blank_line(const char* p) const;

  template <class W>
  bool read_tags(W& visitor, GameState& game);
  template <class W>
  bool read_tag(W& visitor, GameState& game, const char* open);
  template <class W>
  void report_comments(W& visitor, const char* p, const char* end) const;
  template <class W>
  void read_movetext(W& visitor, GameState& game);
  template <class W>
  const char* read_move(W& visitor, const char* p) const;
  template <class W>
  const char* read_marked_move(W& visitor, std::string_view move) const;
  template <class W>
  const char* read_assessment(W& visitor, const char* p) const;
  template <class W>
  const char* read_trailing_comments(W& visitor, GameState& game, const char* p) const;

  const char* begin_;
  const char* end_;
  const char* cur_;
  uint64_t base_offset_;
  // Lines are counted lazily, only up to positions someone asks about.
  const char* counted_until_;
  uint64_t counted_line_;
  uint64_t first_line_;
};

// Unescapes \" and \\ in a raw tag value and appends the result to out.
void unescape_tag_value(std::string_view raw, std::string& out);

namespace pgn_detail {

// kMarkStart: first letter of a mark that is no move ("e.p.", "N", "RR", "inf");
// kMarkEnd: last byte of a mark glued to a move (en passant "ep" and "e" of "e.p.", an
// assessment "+=", "-+", "±"). Both keep the common move token on its fast path.
enum : uint8_t {
  kSpace = 1, kMoveChar = 2, kLetter = 4, kDigit = 8, kNameChar = 16, kMarkStart = 32, kMarkEnd = 64
};

constexpr std::array<uint8_t, 256> make_char_classes() {
  std::array<uint8_t, 256> classes{};
  for (int c : {' ', '\t', '\n', '\r', '\f', '\v', '\x1a'}) classes[static_cast<uint8_t>(c)] |= kSpace;
  for (int c = 'a'; c <= 'z'; ++c) classes[c] |= kMoveChar | kLetter | kNameChar;
  for (int c = 'A'; c <= 'Z'; ++c) classes[c] |= kMoveChar | kLetter | kNameChar;
  for (int c = '0'; c <= '9'; ++c) classes[c] |= kMoveChar | kDigit | kNameChar;
  classes['_'] |= kNameChar;
  // Check, mate, capture, promotion, long-form and drop marks; UTF-8 and Latin-1 bytes
  // (figurines, '×', '†', '‡').
  for (int c : {'+', '#', '=', '-', '/', ':', '@'}) classes[c] |= kMoveChar;
  for (int c = 0x80; c < 0x100; ++c) classes[c] |= kMoveChar | kMarkEnd;
  for (int c : {'e', 'N', 'R', 'i'}) classes[c] |= kMarkStart;
  for (int c : {'p', 'e', '+', '-', '='}) classes[c] |= kMarkEnd;
  return classes;
}

inline constexpr std::array<uint8_t, 256> kCharClasses = make_char_classes();

inline bool has_class(char c, uint8_t bits) { return kCharClasses[static_cast<uint8_t>(c)] & bits; }
inline bool is_space(char c) { return has_class(c, kSpace); }
inline bool is_move_char(char c) { return has_class(c, kMoveChar); }
inline bool is_letter(char c) { return has_class(c, kLetter); }
inline bool is_digit(char c) { return has_class(c, kDigit); }
inline bool is_name_char(char c) { return has_class(c, kNameChar); }
inline bool is_line_break(char c) { return c == '\n' || c == '\r'; }
inline bool is_blank(char c) { return c == ' ' || c == '\t'; }

inline const char* skip_whitespace(const char* p, const char* end) {
  while (p < end && is_space(*p)) ++p;
  return p;
}

inline const char* skip_blanks(const char* p, const char* end) {
  while (p < end && is_blank(*p)) ++p;
  return p;
}

// memchr that is safe on empty or null ranges; returns end when c is absent.
inline const char* find_byte(const char* p, const char* end, char c) {
  if (p >= end) return end;
  const void* found = std::memchr(p, c, static_cast<size_t>(end - p));
  return found ? static_cast<const char*>(found) : end;
}

// First '\n' or '\r' at or after p (a lone '\r' ends a line too), or end.
inline const char* find_line_end(const char* p, const char* end) {
  const char* newline = find_byte(p, end, '\n');
  return find_byte(p, newline, '\r');
}

// Whether the bytes at p begin with the literal prefix (its length known at compile time).
template <size_t N>
inline bool starts_with(const char* p, const char* end, const char (&prefix)[N]) {
  if (end - p < static_cast<ptrdiff_t>(N - 1)) return false;
  for (size_t i = 0; i + 1 < N; ++i) {
    if (p[i] != prefix[i]) return false;
  }
  return true;
}

// A token that ends at p is complete when no move character is glued to it.
inline bool ends_token(const char* p, const char* end) { return p == end || !is_move_char(*p); }

inline constexpr char kEllipsis[] = "\xE2\x80\xA6";  // U+2026 '…'
inline constexpr size_t kEllipsisSize = sizeof(kEllipsis) - 1;
inline constexpr char kBom[] = "\xEF\xBB\xBF";

// Length of the result token at p (1-0 0-1 1/2-1/2 ½-½ in UTF-8 or Latin-1), else 0.
inline size_t result_length(const char* p, const char* end) {
  size_t length = 0;
  switch (static_cast<uint8_t>(*p)) {
    case '1':
      length = starts_with(p, end, "1-0") ? 3 : starts_with(p, end, "1/2-1/2") ? 7 : 0;
      break;
    case '0':
      length = starts_with(p, end, "0-1") ? 3 : 0;
      break;
    case 0xC2:
      length = starts_with(p, end, "\xC2\xBD-\xC2\xBD") ? 5 : 0;
      break;
    case 0xBD:
      length = starts_with(p, end, "\xBD-\xBD") ? 3 : 0;
      break;
  }
  return length > 0 && ends_token(p + length, end) ? length : 0;
}

// Skips the dots and ellipses that end a move number ("12.", "12...", "12…").
inline const char* skip_move_number_marks(const char* p, const char* end) {
  for (;;) {
    if (p < end && *p == '.') {
      ++p;
    } else if (starts_with(p, end, kEllipsis)) {
      p += kEllipsisSize;
    } else {
      return p;
    }
  }
}

// Length of a standalone en-passant mark "e.p." or "ep" at p, else 0.
inline size_t en_passant_mark_length(const char* p, const char* end) {
  if (starts_with(p, end, "e.p.") && ends_token(p + 4, end)) return 4;
  if (starts_with(p, end, "ep") && ends_token(p + 2, end)) return 2;
  return 0;
}

// Length of an assessment written as a word standing alone at p ("N" novelty, "RR",
// "inf"), else 0; "Nf3" and "Rf1" are moves.
inline size_t assessment_word_length(const char* p, const char* end) {
  size_t length = 0;
  switch (*p) {
    case 'N': length = 1; break;
    case 'R': length = starts_with(p, end, "RR") ? 2 : 0; break;
    case 'i': length = starts_with(p, end, "inf") ? 3 : 0; break;
    default: return 0;
  }
  return length > 0 && ends_token(p + length, end) ? length : 0;
}

// A promotion written with brackets glued to the square, as in e8(Q).
inline bool is_bracket_promotion(const char* p, const char* begin, const char* end) {
  return p > begin && is_digit(p[-1]) && end - p >= 3 && p[0] == '(' && is_letter(p[1]) && p[2] == ')';
}

// End of the move token that starts at p.
inline const char* scan_move(const char* p, const char* begin, const char* end) {
  for (;;) {
    while (p < end && is_move_char(*p)) ++p;
    if (!is_bracket_promotion(p, begin, end)) return p;
    p += 3;
  }
}

// NAG value of an annotation suffix (! ? !! ?? !? ?!), else 0.
inline int suffix_nag(std::string_view suffix) {
  static constexpr std::string_view kSuffixes[] = {"!", "?", "!!", "??", "!?", "?!"};
  for (int i = 0; i < 6; ++i) {
    if (suffix == kSuffixes[i]) return i + 1;
  }
  return 0;
}

// Up to this many bytes of an offending token are shown in errors.
inline constexpr ptrdiff_t kMaxErrorToken = 48;

inline const char* error_token_end(const char* p, const char* end) {
  const char* limit = end - p > kMaxErrorToken ? p + kMaxErrorToken : end;
  const char* q = p + 1 <= limit ? p + 1 : limit;
  while (q < limit && !is_space(*q)) ++q;
  return q;
}

// The name of the tag pair whose '[' is at open: the name characters after '[' and
// blanks; empty when none follows.
inline std::string_view scan_tag_name(const char* open, const char* end) {
  const char* p = skip_blanks(open + 1, end);
  const char* name_begin = p;
  while (p < end && is_name_char(*p)) ++p;
  return std::string_view(name_begin, static_cast<size_t>(p - name_begin));
}

// The first '"' of the line of value_begin followed by blanks and ']', or nullptr.
const char* find_quote_before_bracket(const char* value_begin, const char* end);

// Reads the rest of a tag pair from the end of its name: sets value to the bytes between
// its quotes and returns its closing ']'; nullptr when the pair is malformed, with code
// saying how. The value may hold unescaped quotes ([White ""Mephisto""]) as long as a
// quote followed by ']' ends it on the same line. Reads nothing past the line's end.
inline const char* scan_tag_value(const char* p, const char* end, std::string_view& value, PgnErrorCode& code) {
  p = skip_blanks(p, end);
  if (p == end || is_line_break(*p)) {
    code = PgnErrorCode::UnterminatedTag;
    return nullptr;
  }
  if (*p != '"') {
    code = PgnErrorCode::MalformedTag;
    return nullptr;
  }
  const char* value_begin = p + 1;
  const char* close = value_begin;
  while (close < end && *close != '"' && !is_line_break(*close)) {
    close += *close == '\\' && end - close >= 2 && !is_line_break(close[1]) ? 2 : 1;
  }
  const char* bracket = close < end && *close == '"' ? skip_blanks(close + 1, end) : end;
  if (bracket == end || *bracket != ']') {
    close = find_quote_before_bracket(value_begin, end);
    if (close == nullptr) {
      code = PgnErrorCode::UnterminatedTag;
      return nullptr;
    }
    bracket = skip_blanks(close + 1, end);
  }
  value = std::string_view(value_begin, static_cast<size_t>(close - value_begin));
  return bracket;
}

// Whether a reader inside a tag section at p reads the rest of p's line, [p, line_end),
// as tag pairs and blanks only, and so is still inside a tag section after it (a
// malformed pair, which the reader reports, ends the reading of its line, not the
// section). The splitter asks this to cut only where the reader starts a game.
inline bool line_keeps_tag_section(const char* p, const char* line_end) {
  for (;;) {
    p = skip_whitespace(p, line_end);
    if (p == line_end) return true;
    if (*p != '[') return false;
    const std::string_view name = scan_tag_name(p, line_end);
    if (name.empty() || !is_letter(name[0])) return true;
    std::string_view value;
    PgnErrorCode code;
    const char* bracket = scan_tag_value(name.data() + name.size(), line_end, value, code);
    if (bracket == nullptr) return true;
    p = bracket + 1;
  }
}

}  // namespace pgn_detail

template <PgnVisitor V>
bool PgnReader::read_game(V& visitor) {
  const char* start = find_game_start();
  if (start == nullptr) {
    cur_ = end_;
    return false;
  }

  // Comments before the tags belong to the game and are reported after end_tags();
  // comments followed by nothing are no game at all.
  const char* tags_begin = start;
  if (*start == '{' || *start == ';') {
    const char* after = skip_comments(start);
    if (after == end_) {
      cur_ = end_;
      return false;
    }
    if (*after == '[' && end_ - after >= 2 && pgn_detail::is_letter(after[1])) tags_begin = after;
  }

  GameState game;
  game.last_token_end = start;
  cur_ = tags_begin;
  const uint64_t offset = base_offset_ + static_cast<uint64_t>(start - begin_);
  const uint64_t line = line_at(start);
  visitor.begin_game(offset, line);

  PgnVisitorBase quiet;
  if (!read_tags(visitor, game)) {
    while (!read_tags(quiet, game)) {
    }
    read_movetext(quiet, game);
  } else if (visitor.end_tags()) {
    report_comments(visitor, start, tags_begin);
    read_movetext(visitor, game);
  } else {
    read_movetext(quiet, game);
  }

  const GameText text{offset, line, std::string_view(start, static_cast<size_t>(game.last_token_end - start))};
  visitor.end_game(text, game.failed ? &game.error : nullptr);
  return true;
}

template <class W>
bool PgnReader::read_tags(W& visitor, GameState& game) {
  using namespace pgn_detail;
  for (;;) {
    const char* p = skip_whitespace(cur_, end_);
    if (p < end_ && *p == '%' && at_column_zero(p)) {
      cur_ = find_line_end(p, end_);
      continue;
    }
    cur_ = p;
    if (p == end_ || *p != '[') return true;
    if (!read_tag(visitor, game, p)) return false;
    if (game.next_game_in_tags) return true;
    game.last_token_end = cur_;
  }
}

// Whether the tag named name, whose '[' is at open, begins the next game's tag section
// (the rule above PgnReader); notes the section's key otherwise.
inline bool PgnReader::begins_next_game(GameState& game, std::string_view name, const char* open) const {
  if (name == game.key_tag) return true;
  if (game.key_tag.empty()) {
    game.key_tag = name;
    return false;
  }
  if (name != "Event") return false;
  if (after_blank_line(open)) return true;
  game.key_tag = name;
  return false;
}

// Reads one [Name "value"] starting at open, or leaves cur_ at open when it begins the
// next game. The name decides that before the value is read, so that a malformed tag
// begins a game just as the splitter expects (pgn_detail::line_keeps_tag_section).
template <class W>
bool PgnReader::read_tag(W& visitor, GameState& game, const char* open) {
  using namespace pgn_detail;
  const std::string_view name = scan_tag_name(open, end_);
  if (name.empty() || !is_letter(name[0])) return fail_tag(game, PgnErrorCode::MalformedTag, open);
  if (begins_next_game(game, name, open)) {
    game.next_game_in_tags = true;
    return true;
  }
  std::string_view value;
  PgnErrorCode code;
  const char* bracket = scan_tag_value(name.data() + name.size(), end_, value, code);
  if (bracket == nullptr) return fail_tag(game, code, open);
  visitor.tag(name, value);
  cur_ = bracket + 1;
  return true;
}

// Reports the '{' and ';' comments in [p, end), which holds nothing else.
template <class W>
void PgnReader::report_comments(W& visitor, const char* p, const char* end) const {
  using namespace pgn_detail;
  for (p = skip_whitespace(p, end); p < end; p = skip_whitespace(p, end)) {
    const char* comment_end = *p == '{' ? find_byte(p + 1, end, '}') : find_line_end(p + 1, end);
    if (*p == '{' || *p == ';') visitor.comment(std::string_view(p + 1, static_cast<size_t>(comment_end - p - 1)));
    p = comment_end < end && *comment_end == '}' ? comment_end + 1 : comment_end;
  }
}

// ';' comments after the result on its own line and on the lines right below it
// (engine GUIs write the adjudication there) still belong to the game.
template <class W>
const char* PgnReader::read_trailing_comments(W& visitor, GameState& game, const char* p) const {
  using namespace pgn_detail;
  for (;;) {
    const char* q = skip_blanks(p, end_);
    if (q < end_ && is_line_break(*q)) {
      q += (*q == '\r' && q + 1 < end_ && q[1] == '\n') ? 2 : 1;
      q = skip_blanks(q, end_);
    }
    if (q == end_ || *q != ';') return p;
    p = find_line_end(q + 1, end_);
    visitor.comment(std::string_view(q + 1, static_cast<size_t>(p - q - 1)));
    game.last_token_end = p;
  }
}

// Reports the move token at p (first byte a letter, digit, '-' or non-ASCII) and
// returns its end.
template <class W>
const char* PgnReader::read_move(W& visitor, const char* p) const {
  using namespace pgn_detail;
  const char* q = scan_move(p, begin_, end_);
  const std::string_view move(p, static_cast<size_t>(q - p));
  if (has_class(move.back(), kMarkEnd)) return read_marked_move(visitor, move);
  visitor.move(move);
  return q;
}

// Reports a move token that may end with a mark and returns its end: a glued en-passant
// mark (exd6ep, exd6e.p.) is dropped, a glued assessment (Nd5±, Qh5+-) reported as its
// NAG after the move. Kept out of line so that the common token's path stays short.
template <class W>
[[gnu::noinline]] const char* PgnReader::read_marked_move(W& visitor, std::string_view move) const {
  using namespace pgn_detail;
  const char* q = move.data() + move.size();
  if (move.size() >= 4 && move.ends_with("ep") && is_digit(move[move.size() - 3])) {
    move.remove_suffix(2);
  } else if (move.size() >= 3 && move.back() == 'e' && is_digit(move[move.size() - 2]) &&
             starts_with(q, end_, ".p.")) {
    move.remove_suffix(1);
    q += 3;
  }
  int nag = 0;
  if (may_end_with_assessment(move)) move.remove_suffix(glued_assessment_length(move, nag));
  visitor.move(move);
  if (nag != 0) visitor.nag(nag);
  return q;
}

// Reports the token at p as its NAG when it is an assessment symbol standing alone
// ("+=", "-+", "±", "=/∞") and returns its end; nullptr when it is something else.
template <class W>
const char* PgnReader::read_assessment(W& visitor, const char* p) const {
  const char* q = pgn_detail::scan_move(p, begin_, end_);
  const int nag = assessment_nag(std::string_view(p, static_cast<size_t>(q - p)));
  if (nag == 0) return nullptr;
  visitor.nag(nag);
  return q;
}

template <class W>
void PgnReader::read_movetext(W& visitor, GameState& game) {
  using namespace pgn_detail;
  if (game.next_game_in_tags) return;
  const char* p = cur_;
  size_t depth = 0;
  const char* outermost_open = nullptr;
  auto finish = [&](const char* at) {
    if (depth > 0) fail(game, PgnErrorCode::UnbalancedParenthesis, outermost_open, outermost_open + 1);
    cur_ = at;
  };
  // Returns true when the result ends the game; inside a variation it is dropped.
  auto read_result = [&](size_t length) {
    const char* token = p;
    p += length;
    if (depth > 0) return false;
    visitor.result(std::string_view(token, length));
    game.last_token_end = p;
    cur_ = read_trailing_comments(visitor, game, p);
    return true;
  };

  for (;;) {
    p = skip_whitespace(p, end_);
    if (p == end_) return finish(p);
    const char c = *p;
    if (is_letter(c)) {  // the common case first: a move, a lone en-passant mark, or "N"
      if (!has_class(c, kMarkStart)) {
        p = read_move(visitor, p);
      } else if (const size_t mark = c == 'e' ? en_passant_mark_length(p, end_) : 0) {
        p += mark;
      } else if (const size_t word = assessment_word_length(p, end_)) {
        visitor.nag(assessment_nag(std::string_view(p, word)));
        p += word;
      } else {
        p = read_move(visitor, p);
      }
      game.last_token_end = p;
      continue;
    }
    switch (c) {
      case '{': {
        const char* close = find_byte(p + 1, end_, '}');
        if (close == end_) return fail_and_resync(game, PgnErrorCode::UnterminatedComment, p);
        visitor.comment(std::string_view(p + 1, static_cast<size_t>(close - p - 1)));
        p = close + 1;
        break;
      }
      case ';': {
        const char* line_end = find_line_end(p + 1, end_);
        visitor.comment(std::string_view(p + 1, static_cast<size_t>(line_end - p - 1)));
        p = line_end;
        break;
      }
      case '(':
        if (starts_with(p, end_, "(=)")) {
          visitor.draw_offer();
          p += 3;
          break;
        }
        if (depth++ == 0) outermost_open = p;
        visitor.begin_variation();
        ++p;
        break;
      case ')':
        if (depth == 0) return fail_and_resync(game, PgnErrorCode::UnbalancedParenthesis, p);
        --depth;
        visitor.end_variation();
        ++p;
        break;
      case '$': {
        const char* q = p + 1;
        int value = 0;
        while (q < end_ && is_digit(*q) && q - p <= 6) value = value * 10 + (*q++ - '0');
        if (q == p + 1 || !ends_token(q, end_)) return fail_and_resync(game, PgnErrorCode::UnexpectedToken, p);
        visitor.nag(value);
        p = q;
        break;
      }
      case '!':
      case '?': {
        const char* q = p;
        while (q < end_ && (*q == '!' || *q == '?')) ++q;
        const int value = suffix_nag(std::string_view(p, static_cast<size_t>(q - p)));
        if (value == 0) return fail_and_resync(game, PgnErrorCode::UnexpectedToken, p);
        visitor.nag(value);
        p = q;
        break;
      }
      case '*':
        if (read_result(1)) return;
        break;
      case '.':
        p = skip_move_number_marks(p, end_);
        break;
      case '[':
        if (end_ - p >= 2 && is_letter(p[1]) && at_line_start(p)) return finish(p);  // the next game's tags
        return fail_and_resync(game, PgnErrorCode::UnexpectedToken, p);
      case '%':
        if (!at_column_zero(p)) return fail_and_resync(game, PgnErrorCode::UnexpectedToken, p);
        p = find_line_end(p, end_);
        continue;
      case '+':
      case '=': {  // an assessment such as "+=" or "=", never the start of a move
        const char* q = read_assessment(visitor, p);
        if (q == nullptr) return fail_and_resync(game, PgnErrorCode::UnexpectedToken, p);
        p = q;
        break;
      }
      case '-':
        if (const char* q = read_assessment(visitor, p)) {  // "-+", "-/+"
          p = q;
          break;
        }
        p = read_move(visitor, p);  // null move "--", or a bad token for the SAN parser
        break;
      default: {
        if (is_digit(c) || (c & 0x80)) {
          if (const size_t length = result_length(p, end_)) {
            if (read_result(length)) return;
            break;
          }
        }
        if (is_digit(c)) {
          const char* q = p;
          while (q < end_ && is_digit(*q)) ++q;
          if (q == end_ || *q == '.' || starts_with(q, end_, kEllipsis) || !is_move_char(*q)) {
            p = skip_move_number_marks(q, end_);  // a move number, maybe with its move glued on
            break;
          }
          p = read_move(visitor, p);  // castling with zeros, or a bad token
        } else if (c & 0x80) {
          if (starts_with(p, end_, kEllipsis)) {
            p += kEllipsisSize;
            break;
          }
          if (const char* q = read_assessment(visitor, p)) {  // "±", "∞", "□" ...
            p = q;
            break;
          }
          p = read_move(visitor, p);  // figurines
        } else {
          return fail_and_resync(game, PgnErrorCode::UnexpectedToken, p);
        }
        break;
      }
    }
    game.last_token_end = p;
  }
}

}  // namespace pgnbase
