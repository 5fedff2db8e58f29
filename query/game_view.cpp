#include "query/game_view.h"

#include <algorithm>
#include <vector>

#include "core/fen.h"
#include "core/move_code.h"
#include "store/blob_codec.h"
#include "store/moves_codec.h"
#include "query/annotation_text.h"
#include "store/game_annotations.h"
#include "query/display_width.h"
#include "store/game_query.h"
#include "query/json_writer.h"
#include "store/read_snapshot.h"
#include "store/games_sql.h"
#include "store/sources_sql.h"
#include "query/text_encoding.h"

namespace pgnbase::query {

namespace {

// The tags, aligned "Name  value" lines, as export orders them.
void append_tags(const store::GameRow& row, const std::vector<store::TagView>& other_tags, std::string& out) {
  std::vector<std::pair<std::string_view, std::string>> lines;
  store::visit_column_tags(row, [&](std::string_view name, std::string_view value) { lines.emplace_back(name, value); });
  bool has_eco = false, has_opening = false;
  for (const store::TagView& t : other_tags) {
    has_opening |= t.name == "Opening";
    lines.emplace_back(t.name, std::string(t.value));
  }
  for (const auto& [name, value] : lines) has_eco |= name == "ECO";
  if (!has_eco && row.eco) lines.emplace_back("ECO", std::string(*row.eco) + " (computed)");
  if (!has_opening && row.opening) lines.emplace_back("Opening", std::string(*row.opening));
  size_t width = 0;
  for (const auto& line : lines) width = std::max(width, display_width(printable(line.first)));
  for (const auto& [name, value] : lines) {
    const std::string shown = printable(name);
    out += shown;
    out.append(width + 2 - display_width(shown), ' ');
    out += printable(value);
    out += '\n';
  }
}

// A clock column's text: "0:02:59", "0:00:05.3".
std::string clock_text(int32_t tenths) {
  std::string out;
  store::append_clock(tenths, tenths % 10 != 0, out);
  return out;
}

// An evaluation column's text: "+0.17", "-1.5", "#-3".
std::string eval_text(store::Evaluation eval) {
  std::string out = eval.kind == store::EvalKind::Centipawns && eval.value >= 0 ? "+" : "";
  store::append_eval(eval, out);
  return out;
}

constexpr size_t kMoveColumn = 10;  // White's move and its padding: "Nbxd7+" fits with room

// The moves, one full move per line ("12. Nf3       Nc6"), each move's annotations
// right after it on the same line.
bool append_moves(const store::GameRow& row, std::span<const MoveCode> codes, const Board& start,
                  store::AnnotationReader& reader, const ExportNotation& notation, std::string& out) {
  const std::vector<store::AnnotationView>& annotations = reader.entries();
  const std::vector<store::PlyClockEval>& clock_evals = reader.clock_evals();
  Board board = start;
  size_t next = 0;
  // lichess's clocks and evaluations (the stored numbers) stand in two columns after each
  // move when the game has them, and out of its comments; NAGs read as symbols.
  const bool clock_columns = !clock_evals.empty();
  size_t next_clock = 0;
  std::string clock, eval;
  auto annotation_after = [&](size_t ply) {
    std::string text;
    clock.clear();
    eval.clear();
    while (next_clock < clock_evals.size() && clock_evals[next_clock].ply < ply) ++next_clock;
    if (next_clock < clock_evals.size() && clock_evals[next_clock].ply == ply) {
      const store::PlyClockEval& c = clock_evals[next_clock];
      if (c.clock >= 0) clock = clock_text(c.clock);
      if (c.eval.kind != store::EvalKind::None) eval = eval_text(c.eval);
    }
    while (next < annotations.size() && annotations[next].ply <= ply) {
      ReadableAnnotation readable = readable_annotation(annotations[next++].text);
      if (readable.text.empty()) continue;
      if (!text.empty()) text += ' ';
      text += printable(readable.text);
    }
    return text;
  };
  const size_t move_column = clock_columns ? kMoveColumn + 17 : kMoveColumn;
  std::string line, move;
  size_t moves_start = 0;  // where White's move begins in line
  auto end_line = [&] {
    while (!line.empty() && line.back() == ' ') line.pop_back();
    if (!line.empty()) out += line + '\n';
    line.clear();
  };
  const std::string before = annotation_after(0);
  if (!before.empty()) out += before + '\n';
  int64_t number = std::max<int64_t>(1, board.fullmove_number());
  UndoInfo undo;
  for (size_t ply = 0; ply < codes.size(); ++ply) {
    Move m;
    if (!decode_stored_move(board, codes[ply], m)) return false;
    const Color us = board.side_to_move();
    if (us == WHITE || line.empty()) {
      end_line();
      const std::string label = std::to_string(number) + ".";
      line.append(label.size() < 5 ? 5 - label.size() : 0, ' ');
      line += label + ' ';
      moves_start = line.size();
      if (us == BLACK) line += "...";
    }
    move.clear();
    if (m.is_null()) move = "--";
    else append_move(board, m, notation.style, *notation.letters, move);
    if (us == BLACK) {
      const size_t used = display_width(std::string_view(line).substr(moves_start));
      line.append(used < move_column ? move_column - used : 2, ' ');
    }
    play(board, m, undo);
    if (us == BLACK) ++number;
    std::string text = annotation_after(ply + 1);
    // A move's own mark (!, ?, !?, ...) reads as part of it: "Re6+!".
    for (std::string_view mark : {"!!", "??", "!?", "?!", "!", "?"})
      if (text.starts_with(mark) && (text.size() == mark.size() || text[mark.size()] == ' ')) {
        move += mark;
        text.erase(0, std::min(text.size(), mark.size() + 1));
        break;
      }
    line += move;
    if (clock_columns) {  // "e4      0:02:59  +0.17"
      line.append(move.size() < 8 ? 8 - move.size() : 1, ' ');
      line += clock;
      line.append(clock.size() < 9 ? 9 - clock.size() : 1, ' ');
      line += eval;
    }
    if (!text.empty()) line += "  " + text;
  }
  end_line();
  const std::string after = annotation_after(SIZE_MAX);
  if (!after.empty()) out += after + '\n';
  out += std::string(store::result_token(row.result)) + '\n';
  return true;
}

// The board as an 8x8 diagram with ranks and files.
void append_diagram(const Board& board, std::string& out) {
  static constexpr char kLetters[] = " PNBRQK  pnbrqk ";
  for (int rank = 7; rank >= 0; --rank) {
    out += "  " + std::to_string(rank + 1) + " ";
    for (int file = 0; file < 8; ++file) {
      const Piece p = board.piece_on(Square(rank * 8 + file));
      out += ' ';
      out += p == NO_PIECE ? '.' : kLetters[int(p)];
    }
    out += '\n';
  }
  out += "     a b c d e f g h\n";
}

// Replays the first `plies` moves; last_move gets the last one in the chosen notation
// ("12... Nc6"), empty at ply 0.
bool replay_to(Board& board, std::span<const MoveCode> codes, int64_t plies, const ExportNotation& notation,
               std::string& last_move, std::string& last_san) {
  UndoInfo undo;
  for (int64_t ply = 0; ply < plies; ++ply) {
    Move m;
    if (!decode_stored_move(board, codes[size_t(ply)], m)) return false;
    if (ply + 1 == plies) {
      last_move = std::to_string(board.fullmove_number()) + (board.side_to_move() == WHITE ? ". " : "... ");
      last_san.clear();
      if (m.is_null()) last_san = "--";
      else append_move(board, m, notation.style, *notation.letters, last_san);
      last_move += last_san;
    }
    play(board, m, undo);
  }
  return true;
}

}  // namespace

ShowResult show_game(store::Database& db, const ShowOptions& options, io::OutputFile& out) {
  ShowResult result;
  store::ReadSnapshot snapshot(db);
  store::Statement s = db.prepare(store::build_game_by_id_query().sql);
  s.bind_int64(1, options.id);
  if (!s.step()) {
    store::Statement max_id = db.prepare(store::sql::kMaxGameId);
    if (max_id.step()) result.max_id = max_id.column_int64(0);
    result.status = ShowStatus::NoSuchGame;
    return result;
  }
  store::GameRow row;
  store::read_game_row(s, row);
  result.plies = row.plies;
  std::vector<MoveCode> codes;
  Board start;
  if (!store::stored_start_position(row.variant, row.start_fen, start) || !store::decode_moves(row.moves, start, codes) ||
      codes.size() != size_t(row.plies)) {
    result.status = ShowStatus::Corrupt;
    return result;
  }
  if (options.ply && (*options.ply < 0 || *options.ply > row.plies)) {
    result.status = ShowStatus::PlyOutOfRange;
    return result;
  }
  std::string& o = out.buffer();
  const ExportNotation& notation = options.pgn.notation;

  if (options.ply) {
    Board board = start;
    std::string last_move, last_san;
    if (!replay_to(board, codes, *options.ply, notation, last_move, last_san)) {
      result.status = ShowStatus::Corrupt;
      return result;
    }
    const std::string fen = write_fen(board, row.variant == store::Variant::Chess960 ? CastlingStyle::XFen : CastlingStyle::Auto);
    const char* side = board.side_to_move() == WHITE ? "white" : "black";
    if (options.format == OutputFormat::Json) {
      o += "{\"id\":" + std::to_string(row.id) + ",\"ply\":" + std::to_string(*options.ply) + ",\"move\":";
      if (last_san.empty()) o += "null";
      else append_json_string(last_san, o);
      o += ",\"side_to_move\":\"" + std::string(side) + "\",\"fen\":";
      append_json_string(fen, o);
      o += "}\n";
      return result;
    }
    o += "id " + std::to_string(row.id) + ": " + printable(row.white.value_or("?")) + " - " +
         printable(row.black.value_or("?")) + ", ply " + std::to_string(*options.ply) + " of " +
         std::to_string(row.plies) + (last_move.empty() ? " (start position)" : " after " + last_move) + "\n\n";
    append_diagram(board, o);
    o += "\n" + std::string(board.side_to_move() == WHITE ? "White" : "Black") + " to move\nFEN " + fen + "\n";
    return result;
  }

  std::string text;
  bool ok = true;
  if (options.format == OutputFormat::Pgn) {
    ok = PgnWriter(options.pgn).write(row, codes, text);
  } else if (options.format == OutputFormat::Json) {
    ok = JsonGameWriter().write(row, codes, {}, text);
  } else {
    std::vector<store::TagView> tags;
    store::AnnotationReader annotations;
    ok = store::decode_tags(row.tags, tags) && (!options.pgn.annotations || annotations.read(row.annotations));
    if (ok) {
      text += "id " + std::to_string(row.id);
      store::Statement source = db.prepare(store::sql::kSourcePathById);
      source.bind_int64(1, row.source_id);
      if (source.step())
        text += ": game " + std::to_string(row.game_number) + " of " + printable(source.column_text(0));
      text += "\n\n";
      append_tags(row, tags, text);
      text += '\n';
      ok = append_moves(row, codes, start, annotations, notation, text);
    }
  }
  if (!ok) {
    result.status = ShowStatus::Corrupt;
    return result;
  }
  // PGN and JSON go out as bytes to a file or a pipe, as printable text to a terminal.
  if (options.format != OutputFormat::Text && out.is_terminal()) append_printable(text, o, LineBreaks::Keep);
  else o += text;
  return result;
}

}  // namespace pgnbase::query
