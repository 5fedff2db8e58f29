// The position filter on real files (../shared/data): every answer is checked against
// positions computed without the position index or the query library's replay, by
// replaying the PGN text with core, or every stored game with core's full move
// generation. Covers positions reached late, en passant and castling-rights variants of
// real positions, Chess960 and set-up games.
#include <gtest/gtest.h>

#include "core/pgn_reader.h"
#include "core/replay.h"
#include "search/game_search.h"
#include "store/game_query.h"
#include "search/position_search.h"
#include "query_test_support.h"
#include "tests/support/files.h"
#include "tests/support/shared_data.h"
#include "tests/support/temp_dir.h"

namespace pgnbase::query {
namespace {

using query_test::Occurrences;
namespace fs = std::filesystem;

// Main-line move tokens of each game of a PGN text.
struct MainLineCollector : PgnVisitorBase {
  std::vector<std::vector<std::string_view>> games;
  int depth = 0;
  void begin_game(uint64_t, uint32_t) {
    games.emplace_back();
    depth = 0;
  }
  void move(std::string_view token) {
    if (depth == 0) games.back().push_back(token);
  }
  void begin_variation() { ++depth; }
  void end_variation() { --depth; }
};

Occurrences search_plies(store::Database& db, const Board& position, size_t point_lookup_limit = 20000) {
  search::SearchOptions options;
  options.filter.position = position;
  options.point_lookup_limit = point_lookup_limit;
  search::GameSearch search(db, options);
  Occurrences out;
  while (search.next()) out[search.row().id].assign(search.plies().begin(), search.plies().end());
  // Lean segments store key fingerprints: about 1 lookup in 4,000 meets a game of
  // another position, which the replay refutes (and the results above leave out).
  EXPECT_LE(search.refuted_games(), 2u);
  return out;
}

TEST(PositionSearchRealFiles, EnglishNotationFileAgainstItsOwnReplay) {
  PGNBASE_REQUIRE_SHARED("notation/fischer-petrosian-en.pgn");
  const std::string pgn_path = (test::shared_data() / "notation" / "fischer-petrosian-en.pgn").string();
  test::TempDir dir;
  const std::string db_path = dir.file("en.db");
  query_test::import_files(db_path, {pgn_path});

  // Replay the PGN text with core: game i of the file is game id i + 1.
  const std::string text = test::read_file(pgn_path);
  PgnReader reader(text);
  MainLineCollector collector;
  reader.read_all(collector);
  ASSERT_EQ(collector.games.size(), 69u);
  std::map<Key, Occurrences> expected;
  std::vector<Board> positions;
  for (size_t g = 0; g < collector.games.size(); ++g) {
    ReplayOutput out;
    ReplayFailure failure;
    ASSERT_NE(replay_moves(Board(), collector.games[g], nullptr, out, failure), nullptr) << "game " << g + 1;
    Board board;
    UndoInfo undo;
    for (size_t ply = 0; ply <= out.moves.size(); ++ply) {
      expected[board.key()][int64_t(g + 1)].push_back(uint32_t(ply));
      if (ply % 5 == 0 || ply == out.moves.size()) positions.push_back(board);  // the last one: late positions
      if (ply < out.moves.size()) board.do_move(out.moves[ply], undo);
    }
  }
  store::Database db(db_path, store::Database::Mode::ReadOnly);
  for (const Board& position : positions)
    ASSERT_EQ(search_plies(db, position), expected[position.key()]) << write_fen(position);
}

class PositionSearchDatabase : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!test::have_shared_data()) return;
    dir_ = new test::TempDir();
    db_path_ = dir_->file("mixed.db");
    query_test::import_files(db_path_, query_test::mixed_shared_files());
    games_ = new std::vector<query_test::ReplayedGame>(query_test::replay_all_games(db_path_));
    by_key_ = new std::map<Key, Occurrences>(query_test::index_by_key(*games_));
  }
  static void TearDownTestSuite() {
    delete by_key_;
    delete games_;
    delete dir_;
  }
  void SetUp() override {
    PGNBASE_REQUIRE_SHARED();
  }

  // The boards of every n-th ply of every game, plus every last position.
  static std::vector<Board> sample_positions(int every) {
    store::Database db(db_path_, store::Database::Mode::ReadOnly);
    store::Statement s = db.prepare("SELECT variant, start_fen, moves FROM games ORDER BY id");
    std::vector<Board> out;
    std::vector<MoveCode> codes;
    while (s.step()) {
      Board board;
      if (!s.column_is_null(1)) board = parse_fen(s.column_text(1), s.column_int64(0) == 1).value();
      else if (s.column_int64(0) == 1) board.set_chess960(true);
      auto blob = s.column_blob(2);
      store::decode_moves({reinterpret_cast<const char*>(blob.data()), blob.size()}, board, codes);
      UndoInfo undo;
      for (size_t ply = 0; ply <= codes.size(); ++ply) {
        if (ply % every == 0 || ply == codes.size() || board.en_passant_capturable_pseudo()) out.push_back(board);
        if (ply == codes.size()) break;
        Move m;
        decode_move(board, codes[ply], m);
        if (m.is_null()) board.do_null_move(undo);
        else board.do_move(m, undo);
      }
    }
    return out;
  }

  static test::TempDir* dir_;
  static std::string db_path_;
  static std::vector<query_test::ReplayedGame>* games_;
  static std::map<Key, Occurrences>* by_key_;
};

