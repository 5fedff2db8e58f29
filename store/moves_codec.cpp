#include "store/moves_codec.h"

#include "core/compact_move.h"
#include "core/fen.h"
#include "store/blob_codec.h"

namespace pgnbase::store {

bool stored_start_position(Variant variant, std::optional<std::string_view> start_fen, Board& board) {
  const bool chess960 = variant == Variant::Chess960;
  if (start_fen) {
    Parsed<Board> parsed = parse_fen(*start_fen, chess960);
    if (parsed) board = *parsed;
    return parsed.ok();
  }
  board = Board();
  if (chess960) board.set_chess960(true);
  return true;
}

void encode_moves_blob(std::string_view compact, std::string& out) {
  out += char(BlobFormat::CompactMoves);
  out += compact;
}

bool encode_moves(const Board& start, std::span<const MoveCode> codes, std::string& out) {
  std::string compact;
  Board board = start;
  UndoInfo undo;
  for (MoveCode code : codes) {
    Move m;
    if (!decode_stored_move(board, code, m)) return false;
    append_compact_move(board, code, compact);
    if (m.is_null()) board.do_null_move(undo);
    else board.do_move(m, undo);
  }
  encode_moves_blob(compact, out);
  return true;
}

namespace {

// Plays codes from board, checking each, and visits the position after each.
bool play_and_visit(Board& board, std::span<const MoveCode> codes, const PositionVisit& visit) {
  UndoInfo undo;
  for (size_t ply = 0; ply < codes.size(); ++ply) {
    Move m;
    if (!decode_stored_move(board, codes[ply], m)) return false;
    if (m.is_null()) board.do_null_move(undo);
    else board.do_move(m, undo);
    if (!visit(board, ply + 1)) break;
  }
  return true;
}

bool decode_compact(std::string_view bytes, const Board& start, std::vector<MoveCode>& codes, const PositionVisit* visit) {
  Board board = start;
  UndoInfo undo;
  if (visit && !(*visit)(board, 0)) return true;
  for (size_t at = 0; at < bytes.size();) {
    MoveCode code;
    Move m;
    if (!read_compact_move(board, bytes, at, code) || !decode_stored_move(board, code, m)) return false;
    codes.push_back(code);
    if (m.is_null()) board.do_null_move(undo);
    else board.do_move(m, undo);
    if (visit && !(*visit)(board, codes.size())) break;
  }
  return true;
}

// Schema 3 and older: 16-bit codes, raw or in a zstd frame; legality is checked by the
// caller's replay, as it always was (or here, when there is a visit).
bool decode_move_words(std::string_view blob, const Board& start, std::vector<MoveCode>& codes, const PositionVisit* visit) {
  thread_local std::string raw;
  if (!decode_blob(blob, raw) || raw.size() % 2) return false;
  codes.resize(raw.size() / 2);
  for (size_t i = 0; i < codes.size(); ++i)
    codes[i] = MoveCode(uint8_t(raw[2 * i]) | (uint8_t(raw[2 * i + 1]) << 8));
  if (!visit) return true;
  Board board = start;
  return !(*visit)(board, 0) || play_and_visit(board, codes, *visit);
}

bool decode_any(std::string_view blob, const Board& start, std::vector<MoveCode>& codes, const PositionVisit* visit) {
  codes.clear();
  if (!blob.empty() && BlobFormat(blob[0]) == BlobFormat::CompactMoves)
    return decode_compact(blob.substr(1), start, codes, visit);
  return decode_move_words(blob, start, codes, visit);
}

}  // namespace

bool decode_moves(std::string_view blob, const Board& start, std::vector<MoveCode>& codes) {
  return decode_any(blob, start, codes, nullptr);
}

bool decode_moves(std::string_view blob, const Board& start, std::vector<MoveCode>& codes, const PositionVisit& visit) {
  return decode_any(blob, start, codes, &visit);
}

}  // namespace pgnbase::store
