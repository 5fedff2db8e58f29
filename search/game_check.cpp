#include "search/game_check.h"

#include <cstdio>
#include <vector>

#include "core/fen.h"
#include "store/game_annotations.h"
#include "store/blob_codec.h"
#include "store/moves_codec.h"
#include "store/tag_codec.h"

namespace pgnbase::search {

namespace {

std::string hex_code(MoveCode code) {
  char text[8];
  std::snprintf(text, sizeof text, "0x%04X", unsigned(code));
  return text;
}

}  // namespace

std::string diagnose_moves(store::Variant variant, std::optional<std::string_view> start_fen, std::string_view moves_blob,
                           std::optional<int64_t> plies) {
  Board board;
  if (start_fen) {
    Parsed<Board> parsed = parse_fen(*start_fen, variant == store::Variant::Chess960);
    if (!parsed) return "bad start FEN: " + parsed.error();
    board = *parsed;
  } else if (!store::stored_start_position(variant, std::nullopt, board)) {
    return "bad start position";
  }
  std::vector<MoveCode> codes;
  if (!store::decode_moves(moves_blob, board, codes)) {
    if (moves_blob.empty() || store::BlobFormat(moves_blob[0]) != store::BlobFormat::CompactMoves)
      return "the moves blob does not decode";
    return "the moves blob names no legal move at ply " + std::to_string(codes.size() + 1);
  }
  if (plies && *plies != int64_t(codes.size()))
    return "the moves blob holds " + std::to_string(codes.size()) + " moves, the plies column says " +
           std::to_string(*plies);
  UndoInfo undo;
  for (size_t ply = 0; ply < codes.size(); ++ply) {
    Move m;
    if (!decode_stored_move(board, codes[ply], m))
      return "move code " + hex_code(codes[ply]) + " at ply " + std::to_string(ply + 1) + " is not a legal move";
    play(board, m, undo);
  }
  return {};
}

std::string replay_failure(const store::Statement& row) {
  const std::span<const std::byte> blob = row.column_blob(0);
  std::optional<std::string_view> start_fen;
  if (!row.column_is_null(2)) start_fen = row.column_text(2);
  std::string reason = diagnose_moves(store::Variant(row.column_int64(1)), start_fen,
                                      {reinterpret_cast<const char*>(blob.data()), blob.size()}, std::nullopt);
  return reason.empty() ? "its stored moves do not replay" : reason;
}

std::string diagnose_game(const store::GameRow& row, bool with_annotations) {
  std::string reason = diagnose_moves(row.variant, row.start_fen, row.moves, row.plies);
  if (!reason.empty()) return reason;
  std::vector<store::TagView> tags;
  if (!store::decode_tags(row.tags, tags)) return "the tags payload does not decode";
  if (with_annotations && !row.annotations.empty()) {
    store::AnnotationReader annotations;
    if (!annotations.read(row.annotations)) return "the annotations blob does not decode";
  }
  return {};
}

}  // namespace pgnbase::search