test::TempDir* PositionSearchDatabase::dir_ = nullptr;
std::string PositionSearchDatabase::db_path_;
std::vector<query_test::ReplayedGame>* PositionSearchDatabase::games_ = nullptr;
std::map<Key, Occurrences>* PositionSearchDatabase::by_key_ = nullptr;

TEST_F(PositionSearchDatabase, SampledPositionsMatchAFullReplay) {
  store::Database db(db_path_, store::Database::Mode::ReadOnly);
  std::vector<Board> positions = sample_positions(19);
  ASSERT_GT(positions.size(), 1000u);
  size_t late = 0, chess960 = 0;
  for (const Board& position : positions) {
    Occurrences found = search_plies(db, position);
    ASSERT_EQ(found, (*by_key_)[position.key()]) << write_fen(position);
    for (auto& [id, plies] : found) late += plies.back() >= 60;
    chess960 += position.chess960();
  }
  EXPECT_GT(late, 100u);
  EXPECT_GT(chess960, 100u);
}

TEST_F(PositionSearchDatabase, EnPassantAndCastlingVariantsOfRealPositions) {
  store::Database db(db_path_, store::Database::Mode::ReadOnly);
  size_t ep_cases = 0, castling_cases = 0;
  for (const Board& position : sample_positions(29)) {
    std::string fen = write_fen(position, CastlingStyle::XFen);
    // Fields: placement, side, castling, en passant, halfmove, fullmove.
    std::vector<std::string> fields;
    for (size_t start = 0, end; start < fen.size(); start = end + 1) {
      end = fen.find(' ', start);
      if (end == std::string::npos) end = fen.size();
      fields.push_back(fen.substr(start, end - start));
    }
    auto variant = [&](const std::string& castling, const std::string& en_passant) {
      std::string text = fields[0] + " " + fields[1] + " " + castling + " " + en_passant + " 0 1";
      const Parsed<Board> parsed = parse_fen(text, position.chess960());
      ASSERT_TRUE(parsed) << text;
      const Board& b = *parsed;
      EXPECT_EQ(search_plies(db, b), (*by_key_)[b.key()]) << text;
    };
    if (position.en_passant_capturable_pseudo()) {
      variant(fields[2], "-");  // the same placement without the double step just played
      ++ep_cases;
    }
    if (fields[2] != "-") {
      variant("-", fields[3]);
      ++castling_cases;
    }
  }
  EXPECT_GT(ep_cases, 20u);
  EXPECT_GT(castling_cases, 1000u);
}

TEST_F(PositionSearchDatabase, BothFilterStrategiesAgree) {
  store::Database db(db_path_, store::Database::Mode::ReadOnly);
  search::SearchOptions options;
  options.filter.position = Board();
  options.filter.result = 1;
  std::vector<int64_t> by_lookup, by_merge;
  for (size_t limit : {size_t(1) << 30, size_t(0)}) {
    options.point_lookup_limit = limit;
    search::GameSearch search(db, options);
    auto& out = limit ? by_lookup : by_merge;
    while (search.next()) out.push_back(search.row().id);
  }
  EXPECT_GT(by_lookup.size(), 50u);
  EXPECT_EQ(by_lookup, by_merge);
}

