// Fuzz target: the import's read + replay of games, as a worker does it: PgnReader with
// the GameCollector, then build_game. A built record must replay: its move codes decode
// one by one from its start position and reach exactly its position keys. A reject must
// carry a kind and a one-line reason.
#include <string>
#include <string_view>

#include "core/fen.h"
#include "core/move_code.h"
#include "core/pgn_reader.h"
#include "indexer/game_builder.h"
#include "indexer/game_collector.h"
#include "tests/fuzz/fuzz_check.h"

namespace {

using namespace pgnbase;
using namespace pgnbase::indexer;
using pgnbase::fuzz::check;

void check_record(const GameRecord& record) {
  check(record.keys.size() == record.codes.size() + 1, "keys are not one more than move codes");
  Board board;
  if (!record.start_fen.empty()) {
    const Parsed<Board> parsed = parse_fen(record.start_fen, record.variant == store::Variant::Chess960);
    check(parsed.ok(), "stored start FEN does not parse", record.start_fen);
    board = *parsed;
  } else if (record.variant == store::Variant::Chess960) {
    board.set_chess960(true);
  }
  check(board.key() == record.keys[0], "first key is not the start position's");
  for (size_t ply = 0; ply < record.codes.size(); ++ply) {
    Move m;
    check(decode_move(board, record.codes[ply], m), "a stored move code names no legal move", write_fen(board));
    UndoInfo undo;
    if (m.is_null()) {
      board.do_null_move(undo);
    } else {
      board.do_move(m, undo);
    }
    check(board.key() == record.keys[ply + 1], "replayed key differs from the stored key", write_fen(board));
  }
  check(!record.language.empty(), "record without a language");
}

void check_reject(const RejectRecord& reject) {
  check(!reject.kind.empty(), "reject without a kind");
  check(!reject.reason.empty(), "reject without a reason");
  check(reject.reason.find('\n') == std::string::npos && reject.reason.find('\r') == std::string::npos,
        "reject reason is not one line", reject.reason);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 64 * 1024) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  BuildOptions options;
  options.keep_annotations = size == 0 || (data[0] & 1) == 0;
  PgnReader reader(text);
  GameCollector collector(options.keep_annotations);
  int games = 0;
  while (reader.read_game(collector) && games++ < 64) {
    GameRecord record;
    RejectRecord reject;
    if (build_game(collector.draft(), options, record, reject)) {
      check_record(record);
    } else {
      check_reject(reject);
    }
  }
  return 0;
}
