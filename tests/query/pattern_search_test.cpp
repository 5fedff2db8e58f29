// Material, imbalance, placement and pawn-structure search checked against brute force:
// every stored game replayed with core's full move generation (replay_all_games), each
// position judged from its FEN text by the naive rules below, and the first matching
// ply found by trying every ply in turn. The set of games and their match plies must be
// equal. Real games only: the bundled lichess sample always, and where ../shared/data
// is present a mix with en passant, promotions, castling, Chess960 and set-up games.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <map>
#include <optional>

#include "search/game_search.h"
#include "search/pattern.h"
#include "search/pattern_search.h"
#include "query_test_support.h"
#include "tests/support/shared_data.h"
#include "tests/support/temp_dir.h"
#include "tests/support/bundled_sample.h"

namespace pgnbase::query {
namespace {

using Matches = std::map<int64_t, uint32_t>;  // game id -> match ply

// A FEN's board as 64 characters (a1 = 0, '.' empty), its side to move, and the
// number of each letter on it.
struct FenBoard {
  char square[64];
  char side;
  int count[2][7];
};

constexpr char kLetters[] = " PNBRQK";

char letter(Color c, int pt) { return c == WHITE ? kLetters[pt] : char(std::tolower(kLetters[pt])); }

FenBoard read_fen_board(const std::string& fen) {
  FenBoard b;
  int rank = 7, file = 0;
  size_t i = 0;
  for (; fen[i] != ' '; ++i) {
    const char c = fen[i];
    if (c == '/') --rank, file = 0;
    else if (c >= '1' && c <= '8')
      for (int k = 0; k < c - '0'; ++k) b.square[rank * 8 + file++] = '.';
    else b.square[rank * 8 + file++] = c;
  }
  b.side = fen[i + 1];
  for (Color colour : {WHITE, BLACK})
    for (int pt = PAWN; pt <= KING; ++pt) b.count[colour][pt] = int(std::count(b.square, b.square + 64, letter(colour, pt)));
  return b;
}

// The board pattern (material, imbalance, pieces, pawns) judged square by square.
bool naive_holds(const search::Pattern& p, const FenBoard& b) {
  const auto& count = b.count;
  auto material_ok = [&](bool swapped) {
    for (Color c : {WHITE, BLACK})
      for (int pt = PAWN; pt <= QUEEN; ++pt) {
        const auto r = p.material->range[c][pt];
        const int n = count[swapped ? ~c : c][pt];
        if (n < r.min || (r.max != 255 && n > r.max)) return false;
      }
    return true;
  };
  if (p.material && !material_ok(false) && !(p.either_colour && material_ok(true))) return false;
  auto imbalance_ok = [&](int sign) {
    for (int pt = PAWN; pt <= QUEEN; ++pt)
      if (!(pt == PAWN && p.imbalance->pawns_free) &&
          count[WHITE][pt] - count[BLACK][pt] != sign * p.imbalance->difference[pt])
        return false;
    return true;
  };
  if (p.imbalance && !imbalance_ok(1) && !(p.either_colour && imbalance_ok(-1))) return false;
  // Each square the pattern names holds what it asks for.
  auto every_square = [&](Bitboard squares, char wanted) {
    for (int s = 0; s < 64; ++s)
      if (((squares >> s) & 1) && b.square[s] != wanted) return false;
    return true;
  };
  if (p.pieces) {
    if (!every_square(p.pieces->empty, '.')) return false;
    for (Color c : {WHITE, BLACK})
      for (int pt = PAWN; pt <= KING; ++pt)
        if (!every_square(p.pieces->required[c][pt], letter(c, pt))) return false;
  }
  if (p.pawns)
    for (Color c : {WHITE, BLACK})
      if (p.pawns->checked[c] && (!every_square(p.pawns->pawns[c], letter(c, PAWN)) ||
                                  count[c][PAWN] != std::popcount(p.pawns->pawns[c])))
        return false;
  return true;
}

// The first ply p where the pattern holds at p .. p+N-1, all in the ply range, with the
// side to move at p and, for --last, p+N-1 the final position.
std::optional<uint32_t> naive_first(const search::Pattern& p, const std::vector<FenBoard>& boards) {
  const size_t n = boards.size();
  std::vector<bool> holds(n);
  std::vector<char> side(n);
  for (size_t q = 0; q < n; ++q) {
    holds[q] = q >= p.ply_from && q <= p.ply_to && naive_holds(p, boards[q]);
    side[q] = boards[q].side;
  }
  for (size_t start = 0; start < n; ++start) {
    if (p.last && start + p.streak != n) continue;
    if (p.side_to_move && side[start] != (*p.side_to_move == WHITE ? 'w' : 'b')) continue;
    bool all = start + p.streak <= n;
    for (size_t q = start; all && q < start + p.streak; ++q) all = holds[q];
    if (all) return uint32_t(start);
  }
  return std::nullopt;
}

search::Pattern pattern_of(const search::PatternText& text) {
  Parsed<std::optional<search::Pattern>> p = search::build_pattern(text);
  EXPECT_TRUE(p) << p.error();
  EXPECT_TRUE(p && p->has_value());
  return p && *p ? **p : search::Pattern{};
}

// A pattern's text with its qualifiers: side to move, ply range, --for, either colour, --last.
search::PatternText with(search::PatternText t, std::string side, std::string plies, int streak, bool either, bool last) {
  t.side_to_move = std::move(side);
  t.ply_range = std::move(plies);
  if (streak > 1) t.streak = streak;
  t.either_colour = either;
  t.last = last;
  return t;
}

// A pattern of one kind: field is &PatternText::material, ::imbalance, ::pieces or ::pawns.
search::PatternText one(std::string search::PatternText::*field, std::string value) {
  search::PatternText t;
  t.*field = std::move(value);
  return t;
}
search::PatternText material(std::string m) { return one(&search::PatternText::material, std::move(m)); }
search::PatternText imbalance(std::string i) { return one(&search::PatternText::imbalance, std::move(i)); }
search::PatternText pieces(std::string p) { return one(&search::PatternText::pieces, std::move(p)); }
search::PatternText pawns(std::string p) { return one(&search::PatternText::pawns, std::move(p)); }

// A mask of 8 ranks from the top: "any" ranks written as 8 question marks.
std::string mask(std::vector<std::string> ranks) {
  std::string out;
  for (std::string& r : ranks) out += (out.empty() ? "" : "/") + (r.empty() ? std::string(8, '?') : r);
  return out;
}

// A few dozen patterns of every kind and qualifier.
std::vector<search::PatternText> patterns_to_check() {
  std::vector<search::PatternText> out;
  for (const char* m : {"KRPvKR", "KRvKR", "KQvKQ", "KR*PvKR*P", "KBvKN", "K*PvK*P", "KQ*PvKR*P", "KRRvKRR",
                        "KQRR2B2N8PvKQRR2B2N8P", "K2QvKQ", "KNvK"}) {
    out.push_back(material(m));
    out.push_back(with(material(m), "", "", 1, true, false));
    out.push_back(with(material(m), "b", "", 3, false, false));
  }
  out.push_back(with(material("KR*PvKR*P"), "", "40-80", 8, false, false));
  out.push_back(with(material("K*PvK*P"), "", "", 1, false, true));
  out.push_back(with(material("KR*PvKR*P"), "", "", 2, false, true));
  for (const char* i : {"QvRR", "BvN", "Pawn+1", "Pawn-2", "vPP", "RvBN", "QvRB", "NvPPP", "v"}) {
    out.push_back(imbalance(i));
    out.push_back(with(imbalance(i), "", "", 4, true, false));
  }
  out.push_back(with(imbalance("RvB"), "w", "30-", 1, false, false));
  for (const std::string& p :
       {std::string("wKg1 wBg2 wPf2 wPg3 wPh2"), std::string("bKg8 bBg7 bPf7 bPg6 bPh7"), std::string("wKg1 wRf1 -e1 -h1"),
        std::string("Ke1 ke8"), std::string("wQd8"), std::string("-e4 -d4 -e5 -d5"), std::string("wNf3,bNf6"),
        std::string("bPe5 wPe4 wNc3"), mask({"", "", "", "", "???PP???", "", "", ""}),
        mask({"r...k..r", "", "", "", "", "", "", "R...K..R"})}) {
    out.push_back(pieces(p));
    out.push_back(with(pieces(p), "", "10-60", 5, false, false));
  }
  search::PatternText both = material("KRPvKR");
  both.pieces = "wPa7";
  out.push_back(both);
  both = imbalance("BvN");
  both.pieces = "-d5";
  out.push_back(both);
  for (const char* p : {"8/pp3ppp/4p3/8/3P4/8/PP3PPP/8", "8/pp3ppp/8/8/3P4/8/PP3PPP/8", "w:8/8/8/8/3P4/8/PP3PPP/8",
                        "b:8/ppp2ppp/3p4/4p3/8/8/8/8", "8/pppppppp/8/8/8/8/PPPPPPPP/8", "8/8/8/8/8/8/8/8"}) {
    out.push_back(pawns(p));
    out.push_back(with(pawns(p), "w", "", 6, false, false));
    out.push_back(with(pawns(p), "", "", 1, false, true));
  }
  return out;
}

std::string describe(const search::PatternText& t) {
  return "material=" + t.material + " imbalance=" + t.imbalance + " pieces=" + t.pieces + " pawns=" + t.pawns +
         " stm=" + t.side_to_move + " plies=" + t.ply_range + " for=" + std::to_string(t.streak.value_or(1)) +
         (t.either_colour ? " either" : "") + (t.last ? " last" : "");
}

// Checks every pattern against brute force over the database's games; returns the
// number of (pattern, game) matches seen, so a caller can insist they are not all empty.
size_t check_all_patterns(const std::string& db_path, unsigned threads) {
  std::vector<std::pair<int64_t, std::vector<FenBoard>>> games;
  for (const query_test::ReplayedGame& g : query_test::replay_all_games(db_path, true)) {
    games.emplace_back(g.id, std::vector<FenBoard>());
    for (const std::string& fen : g.fens) games.back().second.push_back(read_fen_board(fen));
  }
  store::Database db(db_path, store::Database::Mode::ReadOnly);
  size_t total = 0, checked = 0;
  for (const search::PatternText& text : patterns_to_check()) {
    const search::Pattern pattern = pattern_of(text);
    Matches expected;
    for (const auto& [id, boards] : games)
      if (auto ply = naive_first(pattern, boards)) expected[id] = *ply;
    Matches found;
    for (const search::PatternHit& h : search::find_pattern_games(db, pattern, nullptr, threads)) found[h.game_id] = h.ply;
    EXPECT_EQ(found, expected) << describe(text);
    total += expected.size();
    // Restricted to chosen games, for every fourth pattern: many (scanned) and few
    // (looked up by id).
    if (++checked % 4 != 0) continue;
    for (const uint32_t every : {2u, 97u}) {
      std::vector<uint32_t> only;
      Matches expected_only, found_only;
      for (const auto& [id, boards] : games)
        if (id % every == 1) {
          only.push_back(uint32_t(id));
          if (expected.count(id)) expected_only[id] = expected[id];
        }
      for (const search::PatternHit& h : search::find_pattern_games(db, pattern, &only, threads)) found_only[h.game_id] = h.ply;
      EXPECT_EQ(found_only, expected_only) << describe(text) << " every " << every;
    }
  }
  return total;
}

TEST(PatternSearchBruteForce, BundledLichessSample) {
  test::TempDir dir;
  const std::string db = dir.file("sample.db");
  query_test::import_files(db, {test::kSample.string()});
  EXPECT_GT(check_all_patterns(db, 2), 2000u);
}

TEST(PatternSearchBruteForce, SharedFilesWithChess960SetUpsPromotionsAndEnPassant) {
  PGNBASE_REQUIRE_SHARED();
  test::TempDir dir;
  const std::string db = dir.file("mixed.db");
  query_test::import_files(db, query_test::mixed_shared_files());
  EXPECT_GT(check_all_patterns(db, 1), 500u);
}

// A damaged material block (hand-made damage to the bundled sample's database: two blobs
// cut short, one of them the block that straddles the two threads' id ranges, the other
// with an absurd game count): its games are counted corrupt, once each, and skipped;
// every other game is judged as before.
TEST(PatternSearchCorruptBlocks, ADamagedBlockCountsItsGamesCorruptOnce) {
  test::TempDir dir;
  const std::string db_path = dir.file("sample.db");
  query_test::import_files(db_path, {test::kSample.string()});
  const search::Pattern pattern = pattern_of(imbalance("BvN"));
  std::vector<search::PatternHit> before;
  int64_t games = 0;
  {
    store::Database db(db_path, store::Database::Mode::ReadOnly);
    before = search::find_pattern_games(db, pattern, nullptr, 2);
    store::Statement count = db.prepare("SELECT count(*) FROM games");
    ASSERT_TRUE(count.step());
    games = count.column_int64(0);
  }
  // find_pattern_games splits ids 1..last into halves of last / 2 + 1: block 62 (ids 993
  // to 1008) holds the first id of the second half when there are 2,000 games.
  ASSERT_EQ(games, 2000);
  {
    store::Database db(db_path, store::Database::Mode::ReadWrite);
    // Block 3 also claims a million games: no block has room for more than 16.
    db.exec("UPDATE material_blocks SET runs = substr(runs, 1, 5), games = iif(block = 3, 1000000, games) "
            "WHERE block IN (3, 62)");
  }
  store::Database db(db_path, store::Database::Mode::ReadOnly);
  search::PatternSearchStats stats;
  const std::vector<search::PatternHit> after = search::find_pattern_games(db, pattern, nullptr, 2, &stats);
  EXPECT_EQ(stats.games, uint64_t(games));
  EXPECT_EQ(stats.corrupt, 32u);
  auto damaged = [](uint32_t id) { return (id >= 49 && id <= 64) || (id >= 993 && id <= 1008); };
  std::vector<search::PatternHit> expected;
  for (const search::PatternHit& h : before)
    if (!damaged(h.game_id)) expected.push_back(h);
  ASSERT_EQ(after.size(), expected.size());
  for (size_t i = 0; i < after.size(); ++i) {
    EXPECT_EQ(after[i].game_id, expected[i].game_id);
    EXPECT_EQ(after[i].ply, expected[i].ply);
  }
  EXPECT_LT(after.size(), before.size());  // the damage hid some matches
}

}  // namespace
}  // namespace pgnbase::query
