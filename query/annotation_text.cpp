#include "query/annotation_text.h"

#include <cctype>

namespace pgnbase::query {

std::string_view nag_symbol(int nag) {
  switch (nag) {
    case 1: return "!";
    case 2: return "?";
    case 3: return "!!";
    case 4: return "??";
    case 5: return "!?";
    case 6: return "?!";
    case 7: return "\u25A1";  // □ only move
    case 10: return "=";
    case 13: return "\u221E";  // ∞ unclear
    case 14: return "\u2A72";  // ⩲ White slightly better
    case 15: return "\u2A71";  // ⩱
    case 16: return "\u00B1";  // ±
    case 17: return "\u2213";  // ∓
    case 18: return "+\u2212";
    case 19: return "\u2212+";
    case 22: case 23: return "\u2A00";  // ⨀ zugzwang
    case 32: case 33: return "\u27F3";  // ⟳ development
    case 36: case 37: return "\u2192";  // → initiative
    case 40: case 41: return "\u2191";  // ↑ attack
    case 132: case 133: return "\u21C6";  // ⇆ counterplay
    case 140: return "\u2206";  // ∆ with the idea
    case 146: return "N";       // novelty
    default: return {};
  }
}

std::string take_comment_command(std::string& comment, std::string_view name) {
  const std::string opening = "[%" + std::string(name) + " ";
  const size_t at = comment.find(opening);
  if (at == std::string::npos) return {};
  const size_t close = comment.find(']', at);
  if (close == std::string::npos) return {};
  std::string value = comment.substr(at + opening.size(), close - at - opening.size());
  comment.erase(at, close - at + 1);
  while (!value.empty() && value.back() == ' ') value.pop_back();
  return value;
}

namespace {

bool blank(std::string_view text) {
  for (char c : text)
    if (!std::isspace(static_cast<unsigned char>(c))) return false;
  return true;
}

}  // namespace

ReadableAnnotation readable_annotation(std::string_view text) {
  ReadableAnnotation out;
  size_t i = 0;
  auto append = [&](std::string_view piece) {
    if (piece.empty()) return;
    if (!out.text.empty() && out.text.back() != ' ') out.text += ' ';
    out.text += piece;
  };
  while (i < text.size()) {
    if (text[i] == '{') {
      const size_t close = text.find('}', i);
      const size_t end = close == std::string_view::npos ? text.size() : close + 1;
      std::string comment(text.substr(i + 1, (close == std::string_view::npos ? text.size() : close) - i - 1));
      if (out.clock.empty()) out.clock = take_comment_command(comment, "clk");
      if (out.eval.empty()) {
        out.eval = take_comment_command(comment, "eval");
        if (!out.eval.empty() && out.eval[0] != '#' && out.eval[0] != '-' && out.eval[0] != '+') out.eval.insert(0, "+");
      }
      if (!blank(comment)) {
        const size_t first = comment.find_first_not_of(' '), last = comment.find_last_not_of(' ');
        append("{" + comment.substr(first, last - first + 1) + "}");
      }
      i = end;
    } else if (text[i] == '$' && i + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1]))) {
      size_t end = i + 1;
      int nag = 0;
      while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end])) && nag < 1000) nag = nag * 10 + (text[end++] - '0');
      const std::string_view symbol = nag_symbol(nag);
      append(symbol.empty() ? text.substr(i, end - i) : symbol);
      i = end;
    } else {
      // A variation or other text: kept as written, up to the next comment or NAG.
      size_t end = text.find_first_of("{$", i + 1);
      if (end == std::string_view::npos) end = text.size();
      std::string_view piece = text.substr(i, end - i);
      while (!piece.empty() && piece.back() == ' ') piece.remove_suffix(1);
      while (!piece.empty() && piece.front() == ' ') piece.remove_prefix(1);
      append(piece);
      i = end;
    }
  }
  return out;
}

}  // namespace pgnbase::query
