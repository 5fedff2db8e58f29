#include "store/clock_eval_codec.h"

#include <limits>
#include <optional>

#include "store/annotations.h"
#include "store/varint.h"

namespace pgnbase::store {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Where the text after a ply's leading NAGs ("$4 $13 ") begins: past each "$N" and the
// space after it; at the end of the text when it ends with a NAG.
size_t skip_leading_nags(std::string_view text) {
  size_t p = 0;
  while (p < text.size() && text[p] == '$') {
    size_t q = p + 1;
    while (q < text.size() && is_digit(text[q])) ++q;
    if (q == p + 1) break;
    if (q == text.size()) return q;
    if (text[q] != ' ') break;
    p = q + 1;
  }
  return p;
}

void append_commands(const LiftedCommands& lifted, std::string& out) {
  auto clock = [&] {
    out += "[%clk ";
    append_clock(lifted.clock, (lifted.layout & LIFT_TENTHS) != 0, out);
    out += ']';
  };
  auto eval = [&] {
    out += "[%eval ";
    append_eval(lifted.eval, out);
    out += ']';
  };
  const bool has_clock = lifted.layout & LIFT_CLOCK, has_eval = lifted.layout & LIFT_EVAL;
  if (has_clock && (lifted.layout & LIFT_CLOCK_FIRST)) clock();
  if (has_eval) {
    if (out.back() == ']') out += ' ';
    eval();
  }
  if (has_clock && !(lifted.layout & LIFT_CLOCK_FIRST)) {
    if (out.back() == ']') out += ' ';
    clock();
  }
}

uint64_t zigzag(int64_t v) { return (uint64_t(v) << 1) ^ uint64_t(v >> 63); }
int64_t unzigzag(uint64_t v) { return int64_t(v >> 1) ^ -int64_t(v & 1); }

// Whether a value parse_clock read is spelled as append_clock writes it back: parse_clock
// takes minutes, seconds and tenths in append_clock's own digits, so only an hour with a
// leading zero ("01:30:00") differs.
bool clock_spelled_as_written(std::string_view value) { return !(value[0] == '0' && value[1] != ':'); }
// Whether an evaluation parse_eval read is spelled as append_eval writes it back.
bool eval_spelled_as_written(std::string_view value, Evaluation eval) {
  thread_local std::string written;
  written.clear();
  append_eval(eval, written);
  return written == value;
}

}  // namespace

bool restore_commands(std::string_view stored, const LiftedCommands& lifted, std::string& out) {
  if (!(lifted.layout & (LIFT_CLOCK | LIFT_EVAL))) return false;
  const size_t p = skip_leading_nags(stored);
  out.append(stored.substr(0, p));
  if (lifted.layout & LIFT_JOINED) {  // "{rest}" gets the commands in front of its rest
    if (p == stored.size() || stored[p] != '{') return false;
    out += '{';
    append_commands(lifted, out);
    out += ' ';
    out.append(stored.substr(p + 1));
    return true;
  }
  if (p > 0 && stored[p - 1] != ' ') out += ' ';
  out += '{';
  append_commands(lifted, out);
  out += '}';
  if (p < stored.size()) {
    out += ' ';
    out.append(stored.substr(p));
  }
  return true;
}

