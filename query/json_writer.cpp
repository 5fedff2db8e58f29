#include "query/json_writer.h"

#include "core/san.h"
#include "indexer/store/blob_codec.h"

namespace pgnbase::query {

namespace {

// Length of the valid UTF-8 sequence starting at s[i] (non-ASCII lead byte), or 0.
size_t utf8_sequence(std::string_view s, size_t i) {
  auto at = [&](size_t k) { return i + k < s.size() ? uint8_t(s[i + k]) : uint8_t(0); };
  auto cont = [](uint8_t c) { return (c & 0xC0) == 0x80; };
  const uint8_t c = at(0);
  if (c >= 0xC2 && c <= 0xDF) return cont(at(1)) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    const uint8_t c1 = at(1);
    const bool ok = c == 0xE0 ? (c1 >= 0xA0 && c1 <= 0xBF) : c == 0xED ? (c1 >= 0x80 && c1 <= 0x9F) : cont(c1);
    return ok && cont(at(2)) ? 3 : 0;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    const uint8_t c1 = at(1);
    const bool ok = c == 0xF0 ? (c1 >= 0x90 && c1 <= 0xBF) : c == 0xF4 ? (c1 >= 0x80 && c1 <= 0x8F) : cont(c1);
    return ok && cont(at(2)) && cont(at(3)) ? 4 : 0;
  }
  return 0;
}

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
    if (size_t n = utf8_sequence(text, i)) {
      out.append(text.substr(i, n));
      i += n;
      continue;
    }
    out += char(0xC0 | (c >> 6));  // the byte as a Latin-1 character
    out += char(0x80 | (c & 0x3F));
    ++i;
  }
  out += '"';
}

bool JsonGameWriter::write(const GameRow& row, std::span<const MoveCode> codes, std::span<const uint32_t> plies,
                           std::string& out, std::optional<uint32_t> pattern_ply) {
  Board board;
  if (!set_start_position(row.variant, row.start_fen, board)) return false;
  if (!indexer::decode_tags(row.tags, tags_)) return false;  // the tags payload is stored unframed
  const size_t rollback = out.size();
  out += "{\"id\":";
  out += std::to_string(row.id);
  out += ",\"tags\":{";
  std::vector<std::string_view> written;
  bool first = true;
  auto tag = [&](std::string_view name, std::string_view value) {
    for (std::string_view w : written)
      if (w == name) return;
    written.push_back(name);
    if (!first) out += ',';
    first = false;
    append_json_string(name, out);
    out += ':';
    append_json_string(value, out);
  };
  visit_column_tags(row, tag);
  for (const indexer::TagView& t : tags_) tag(t.name, t.value);
  out += "},";
  append_key("variant", out);
  out += row.variant == 1 ? "\"chess960\"," : "\"standard\",";
  append_optional("start_fen", row.start_fen, out);
  append_key("result", out);
  append_json_string(result_token(row.result), out);
  out += ',';
  append_optional("eco", row.eco, out);
  append_key("eco_source", out);
  out += row.eco_source == 1 ? "\"tag\"," : row.eco_source == 2 ? "\"computed\"," : "null,";
  append_optional("opening", row.opening, out);
  append_key("plies", out);
  out += std::to_string(codes.size());
  out += ",\"moves\":[";
  UndoInfo undo;
  for (size_t i = 0; i < codes.size(); ++i) {
    Move m;
    if (!move_from_code(board, codes[i], m)) {
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
  if (pattern_ply) out += ",\"pattern_ply\":" + std::to_string(*pattern_ply);
  out += "}\n";
  return true;
}

}  // namespace pgnbase::query