TEST_F(PositionSearchDatabase, CountsAgreeOnAnyNumberOfThreads) {
  store::Database db(db_path_, store::Database::Mode::ReadOnly);
  for (const char* fen : {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                          "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"}) {
    std::vector<int64_t> counts;
    for (unsigned threads : {1u, 2u, 5u}) {
      search::SearchOptions options;
      options.filter.position = query_test::board_of(fen);
      options.count_threads = threads;
      options.parallel_count_candidates = 0;
      counts.push_back(search::GameSearch(db, options).count());
      options.filter.time_control = *search::TimeControlMatcher::parse("?");
      counts.push_back(search::GameSearch(db, options).count());
    }
    EXPECT_GT(counts[0], 100);
    EXPECT_GT(counts[1], 0);
    for (size_t i = 2; i < counts.size(); ++i) EXPECT_EQ(counts[i], counts[i % 2]) << fen;
    EXPECT_EQ(counts[0], int64_t(search_plies(db, query_test::board_of(fen)).size()));
  }
}

// Reachability may stop a replay early: checked against every game of the database, for
// sampled positions of real games, it never gives up on a game at or before a ply where
// the position still occurs, and it does give up on most games early.
TEST_F(PositionSearchDatabase, ReachabilityNeverGivesUpBeforeALaterOccurrence) {
  const std::vector<Board> positions = sample_positions(97);
  ASSERT_GT(positions.size(), 100u);
  store::Database db(db_path_, store::Database::Mode::ReadOnly);
  store::Statement start_of = db.prepare("SELECT variant, start_fen FROM games WHERE id = ?1");
  uint64_t plies_total = 0, plies_read = 0;
  for (size_t p = 0; p < positions.size(); p += positions.size() / 12) {  // 12 positions, all through a game
    const Board& position = positions[p];
    const search::Reachability reachability(position);
    for (const query_test::ReplayedGame& game : *games_) {
      size_t last_occurrence = 0;
      bool occurs = false;
      for (size_t ply = 0; ply < game.keys.size(); ++ply)
        if (game.keys[ply] == position.key()) occurs = true, last_occurrence = ply;
      std::optional<size_t> lost_at;
      start_of.reset();
      start_of.bind_int64(1, game.id);
      ASSERT_TRUE(start_of.step());
      Board board;
      ASSERT_TRUE(store::stored_start_position(
          store::Variant(start_of.column_int64(0)),
          start_of.column_is_null(1) ? std::nullopt : std::optional<std::string_view>(start_of.column_text(1)), board));
      UndoInfo undo;
      for (size_t ply = 0;; ++ply) {
        if (reachability.lost(board)) {
          lost_at = ply;
          break;
        }
        if (ply == game.codes.size()) break;
        Move m;
        ASSERT_TRUE(decode_move(board, game.codes[ply], m));
        if (m.is_null()) board.do_null_move(undo);
        else board.do_move(m, undo);
      }
      if (occurs && lost_at) {
        ASSERT_GT(*lost_at, last_occurrence) << write_fen(position) << " game " << game.id;
      }
      plies_total += game.codes.size() + 1;
      plies_read += lost_at ? *lost_at : game.codes.size() + 1;
    }
  }
  EXPECT_LT(plies_read * 2, plies_total) << "replays that stop early read less than half the plies";
}

TEST(SamePosition, IgnoresCountersAndUncapturableEnPassant) {
  Board a = query_test::board_of("rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2");
  Board b = query_test::board_of("rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 7 30");
  EXPECT_TRUE(search::same_position(a, b));
  Board c = query_test::board_of("rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3");
  Board d = query_test::board_of("rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3");
  EXPECT_FALSE(search::same_position(c, d));
  Board e = query_test::board_of("rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR w Kkq - 0 3");
  EXPECT_FALSE(search::same_position(d, e));
}

}  // namespace
}  // namespace pgnbase::query
