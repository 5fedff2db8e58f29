// The material runs the import stores come from what each move took as the replay saw it
// (ReplayOutput::taken); a record read back from a database has no such list, and
// encode_material_runs plays its codes again on a board of 64 men. Both must give the
// same bytes, and what they decode to must be what a replay of the game on a Board shows
// at every ply (the material, and the first ply without each home pawn): on the bundled
// real games, and on Chess960, set-up positions, promotions and null moves from
// ../shared/data.
#include "store/material_runs.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/fen.h"
#include "core/move_code.h"
#include "core/pgn_reader.h"
#include "indexer/game_builder.h"
#include "tests/support/bundled_sample.h"
#include "tests/support/shared_data.h"

namespace pgnbase::indexer {
namespace {

struct Compared {
  size_t games = 0, with_changes = 0, from_a_position = 0, with_null_moves = 0;
};

// The judge: the game played on a Board, ply by ply.
void expect_what_a_replay_shows(const Board& start, const std::vector<MoveCode>& codes, const store::MaterialRuns& runs,
                                size_t game) {
  ASSERT_EQ(runs.plies, codes.size()) << "game " << game;
  Board board = start;
  std::array<std::array<uint32_t, 8>, 2> left;
  for (auto& side : left) side.fill(store::kNeverLeft);
  size_t run = 0;
  for (size_t ply = 0; ply <= codes.size(); ++ply) {
    if (ply > 0) {
      Move m;
      if (codes[ply - 1] == kNullMoveCode) {
        UndoInfo undo;
        board.do_null_move(undo);
      } else {
        ASSERT_TRUE(decode_move(board, codes[ply - 1], m)) << "game " << game << " ply " << ply;
        UndoInfo undo;
        board.do_move(m, undo);
      }
    }
    for (Color c : {WHITE, BLACK})
      for (int file = 0; file < 8; ++file)
        if (left[c][file] == store::kNeverLeft &&
            board.piece_on(make_square(File(file), c == WHITE ? RANK_2 : RANK_7)) != make_piece(c, PAWN))
          left[c][file] = uint32_t(std::min<size_t>(ply, store::kLeftLate));
    while (run < runs.runs.size() && ply >= runs.runs[run].first + runs.runs[run].length) ++run;
    ASSERT_LT(run, runs.runs.size()) << "game " << game << " ply " << ply;
    EXPECT_EQ(runs.runs[run].material, store::material_of(board)) << "game " << game << " ply " << ply;
  }
  EXPECT_EQ(runs.pawn_left, left) << "game " << game;
}

// Builds every game of text and compares its two encodings.
Compared compare_encodings(std::string_view text) {
  Compared c;
  PgnReader reader(text);
  GameCollector collector(false);
  while (reader.read_game(collector)) {
    GameRecord record;
    RejectRecord reject;
    if (!build_game(collector.draft(), BuildOptions{}, record, reject)) continue;
    Board start;
    if (!record.start_fen.empty()) start = parse_fen(record.start_fen, record.variant == store::Variant::Chess960).value();
    EXPECT_EQ(record.taken.size(), record.codes.size()) << "game " << c.games;
    std::string from_replay, played_again;
    store::encode_material_runs(start, record.codes, record.taken, from_replay);
    store::encode_material_runs(start, record.codes, played_again);
    EXPECT_EQ(from_replay, played_again) << "game " << c.games << " of " << text.substr(0, 60);
    store::MaterialRuns runs;
    EXPECT_TRUE(store::decode_material_runs(from_replay, runs));
    expect_what_a_replay_shows(start, record.codes, runs, c.games);
    ++c.games;
    c.with_changes += runs.runs.size() > 1;
    c.from_a_position += !record.start_fen.empty();
    c.with_null_moves += std::count(record.codes.begin(), record.codes.end(), kNullMoveCode) > 0;
  }
  return c;
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(MaterialRuns, FromTheReplayAreThoseOfTheCodesPlayedAgainOnTheSample) {
  const Compared c = compare_encodings(test::sample_text());
  EXPECT_GT(c.games, 1900u);
  EXPECT_GT(c.with_changes, 1800u);  // captures and promotions to tell apart
}

TEST(MaterialRuns, FromTheReplayAreThoseOfTheCodesPlayedAgainFromPositionsAndWithNullMoves) {
  PGNBASE_REQUIRE_SHARED("nasty/python-chess/cutechess-fischerrandom.pgn", "nasty/pgn-extract-tests/test-setup-in.pgn",
                         "nasty/pgn-extract-tests/test-promotion-in.pgn",
                         "nasty/pgn-extract-tests/test-allownullmoves.pgn");
  const Compared chess960 = compare_encodings(read_file(test::shared_data("nasty/python-chess/cutechess-fischerrandom.pgn")));
  EXPECT_GT(chess960.from_a_position, 0u);
  const Compared setups = compare_encodings(read_file(test::shared_data("nasty/pgn-extract-tests/test-setup-in.pgn")));
  EXPECT_GT(setups.from_a_position, 0u);
  EXPECT_GT(compare_encodings(read_file(test::shared_data("nasty/pgn-extract-tests/test-promotion-in.pgn"))).with_changes,
            0u);
  EXPECT_GT(compare_encodings(read_file(test::shared_data("nasty/pgn-extract-tests/test-allownullmoves.pgn"))).with_null_moves,
            0u);
}

}  // namespace
}  // namespace pgnbase::indexer
