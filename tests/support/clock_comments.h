// A brute-force reading of lichess-style PGN text for tests: each game's main-line
// clocks and evaluations straight from its comment text, written apart from pgnbase's
// parsers, so that what the programs give out can be checked against it. Good for files
// written as lichess writes them (tags, a blank line, movetext with "1." numbers,
// "{ }" comments, "( )" variations, "$N" NAGs).
#pragma once

#include <cctype>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pgnbase::test {

struct CommentPly {
  std::optional<int> clock_tenths;
  std::optional<int> centipawns, mate;
  bool operator==(const CommentPly&) const = default;
};

struct CommentGame {
  std::string site;               // the Site tag
  std::string tags, movetext;     // as in the file
  std::vector<CommentPly> plies;  // one per main-line move
  // Per ply, the values as the file wrote them ("" when none): "0:01:00", "0.17", "#-3".
  std::vector<std::string> clock_texts, eval_texts;
};

// The digits of text (all of it, 1 to max_digits of them) as a number; nullopt otherwise.
inline std::optional<int> digits_of(std::string_view text, size_t max_digits) {
  if (text.empty() || text.size() > max_digits) return std::nullopt;
  int value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  return value;
}

// A clock "H:MM:SS" or "H:MM:SS.d" (hours one or two digits) in tenths of a second.
inline std::optional<int> clock_of(std::string_view text) {
  const size_t first = text.find(':'), second = text.find(':', first + 1), dot = text.find('.');
  if (first == std::string_view::npos || second != first + 3 || (dot != std::string_view::npos && dot != second + 3))
    return std::nullopt;
  const std::optional<int> hours = digits_of(text.substr(0, first), 2), minutes = digits_of(text.substr(first + 1, 2), 2),
                           seconds = digits_of(text.substr(second + 1, 2), 2);
  const std::optional<int> tenths = dot == std::string_view::npos ? 0 : digits_of(text.substr(dot + 1), 1);
  if (!hours || !minutes || !seconds || !tenths || *minutes > 59 || *seconds > 59 ||
      (dot == std::string_view::npos && text.size() != second + 3))
    return std::nullopt;
  return ((*hours * 60 + *minutes) * 60 + *seconds) * 10 + *tenths;
}

// Reads one [%eval] value into ply (centipawns or mate); nothing when it is malformed.
inline void read_eval(std::string_view text, CommentPly& ply) {
  if (const size_t comma = text.find(','); comma != std::string_view::npos) {
    if (!digits_of(text.substr(comma + 1), 4)) return;
    text = text.substr(0, comma);
  }
  const bool mate = !text.empty() && text[0] == '#';
  if (mate) text.remove_prefix(1);
  int sign = 1;
  if (!text.empty() && (text[0] == '+' || text[0] == '-')) {
    sign = text[0] == '-' ? -1 : 1;
    text.remove_prefix(1);
  }
  if (mate) {
    if (const std::optional<int> n = digits_of(text, 5)) ply.mate = sign * *n;
    return;
  }
  const size_t dot = text.find('.');
  const std::optional<int> pawns = digits_of(text.substr(0, dot), 7);
  std::string decimals = dot == std::string_view::npos ? "0" : std::string(text.substr(dot + 1));
  if (decimals.size() == 1) decimals += '0';
  const std::optional<int> hundredths = digits_of(decimals, 2);
  if (pawns && hundredths) ply.centipawns = sign * (*pawns * 100 + *hundredths);
}

// The value of the first "[%NAME value]" in a comment (blanks around it dropped), or
// nullopt when there is none.
inline std::optional<std::string_view> command_in(std::string_view comment, std::string_view name) {
  for (size_t at = comment.find("[%"); at != std::string_view::npos; at = comment.find("[%", at + 1)) {
    size_t p = at + 2 + name.size();
    if (comment.substr(at + 2, name.size()) != name || p >= comment.size() || !std::isspace(uint8_t(comment[p]))) continue;
    const size_t close = comment.find(']', p);
    if (close == std::string_view::npos) return std::nullopt;
    std::string_view value = comment.substr(p, close - p);
    while (!value.empty() && std::isspace(uint8_t(value.front()))) value.remove_prefix(1);
    while (!value.empty() && std::isspace(uint8_t(value.back()))) value.remove_suffix(1);
    return value;
  }
  return std::nullopt;
}

// A movetext token that is not a move: a move number ("12." "12..."), a NAG, a result.
inline bool not_a_move(std::string_view token) {
  if (token == "1-0" || token == "0-1" || token == "1/2-1/2" || token == "*") return true;
  if (token.size() > 1 && token[0] == '$') return digits_of(token.substr(1), 3).has_value();
  const size_t dots = token.find('.');
  return dots != std::string_view::npos && dots > 0 && digits_of(token.substr(0, dots), 6) &&
         token.find_first_not_of('.', dots) == std::string_view::npos;
}

// Every game of a lichess-style PGN text, in file order.
inline std::vector<CommentGame> read_comment_games(std::string_view text) {
  std::vector<CommentGame> games;
  size_t at = 0;
  while ((at = text.find("[Event ", at)) != std::string_view::npos) {
    size_t end = text.find("\n[Event ", at + 1);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view game = text.substr(at, end - at);
    at = end;
    CommentGame g;
    if (const size_t site = game.find("[Site \""); site != std::string_view::npos)
      g.site = std::string(game.substr(site + 7, game.find('"', site + 7) - site - 7));
    const size_t blank = game.find("\n\n");
    if (blank == std::string_view::npos) continue;
    g.tags = std::string(game.substr(0, blank));
    g.movetext = std::string(game.substr(blank + 2));
    int depth = 0;
    bool clock_seen = false, eval_seen = false;
    for (size_t i = 0; i < g.movetext.size();) {
      const char c = g.movetext[i];
      if (c == '{') {
        const size_t close = g.movetext.find('}', i);
        const std::string_view comment = std::string_view(g.movetext).substr(i + 1, close - i - 1);
        i = close + 1;
        if (depth > 0 || g.plies.empty()) continue;
        if (!clock_seen)
          if (const std::optional<std::string_view> value = command_in(comment, "clk")) {
            clock_seen = true;
            g.clock_texts.back() = *value;
            g.plies.back().clock_tenths = clock_of(*value);
          }
        if (!eval_seen)
          if (const std::optional<std::string_view> value = command_in(comment, "eval")) {
            eval_seen = true;
            g.eval_texts.back() = *value;
            read_eval(*value, g.plies.back());
          }
      } else if (c == '(' || c == ')') {
        depth += c == '(' ? 1 : -1;
        ++i;
      } else if (std::isspace(uint8_t(c))) {
        ++i;
      } else {
        size_t j = i;
        while (j < g.movetext.size() && !std::isspace(uint8_t(g.movetext[j])) &&
               std::string_view("{}()").find(g.movetext[j]) == std::string_view::npos)
          ++j;
        const std::string_view token = std::string_view(g.movetext).substr(i, j - i);
        i = j;
        if (depth > 0 || not_a_move(token)) continue;
        g.plies.emplace_back();
        g.clock_texts.emplace_back();
        g.eval_texts.emplace_back();
        clock_seen = eval_seen = false;
      }
    }
    games.push_back(std::move(g));
  }
  return games;
}

}  // namespace pgnbase::test
