#include "core/pgn_reader.h"

#include <cstring>

namespace pgnbase {

using namespace pgn_detail;

const char* describe(PgnErrorCode code) {
  switch (code) {
    case PgnErrorCode::UnterminatedTag:
      return "tag pair not closed: the line ends before its closing '\"' or ']'";
    case PgnErrorCode::MalformedTag:
      return "malformed tag pair: expected [Name \"value\"]";
    case PgnErrorCode::UnterminatedComment:
      return "'{' comment not closed before the end of the input";
    case PgnErrorCode::UnbalancedParenthesis:
      return "unbalanced parentheses: ')' without '(' or a variation still open at the end of the game";
    case PgnErrorCode::UnexpectedToken:
      return "unexpected token in movetext";
  }
  return "unknown PGN error";
}

void unescape_tag_value(std::string_view raw, std::string& out) {
  out.reserve(out.size() + raw.size());
  for (size_t i = 0; i < raw.size(); ++i) {
    const bool escape = raw[i] == '\\' && i + 1 < raw.size() && (raw[i + 1] == '"' || raw[i + 1] == '\\');
    if (escape) ++i;
    out.push_back(raw[i]);
  }
}

namespace {

// Number of bytes equal to c in [from, to), eight at a time: a zero byte of
// word ^ pattern marks a match (exact test from "Bit Twiddling Hacks", haszero),
// and up to 255 words' marks are summed per byte lane before folding.
uint64_t count_byte(const char* from, const char* to, char c) {
  constexpr uint64_t kOnes = 0x0101010101010101ULL;
  constexpr uint64_t kLow7 = 0x7F7F7F7F7F7F7F7FULL;
  const uint64_t pattern = kOnes * static_cast<uint8_t>(c);
  uint64_t count = 0;
  while (to - from >= 8) {
    uint64_t lanes = 0;
    for (int words = 0; words < 255 && to - from >= 8; ++words, from += 8) {
      uint64_t word;
      std::memcpy(&word, from, 8);
      const uint64_t x = word ^ pattern;
      lanes += (~(((x & kLow7) + kLow7) | x | kLow7)) >> 7;
    }
    for (; lanes != 0; lanes >>= 8) count += lanes & 0xFF;
  }
  for (; from < to; ++from) count += *from == c;
  return count;
}

// Line breaks whose first byte lies in [from, to): each '\n', and each '\r' not
// followed by '\n' (old Mac files). limit bounds the look at the byte after a '\r'.
uint64_t count_line_breaks(const char* from, const char* to, const char* limit) {
  uint64_t breaks = count_byte(from, to, '\n');
  for (const char* r = find_byte(from, to, '\r'); r < to; r = find_byte(r + 1, to, '\r')) {
    if (r + 1 == limit || r[1] != '\n') ++breaks;
  }
  return breaks;
}

}  // namespace

PgnReader::PgnReader(std::string_view text, uint64_t base_offset, uint64_t first_line)
    : begin_(text.data()),
      end_(text.data() + text.size()),
      cur_(text.data()),
      base_offset_(base_offset),
      counted_until_(text.data()),
      counted_line_(first_line),
      first_line_(first_line) {}

// Skips blanks, byte-order marks (also those of files concatenated later) and '%'
// escape lines; returns the first byte of the next game or nullptr.
const char* PgnReader::find_game_start() const {
  const char* p = cur_;
  for (;;) {
    p = skip_whitespace(p, end_);
    if (p == end_) return nullptr;
    if (starts_with(p, end_, kBom)) {
      p += sizeof(kBom) - 1;
    } else if (*p == '%' && at_column_zero(p)) {
      p = find_line_end(p, end_);
    } else {
      return p;
    }
  }
}

// Skips complete comments, blanks and '%' lines from p; stops at anything else,
// including a '{' that is never closed.
const char* PgnReader::skip_comments(const char* p) const {
  for (;;) {
    p = skip_whitespace(p, end_);
    if (p == end_) return p;
    if (*p == '{') {
      const char* close = find_byte(p + 1, end_, '}');
      if (close == end_) return p;
      p = close + 1;
    } else if (*p == ';' || (*p == '%' && at_column_zero(p))) {
      p = find_line_end(p, end_);
    } else {
      return p;
    }
  }
}

// First byte of the next line (after from's line) that starts with '[' + letter.
const char* PgnReader::next_tag_line(const char* from) const {
  const char* p = from;
  for (;;) {
    p = find_line_end(p, end_);
    if (p == end_) return end_;
    p = skip_blanks(p + 1, end_);
    if (end_ - p >= 2 && *p == '[' && is_letter(p[1])) return p;
  }
}

bool PgnReader::at_line_start(const char* p) const {
  while (p > begin_ && is_blank(p[-1])) --p;
  return p == begin_ || is_line_break(p[-1]);
}

// Whether the whitespace right before p holds a blank line (two line breaks).
bool PgnReader::after_blank_line(const char* p) const {
  int breaks = 0;
  for (; p > begin_ && is_space(p[-1]); --p) {
    if ((p[-1] == '\n' || (p[-1] == '\r' && *p != '\n')) && ++breaks == 2) return true;
  }
  return false;
}

uint64_t PgnReader::line_at(const char* p) {
  if (p >= counted_until_) {
    counted_line_ += count_line_breaks(counted_until_, p, end_);
  } else {
    counted_line_ -= count_line_breaks(p, counted_until_, end_);
  }
  counted_until_ = p;
  return counted_line_;
}

void PgnReader::fail(GameState& game, PgnErrorCode code, const char* at, const char* token_end) {
  if (game.failed) return;
  game.failed = true;
  game.error = PgnError{code, line_at(at), base_offset_ + static_cast<uint64_t>(at - begin_),
                        std::string_view(at, static_cast<size_t>(token_end - at))};
}

void PgnReader::fail_and_resync(GameState& game, PgnErrorCode code, const char* at) {
  fail(game, code, at, error_token_end(at, end_));
  cur_ = next_tag_line(at);
  const char* text_end = cur_;
  while (text_end > at && is_space(text_end[-1])) --text_end;
  game.last_token_end = text_end;
}

// Records a bad tag (its line, cut short, as the token) and moves past its line.
bool PgnReader::fail_tag(GameState& game, PgnErrorCode code, const char* open) {
  const char* line_end = find_line_end(open, end_);
  if (code == PgnErrorCode::UnterminatedTag && find_byte(open, line_end, ']') < line_end) {
    code = PgnErrorCode::MalformedTag;  // closed by ']' but not of the form [Name "value"]
  }
  const char* text_end = line_end;
  while (is_blank(text_end[-1])) --text_end;  // stops at open's '['
  // The token ends where the game's text does, so reading that text alone gives the same error.
  fail(game, code, open, text_end - open > kMaxErrorToken ? open + kMaxErrorToken : text_end);
  cur_ = line_end;
  game.last_token_end = text_end;
  return false;
}

const char* pgn_detail::find_quote_before_bracket(const char* value_begin, const char* end) {
  const char* line_end = find_line_end(value_begin, end);
  for (const char* quote = find_byte(value_begin, line_end, '"'); quote < line_end;
       quote = find_byte(quote + 1, line_end, '"')) {
    const char* bracket = skip_blanks(quote + 1, line_end);
    if (bracket < line_end && *bracket == ']') return quote;
  }
  return nullptr;
}

}  // namespace pgnbase