bool lift_commands(uint32_t ply, std::string_view text, std::string& stored, LiftedCommands& lifted) {
  if (ply == 0) return false;
  const size_t p = skip_leading_nags(text);
  if (p == text.size() || text[p] != '{') return false;
  const size_t close = text.find('}', p + 1);
  if (close == std::string_view::npos) return false;
  const std::string_view comment = text.substr(p + 1, close - p - 1);
  lifted = LiftedCommands{ply, 0, 0, {}};
  size_t pos = 0;       // in comment: the next command, or the rest
  size_t after = 0;     // in comment: just past the last lifted command
  bool spelled = true;  // each lifted value as append_clock or append_eval writes it
  while (pos < comment.size()) {
    const std::string_view at = comment.substr(pos);
    const bool clock = at.starts_with("[%clk ") && !(lifted.layout & LIFT_CLOCK);
    const bool eval = at.starts_with("[%eval ") && !(lifted.layout & LIFT_EVAL);
    if (!clock && !eval) break;
    const size_t start = pos + (clock ? 6 : 7), end = comment.find(']', start);
    if (end == std::string_view::npos) break;
    const std::string_view value = comment.substr(start, end - start);
    if (clock) {
      const std::optional<ParsedClock> c = parse_clock(value);
      if (!c) break;
      lifted.clock = c->tenths;
      lifted.layout |= LIFT_CLOCK | (c->fraction ? LIFT_TENTHS : 0) | (lifted.layout == 0 ? LIFT_CLOCK_FIRST : 0);
      spelled = spelled && clock_spelled_as_written(value);
    } else {
      const std::optional<Evaluation> e = parse_eval(value);
      if (!e) break;
      lifted.eval = *e;
      lifted.layout |= LIFT_EVAL;
      spelled = spelled && eval_spelled_as_written(value, *e);
    }
    after = end + 1;
    if (after == comment.size() || comment[after] != ' ') break;
    pos = after + 1;
  }
  if (lifted.layout == 0) return false;
  stored.clear();
  // The whole text is one comment of commands only (lichess's layouts, nearly every lifted
  // ply): restore_commands would write "{commands}", the text exactly when each value is
  // spelled as it writes them, so that test stands for writing it back.
  if (p == 0 && close + 1 == text.size() && after == comment.size()) return spelled;
  if (after < comment.size()) {  // the comment goes on: "{rest}" stays
    if (comment[after] != ' ' || after + 1 == comment.size()) return false;
    lifted.layout |= LIFT_JOINED;
    stored.append(text.substr(0, p));
    stored += '{';
    stored.append(comment.substr(after + 1));
    stored.append(text.substr(close));
  } else {  // the whole comment goes, with one of the spaces around it
    std::string_view before = text.substr(0, p), rest = text.substr(close + 1);
    if (!before.empty() && before.back() == ' ') before.remove_suffix(1);
    if (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
    stored.append(before);
    if (!before.empty() && !rest.empty()) stored += ' ';
    stored.append(rest);
  }
  // One buffer per thread: a lichess game checks a clock at every move.
  thread_local std::string check;
  check.clear();
  return restore_commands(stored, lifted, check) && check == text;
}

void encode_lifted(const std::vector<LiftedCommands>& lifted, std::string& out) {
  bool tenths = false;
  for (const LiftedCommands& l : lifted) tenths |= (l.layout & LIFT_TENTHS) != 0;
  // Runs of equal layouts over plies 1, 2, ..., the last lifted ply (a lifted ply adds
  // at most two: the gap before it and its own). One buffer per thread: a lichess game
  // has a run at nearly every ply change of layout.
  thread_local std::vector<std::pair<uint8_t, uint64_t>> runs;
  runs.clear();
  uint32_t next_ply = 1;
  auto add = [&](uint8_t layout, uint64_t plies) {
    if (plies == 0) return;
    if (!runs.empty() && runs.back().first == layout) runs.back().second += plies;
    else runs.emplace_back(layout, plies);
  };
  for (const LiftedCommands& l : lifted) {
    add(0, l.ply - next_ply);
    add(l.layout, 1);
    next_ply = l.ply + 1;
  }
  VarintAppender<std::string> section(out, 2 + 2 * runs.size() + 2 * lifted.size());
  section.put(tenths ? 1 : 0);
  section.put(runs.size());
  for (const auto& [layout, plies] : runs) {
    section.put_byte(layout);
    section.put(plies);
  }
  int64_t previous_clock[2] = {0, 0};
  for (const LiftedCommands& l : lifted) {
    if (!(l.layout & LIFT_CLOCK)) continue;
    const int64_t value = tenths ? l.clock : l.clock / 10;
    section.put(zigzag(value - previous_clock[l.ply & 1]));
    previous_clock[l.ply & 1] = value;
  }
  int64_t previous_cp = 0;
  for (const LiftedCommands& l : lifted) {
    if (!(l.layout & LIFT_EVAL)) continue;
    if (l.eval.kind == EvalKind::Mate) {
      section.put(zigzag(l.eval.value) << 1 | 1);
    } else {
      section.put(zigzag(int64_t(l.eval.value) - previous_cp) << 1);
      previous_cp = l.eval.value;
    }
  }
  section.done();
}

bool decode_lifted(std::string_view section, std::vector<LiftedCommands>& out) {
  out.clear();
  size_t pos = 0;
  uint64_t flags, runs;
  if (!read_varint(section, pos, flags) || flags > 1 || !read_varint(section, pos, runs) || runs > section.size())
    return false;
  const bool tenths = flags == 1;
  uint64_t ply = 1;
  for (uint64_t r = 0; r < runs; ++r) {
    uint64_t plies;
    if (pos >= section.size()) return false;
    const uint8_t layout = uint8_t(section[pos++]);
    if (!read_varint(section, pos, plies) || plies == 0 || plies > UINT32_MAX - ply) return false;
    if (layout != 0) {
      const bool clock = layout & LIFT_CLOCK;
      if (layout > LIFT_ALL || !(layout & (LIFT_CLOCK | LIFT_EVAL)) || (!clock && (layout & (LIFT_CLOCK_FIRST | LIFT_TENTHS))) ||
          ((layout & LIFT_TENTHS) && !tenths))
        return false;
      // Each lifted ply takes at least one byte below: a run longer than the bytes left is corrupt.
      if (plies > section.size() - pos) return false;
      for (uint64_t i = 0; i < plies; ++i) out.push_back(LiftedCommands{uint32_t(ply + i), layout, 0, {}});
    }
    ply += plies;
  }
  int64_t previous_clock[2] = {0, 0};
  for (LiftedCommands& l : out) {
    if (!(l.layout & LIFT_CLOCK)) continue;
    uint64_t delta;
    if (!read_varint(section, pos, delta) || delta > (uint64_t{1} << 40)) return false;  // no overflow below
    const int64_t value = previous_clock[l.ply & 1] + unzigzag(delta);
    const int64_t clock = tenths ? value : value * 10;
    if (value < 0 || clock > kMaxClockTenths || (!(l.layout & LIFT_TENTHS) && clock % 10 != 0)) return false;
    l.clock = int32_t(clock);
    previous_clock[l.ply & 1] = value;
  }
  int64_t previous_cp = 0;
  for (LiftedCommands& l : out) {
    if (!(l.layout & LIFT_EVAL)) continue;
    uint64_t v;
    if (!read_varint(section, pos, v)) return false;
    const int64_t x = unzigzag(v >> 1);
    if (v & 1) {
      if (x < -99999 || x > 99999) return false;
      l.eval = {EvalKind::Mate, int32_t(x)};
    } else {
      const int64_t cp = previous_cp + x;
      if (cp < -999999999 || cp > 999999999) return false;
      l.eval = {EvalKind::Centipawns, int32_t(cp)};
      previous_cp = cp;
    }
  }
  return pos == section.size();
}

}  // namespace pgnbase::store
