#include "query/json_writer.h"

#include "core/san.h"
#include "store/blob_codec.h"
#include "store/moves_codec.h"
#include "query/text_encoding.h"

namespace pgnbase::query {

namespace {

void append_key(std::string_view key, std::string& out) {
  out += '"';
  out += key;
  out += "\":";
}

void append_optional(std::string_view key, const std::optional<std::string_view>& value, std::string& out) {
  append_key(key, out);
  if (value) append_json_string(*value, out);
  else out += "null";
  out += ',';
}

// ,"NAME":[v1,null,...]: one element per move, value(ply data) or null for moves without.
template <typename Value>
void append_per_ply(std::string_view name, size_t plies, const std::vector<store::PlyClockEval>& data, Value value,
                    std::string& out) {
  out += ',';
  append_key(name, out);
  out += '[';
  size_t next = 0;
  for (size_t ply = 1; ply <= plies; ++ply) {
    if (ply > 1) out += ',';
    while (next < data.size() && data[next].ply < ply) ++next;
    if (next == data.size() || data[next].ply != ply || !value(data[next], out)) out += "null";
  }
  out += ']';
}

// The game's clocks, evaluations and mates per move (JsonGameWriter's comment).
void append_clock_evals(size_t plies, const std::vector<store::PlyClockEval>& data, std::string& out) {
  bool clocks = false, evals = false;
  for (const store::PlyClockEval& d : data) {
    if (d.ply > plies) break;
    clocks |= d.clock >= 0;
    evals |= d.eval.kind != store::EvalKind::None;
  }
  if (clocks)
    append_per_ply("clocks", plies, data, [](const store::PlyClockEval& d, std::string& o) {
    if (d.clock < 0) return false;
    store::append_clock_seconds(d.clock, o);
    return true;
  }, out);
  if (!evals) return;
  append_per_ply("evals", plies, data, [](const store::PlyClockEval& d, std::string& o) {
    if (d.eval.kind != store::EvalKind::Centipawns) return false;
    o += std::to_string(d.eval.value);
    return true;
  }, out);
  append_per_ply("mates", plies, data, [](const store::PlyClockEval& d, std::string& o) {
    if (d.eval.kind != store::EvalKind::Mate) return false;
    o += std::to_string(d.eval.value);
    return true;
  }, out);
}

}  // namespace

void append_json_string(std::string_view text, std::string& out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  for (size_t i = 0; i < text.size();) {
    const uint8_t c = uint8_t(text[i]);
    if (c < 0x80) {
      switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        default:
          if (c < 0x20 || c == 0x7F) {
            out += "\\u00";
            out += kHex[c >> 4];
            out += kHex[c & 15];
          } else {
            out += char(c);
          }
      }
      ++i;
      continue;
    }
    const Character ch = read_character(text, i);  // valid UTF-8, or a Latin-1 byte
    if (is_control(ch.code_point)) {  // C1: valid JSON raw, but a terminal may act on it
      out += "\\u00";
      out += kHex[ch.code_point >> 4];
      out += kHex[ch.code_point & 15];
    } else {
      append_utf8(ch.code_point, out);
    }
    i += ch.bytes;
  }
  out += '"';
}

TagNameSet::TagNameSet() : names_(16, std::hash<std::string_view>(), CountingEqual{&comparisons_}) {}

bool TagNameSet::insert(std::string_view name) { return names_.insert(name).second; }

void TagNameSet::clear() {
  // clear() costs the bucket count: after a game with thousands of tags start afresh,
  // so the small games that follow do not pay for it.
  if (names_.bucket_count() > 1024) names_ = Set(16, std::hash<std::string_view>(), CountingEqual{&comparisons_});
  else names_.clear();
}

bool JsonGameWriter::write(const store::GameRow& row, std::span<const MoveCode> codes, std::span<const uint32_t> plies,
                           std::string& out, std::optional<uint32_t> pattern_ply) {
  Board board;
  if (!store::stored_start_position(row.variant, row.start_fen, board)) return false;
  if (!store::decode_tags(row.tags, tags_)) return false;  // the tags payload is stored unframed
  if (!annotations_.read(row.annotations)) return false;
  const size_t rollback = out.size();
  out += "{\"id\":";
  out += std::to_string(row.id);
  out += ",\"tags\":{";
  written_.clear();
  bool first = true;
  auto tag = [&](std::string_view name, std::string_view value) {
    if (!written_.insert(name)) return;
    if (!first) out += ',';
    first = false;
    append_json_string(name, out);
    out += ':';
    append_json_string(value, out);
  };
  store::visit_column_tags(row, tag);
  for (const store::TagView& t : tags_) tag(t.name, t.value);
  out += "},";
  append_key("variant", out);
  out += row.variant == store::Variant::Chess960 ? "\"chess960\"," : "\"standard\",";
  append_optional("start_fen", row.start_fen, out);
  append_key("result", out);
  append_json_string(store::result_token(row.result), out);
  out += ',';
  append_optional("eco", row.eco, out);
  append_key("eco_source", out);
  out += row.eco_source == store::EcoSource::Tag        ? "\"tag\","
         : row.eco_source == store::EcoSource::Computed ? "\"computed\","
                                                          : "null,";
  append_optional("opening", row.opening, out);
  append_key("plies", out);
  out += std::to_string(codes.size());
  out += ",\"moves\":[";
  UndoInfo undo;
  for (size_t i = 0; i < codes.size(); ++i) {
    Move m;
    if (!decode_stored_move(board, codes[i], m)) {
      out.resize(rollback);
      return false;
    }
    move_.clear();
    if (m.is_null()) move_ = "--";
    else append_san(board, m, move_);
    if (i) out += ',';
    append_json_string(move_, out);
    play(board, m, undo);
  }
  out += ']';
  if (!plies.empty()) {
    out += ",\"fen_plies\":[";
    for (size_t i = 0; i < plies.size(); ++i) {
      if (i) out += ',';
      out += std::to_string(plies[i]);
    }
    out += ']';
  }
  const std::vector<store::PlyClockEval>& clock_evals = annotations_.clock_evals();
  append_clock_evals(codes.size(), clock_evals, out);
  if (pattern_ply) out += ",\"pattern_ply\":" + std::to_string(*pattern_ply);
  out += "}\n";
  return true;
}

}  // namespace pgnbase::query
