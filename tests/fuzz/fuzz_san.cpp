// Fuzz target: move reading and writing. The first byte picks a start position, the
// next bytes pick legal moves from it (byte % number of moves) until a zero byte; in the
// position reached:
//   - every legal move written in every MoveStyle, in English and in a language the first
//     byte picks, reads back as itself;
//   - encode_move -> decode_move is the identity;
//   - the rest of the input, read as a move token in every language, is either an error
//     or a legal move that writes and reads back as itself;
//   - the first two bytes of the rest, as a MoveCode, decode to a legal move or to nothing.
#include <string>
#include <string_view>

#include "core/fen.h"
#include "core/move_code.h"
#include "core/movegen.h"
#include "core/notation.h"
#include "core/san.h"
#include "tests/fuzz/fuzz_check.h"

namespace {

using namespace pgnbase;
using pgnbase::fuzz::check;

struct StartPosition {
  const char* fen;
  bool chess960;
};

// Start, Kiwipete (castling, pins, en passant), promotions with ambiguity, a Chess960
// array with the king next to its rook, and a position with three queens.
constexpr StartPosition kStarts[] = {
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false},
    {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false},
    {"n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", false},
    {"bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1", true},
    {"8/7k/8/Q3Q3/8/8/8/Q3K3 w - - 0 1", false},
    {"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", false},
};

std::string describe_move(const Board& board, std::string_view text, const PieceLetters& letters) {
  return write_fen(board) + " '" + std::string(text) + "' (" + std::string(letters.code) + ")";
}

// English and one other language per input (chosen by the input), to keep executions fast;
// the fuzzer's inputs cover every language.
void check_round_trips(const Board& board, const PieceLetters& other) {
  MoveList list;
  generate_legal_moves(board, list);
  std::string text;
  for (Move m : list) {
    for (MoveStyle style : {MoveStyle::San, MoveStyle::Long, MoveStyle::Uci, MoveStyle::Figurine}) {
      for (const PieceLetters* language : {&english(), &other}) {
        const PieceLetters& letters = *language;
        text.clear();
        append_move(board, m, style, letters, text);
        Move back;
        const SanError error = parse_move(board, text, letters, back);
        check(error == SanError::None, "a written move does not read back", describe_move(board, text, letters));
        check(back == m, "a written move reads back as another move", describe_move(board, text, letters));
      }
    }
    const MoveCode code = encode_move(board, m);
    check(code != kNullMoveCode && (code & 0x8000) == 0, "bad move code", write_fen(board));
    Move decoded;
    check(decode_move(board, code, decoded) && decoded == m, "move code does not decode to its move",
          write_fen(board));
  }
}

void check_token(const Board& board, std::string_view token) {
  MoveList list;
  generate_legal_moves(board, list);
  for (const PieceLetters& letters : all_piece_letters()) {
    Move m;
    const SanError error = parse_move(board, token, letters, m);
    check(describe(error) != nullptr, "SAN error without a description");
    if (error != SanError::None) continue;
    if (m.is_null()) continue;  // "--" and friends
    check(list.contains(m), "a token reads as an illegal move", describe_move(board, token, letters));
    std::string san;
    append_move(board, m, MoveStyle::San, letters, san);
    Move back;
    check(parse_move(board, san, letters, back) == SanError::None && back == m,
          "the SAN of a read move does not read back", describe_move(board, san, letters));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0 || size > 256) return 0;
  const StartPosition& start = kStarts[data[0] % std::size(kStarts)];
  const Parsed<Board> parsed = parse_fen(start.fen, start.chess960);
  if (!parsed) pgnbase::fuzz::fail("bad built-in FEN", start.fen);
  Board board = *parsed;
  size_t i = 1;
  for (; i < size && data[i] != 0; ++i) {
    MoveList list;
    generate_legal_moves(board, list);
    if (list.empty()) break;
    UndoInfo undo;
    board.do_move(list[data[i] % list.size()], undo);
  }
  if (i < size) ++i;  // the zero byte
  const auto languages = all_piece_letters();
  check_round_trips(board, languages[(data[0] / std::size(kStarts)) % languages.size()]);

  const std::string_view rest(reinterpret_cast<const char*>(data + i), size - i);
  check_token(board, rest);
  if (rest.size() >= 2) {
    const MoveCode code = MoveCode(uint8_t(rest[0]) | uint8_t(rest[1]) << 8);
    Move m;
    if (decode_move(board, code, m) && !m.is_null()) {
      MoveList list;
      generate_legal_moves(board, list);
      check(list.contains(m) && encode_move(board, m) == code, "decode_move gave an illegal or different move",
            write_fen(board));
    }
  }
  return 0;
}
