// Fuzz target: FEN parse. Whatever parses must write a FEN that parses back to the
// same FEN and key (in every castling style), and the position must survive make/unmake
// of each legal move with an incremental key equal to the recomputed one.
#include <string>
#include <string_view>

#include "core/fen.h"
#include "core/movegen.h"
#include "tests/fuzz/fuzz_check.h"

namespace {

using namespace pgnbase;
using pgnbase::fuzz::check;

void check_position(const Board& board, std::string_view input) {
  const std::string fen = write_fen(board);
  check(board.key() == board.compute_key(), "key differs from the recomputed key", fen);
  for (CastlingStyle style : {CastlingStyle::Auto, CastlingStyle::XFen, CastlingStyle::Shredder}) {
    const std::string written = write_fen(board, style);
    const Parsed<Board> parsed = parse_fen(written, board.chess960());
    if (!parsed) pgnbase::fuzz::fail("written FEN does not parse", std::string(input) + " -> " + written + ": " + parsed.error());
    const Board& again = *parsed;
    check(write_fen(again) == fen, "FEN round trip not stable", std::string(input) + " -> " + fen + " -> " + written + " -> " + write_fen(again));
    check(again.key() == board.key(), "FEN round trip changes the key", fen);
  }

  MoveList list;
  generate_legal_moves(board, list);
  Board copy = board;
  for (Move m : list) {
    UndoInfo undo;
    copy.do_move(m, undo);
    check(copy.key() == copy.compute_key(), "incremental key differs after a move", fen);
    check(parse_fen(write_fen(copy), copy.chess960()).ok(), "position after a legal move does not parse",
          fen + " then " + write_fen(copy));
    copy.undo_move(m, undo);
    check(write_fen(copy) == fen && copy.key() == board.key(), "undo does not restore the position", fen);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 512) return 0;  // no FEN is longer; keeps the fuzzer on the parser
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  for (bool chess960 : {false, true}) {
    const Parsed<Board> board = parse_fen(input, chess960);
    if (!board) {
      check(!board.error().empty() && board.error().find('\n') == std::string::npos,
            "FEN error message is empty or not one line", board.error());
      continue;
    }
    check_position(*board, input);
  }
  return 0;
}
