// GET /api/game/ID: one game for the viewer: its header, every ply's move (SAN and UCI),
// the FEN after it, its comments (with [%clk] and [%eval] taken out as fields), NAGs and
// variations, and the game as export writes it.
#include <algorithm>
#include <vector>

#include "core/fen.h"
#include "core/move_code.h"
#include "core/san.h"
#include "query/annotation_text.h"
#include "query/json_object.h"
#include "query/pgn_writer.h"
#include "serve/api.h"
#include "store/game_annotations.h"
#include "store/blob_codec.h"
#include "store/clock_eval_text.h"
#include "store/game_query.h"
#include "store/games_sql.h"
#include "store/moves_codec.h"
#include "store/read_snapshot.h"

namespace pgnbase::serve {

namespace {

using query::JsonObject;

// The annotations of one ply, sorted out for the page.
struct PlyNotes {
  std::vector<std::string> comments, variations;
  std::vector<int64_t> nags;
  std::string clock, eval;
};

// Sorts one stored annotation text ("{...}", "$14", "(...)") into notes.
void add_note(std::string_view text, PlyNotes& notes) {
  if (text.empty()) return;
  if (text.front() == '$') {
    int64_t nag = 0;
    for (char c : text.substr(1))
      if (c >= '0' && c <= '9' && nag < 1000) nag = nag * 10 + (c - '0');
    notes.nags.push_back(nag);
  } else if (text.front() == '(') {
    notes.variations.emplace_back(text.substr(1, text.size() >= 2 && text.back() == ')' ? text.size() - 2 : text.size() - 1));
  } else {
    std::string comment(text.front() == '{' ? text.substr(1, text.size() - (text.back() == '}' ? 2 : 1)) : text);
    if (std::string clock = query::take_comment_command(comment, "clk"); !clock.empty()) notes.clock = clock;
    if (std::string eval = query::take_comment_command(comment, "eval"); !eval.empty()) notes.eval = eval;
    const size_t first = comment.find_first_not_of(' ');
    if (first == std::string::npos) return;
    comment = comment.substr(first, comment.find_last_not_of(' ') + 1 - first);
    notes.comments.push_back(comment);
  }
}

void append_strings(const std::vector<std::string>& items, std::string& out) {
  out += '[';
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += ',';
    query::append_json_string(items[i], out);
  }
  out += ']';
}

void append_notes(JsonObject& o, const PlyNotes& notes) {
  append_strings(notes.comments, o.key("comments"));
  std::string& nags = o.key("nags");
  nags += '[';
  for (size_t i = 0; i < notes.nags.size(); ++i) nags += (i ? "," : "") + std::to_string(notes.nags[i]);
  nags += ']';
  append_strings(notes.variations, o.key("variations"));
  // The text as the comment wrote it, and beside it the numbers (as export's JSON Lines
  // gives them) when the text parses: seconds left, centipawns or moves to mate from
  // White's side.
  if (!notes.clock.empty()) {
    o.text("clock", notes.clock);
    if (const auto clock = store::parse_clock(notes.clock)) store::append_clock_seconds(clock->tenths, o.key("clockSeconds"));
  }
  if (!notes.eval.empty()) {
    o.text("eval", notes.eval);
    if (const auto eval = store::parse_eval(notes.eval))
      o.number(eval->kind == store::EvalKind::Mate ? "mate" : "evalCentipawns", eval->value);
  }
}

[[noreturn]] void corrupt(int64_t id) {
  throw store::StoreError(store::StoreErrorKind::Corrupt, 0, "game " + std::to_string(id) + " is corrupt: its stored data does not decode");
}

}  // namespace

std::string game_json(store::Database& db, int64_t id) {
  store::ReadSnapshot snapshot(db);
  store::Statement s = db.prepare(store::build_game_by_id_query().sql);
  s.bind_int64(1, id);
  if (!s.step()) {
    store::Statement max_id = db.prepare(store::sql::kMaxGameId);
    const int64_t max = max_id.step() ? max_id.column_int64(0) : 0;
    throw NotFound{"no game " + std::to_string(id) + " (ids run from 1 to " + std::to_string(max) + ")"};
  }
  store::GameRow row;
  store::read_game_row(s, row);
  std::vector<MoveCode> codes;
  Board start;
  std::vector<store::TagView> tags;
  store::AnnotationReader annotations;
  if (!store::stored_start_position(row.variant, row.start_fen, start) || !store::decode_moves(row.moves, start, codes) ||
      codes.size() != size_t(row.plies) || !store::decode_tags(row.tags, tags))
    corrupt(id);
  if (!annotations.read(row.annotations)) corrupt(id);
  std::vector<PlyNotes> notes(codes.size() + 2);  // [0] before the first move, [plies + 1] after the last
  for (const store::AnnotationView& a : annotations.entries()) add_note(a.text, notes[std::min<size_t>(a.ply, codes.size() + 1)]);
  std::string pgn;
  if (!query::PgnWriter().write(row, codes, pgn)) corrupt(id);
  const CastlingStyle castling = row.variant == store::Variant::Chess960 ? CastlingStyle::XFen : CastlingStyle::Auto;

  std::string out;
  JsonObject top(out);
  top.number("id", row.id);
  std::string& header = top.key("tags");
  header += '[';
  auto add_tag = [&](std::string_view name, std::string_view value) {
    if (header.back() != '[') header += ',';
    header += '[';
    query::append_json_string(name, header);
    header += ',';
    query::append_json_string(value, header);
    header += ']';
  };
  store::visit_column_tags(row, add_tag);
  for (const store::TagView& t : tags) add_tag(t.name, t.value);
  header += ']';
  top.text("white", row.white.value_or("?")).text("black", row.black.value_or("?"));
  top.number("whiteElo", row.white_elo).number("blackElo", row.black_elo);
  top.text("result", store::result_token(row.result));
  top.text("eco", row.eco.value_or("")).text("opening", row.opening.value_or(""));
  top.text("startFen", write_fen(start, castling));
  top.number("plies", row.plies);
  append_notes(top, notes[0]);
  std::string& moves = top.key("moves");
  moves += '[';
  Board board = start;
  UndoInfo undo;
  std::string san, uci;
  for (size_t ply = 0; ply < codes.size(); ++ply) {
    Move m;
    if (!decode_stored_move(board, codes[ply], m)) corrupt(id);
    san.clear();
    uci.clear();
    if (m.is_null()) {
      san = uci = "--";
    } else {
      append_san(board, m, san);
      append_move(board, m, MoveStyle::Uci, english(), uci);
    }
    play(board, m, undo);
    if (ply) moves += ',';
    JsonObject o(moves);
    o.number("ply", int64_t(ply + 1)).text("san", san).text("uci", uci).text("fen", write_fen(board, castling));
    append_notes(o, notes[ply + 1]);
  }
  moves += ']';
  const PlyNotes& after = notes[codes.size() + 1];
  append_strings(after.comments, top.key("after"));
  top.text("pgn", pgn);
  return out;
}

}  // namespace pgnbase::serve
