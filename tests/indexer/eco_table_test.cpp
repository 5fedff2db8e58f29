#include "store/eco_table.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "core/board.h"
#include "core/fen.h"
#include "core/pgn_reader.h"
#include "core/replay.h"
#include "indexer/input_source.h"
#include "tests/support/shared_data.h"
#include "tests/support/bundled_sample.h"

namespace pgnbase::indexer {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

const fs::path kSourceDir = fs::path(PGNBASE_SOURCE_DIR);
// The bundled sample: 2,000 lichess games (CC0), each with lichess's own ECO tag.
using test::kSample;

// Keys of a game's main line, keys[0] = start; empty when a move does not replay.
std::vector<uint64_t> keys_of(const Board& start, const std::vector<std::string_view>& tokens) {
  ReplayOutput out;
  ReplayFailure failure;
  if (!replay_moves(start, tokens, &english(), out, failure)) return {};
  return {out.keys.begin(), out.keys.end()};
}

// "1. e4 e5 2. Nf3" -> {"e4", "e5", "Nf3"}; the views point into movetext.
std::vector<std::string_view> tokens_of(std::string_view movetext) {
  std::vector<std::string_view> tokens;
  size_t at = 0;
  while (at < movetext.size()) {
    size_t end = movetext.find(' ', at);
    if (end == std::string_view::npos) end = movetext.size();
    std::string_view token = movetext.substr(at, end - at);
    if (!token.empty() && !(token.front() >= '0' && token.front() <= '9' && token.back() == '.'))
      tokens.push_back(token);
    at = end + 1;
  }
  return tokens;
}

const store::EcoEntry* classify_line(std::string_view movetext) {
  std::vector<uint64_t> keys = keys_of(Board(), tokens_of(movetext));
  EXPECT_FALSE(keys.empty()) << movetext;
  return store::EcoTable::builtin().classify(keys);
}

// The whole input, or its first games up to about max_bytes (cut before a "[Event" line).
std::string read_input(const fs::path& path, size_t max_bytes = SIZE_MAX) {
  InputSource source = InputSource::open(path.string());
  std::string all;
  std::string buffer(size_t{4} << 20, '\0');
  while (all.size() < max_bytes) {
    const size_t got = source.read(buffer.data(), buffer.size());
    if (got == 0) return all;
    all.append(buffer, 0, got);
  }
  const size_t cut = all.rfind("\n[Event ", max_bytes);
  all.resize(cut == std::string::npos ? 0 : cut + 1);
  return all;
}

// One game's ECO tag (if any), whether it starts from a set-up position, and the first
// main-line moves (deeper ones cannot change the classification).
struct TaggedGame {
  std::string eco_tag;
  bool set_up = false;
  bool failed = false;
  std::vector<std::string_view> tokens;
};

struct TaggedGameCollector : PgnVisitorBase {
  static constexpr size_t kMovesKept = 64;
  std::vector<TaggedGame> games;
  int variation_depth = 0;

  void begin_game(uint64_t, uint32_t) {
    games.emplace_back();
    variation_depth = 0;
  }
  void tag(std::string_view name, std::string_view value) {
    if (name == "ECO") games.back().eco_tag = std::string(value);
    if (name == "FEN" || (name == "Variant" && value != "Standard" && value != "normal"))
      games.back().set_up = true;
  }
  void move(std::string_view token) {
    if (variation_depth == 0 && games.back().tokens.size() < kMovesKept) games.back().tokens.push_back(token);
  }
  void begin_variation() { ++variation_depth; }
  void end_variation() { --variation_depth; }
  void end_game(const GameText&, const PgnError* error) { games.back().failed = error != nullptr; }
};

struct Agreement {
  size_t compared = 0;
  size_t same_code = 0;
  size_t unclassified = 0;
  double rate() const { return compared ? double(same_code) / double(compared) : 0.0; }
};

// Classifies every standard game of text that carries an ECO tag and compares the codes.
Agreement measure_agreement(std::string_view label, std::string_view text) {
  TaggedGameCollector collector;
  PgnReader reader(text);
  reader.read_all(collector);
  Agreement agreement;
  const Board start;
  for (const TaggedGame& game : collector.games) {
    if (game.failed || game.set_up || game.eco_tag.empty() || game.eco_tag == "?") continue;
    std::vector<uint64_t> keys = keys_of(start, game.tokens);
    if (keys.empty()) continue;
    ++agreement.compared;
    const store::EcoEntry* entry = store::EcoTable::builtin().classify(keys);
    if (!entry) ++agreement.unclassified;
    else if (entry->eco == game.eco_tag) ++agreement.same_code;
  }
  std::printf("[ ECO      ] %.*s: %zu of %zu tagged games get their own ECO code (%.1f%%), %zu unclassified\n",
              int(label.size()), label.data(), agreement.same_code, agreement.compared, 100.0 * agreement.rate(),
              agreement.unclassified);
  return agreement;
}

size_t count_tsv_lines() {
  size_t lines = 0;
  for (char letter = 'a'; letter <= 'e'; ++letter) {
    std::ifstream in(kSourceDir / "store/eco" / (std::string(1, letter) + ".tsv"));
    EXPECT_TRUE(in) << "store/eco/" << letter << ".tsv";
    std::string line;
    while (std::getline(in, line)) {
      if (!line.empty() && !line.starts_with("eco\t")) ++lines;
    }
  }
  return lines;
}

TEST(EcoTable, BuiltinHasOneEntryPerTsvLine) {
  const auto begin = Clock::now();
  const store::EcoTable& table = store::EcoTable::builtin();
  const double ms = std::chrono::duration<double, std::milli>(Clock::now() - begin).count();
  std::printf("[ ECO      ] builtin table: %zu lines, %zu distinct positions, max %d plies, first use %.2f ms\n",
              table.size(), table.positions(), table.max_plies(), ms);
  EXPECT_EQ(table.size(), count_tsv_lines());
  EXPECT_EQ(table.size(), 3807u);  // the lichess files at 51b8862: 817 + 769 + 1250 + 614 + 357
  EXPECT_EQ(table.unplayable_lines(), 0u);
  EXPECT_LE(table.positions(), table.size());
  EXPECT_GT(table.positions(), table.size() * 9 / 10);
  EXPECT_GE(table.max_plies(), 30);
  EXPECT_LE(table.max_plies(), 40);
  EXPECT_EQ(&table, &store::EcoTable::builtin());
}

TEST(EcoTable, FindsEveryLineByItsFinalPosition) {
  const store::EcoTable& table = store::EcoTable::builtin();
  const store::EcoEntry* ruy_lopez = table.find(keys_of(Board(), tokens_of("1. e4 e5 2. Nf3 Nc6 3. Bb5")).back());
  ASSERT_NE(ruy_lopez, nullptr);
  EXPECT_EQ(ruy_lopez->eco, "C60");
  EXPECT_EQ(ruy_lopez->name, "Ruy Lopez");
  EXPECT_EQ(ruy_lopez->plies, 5);
  EXPECT_EQ(table.find(Board().key()), nullptr);  // no line is empty
  EXPECT_EQ(table.find(0x0123456789abcdefULL), nullptr);
}

// lichess.org/bmNXFciO (RebeccaHarris - DrNykterstein, 2021.12.22), from the bundled
// sample; lichess tags it C76.
TEST(EcoTable, ClassifiesRealRuyLopezGame) {
  const store::EcoEntry* entry = classify_line(
      "1. e4 e5 2. Nf3 Nc6 3. Bb5 g6 4. c3 a6 5. Ba4 d6 6. d4 Bd7 7. dxe5 Nxe5 8. Bxd7+ Qxd7 9. O-O Bg7 "
      "10. Bf4 Nxf3+ 11. Qxf3 Ne7 12. Nd2 O-O 13. Rad1 Rae8 14. Nc4 Nc6 15. Rfe1 Qe6 16. Qd3 f5 17. f3 b5 "
      "18. Nd2 Qxa2 19. Ra1 Qf7 20. Rxa6 fxe4 21. Rxe4 Rxe4 22. Qxe4 Nb8");
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry->eco, "C76");
  EXPECT_TRUE(entry->name.starts_with("Ruy Lopez")) << entry->name;
  EXPECT_EQ(entry->name, "Ruy Lopez: Morphy Defense, Modern Steinitz Defense, Fianchetto Variation");
}

TEST(EcoTable, ClassifiesWellKnownMainLines) {
  struct Case {
    const char* moves;
    const char* eco;
    const char* name;
  };
  const Case cases[] = {
      {"1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. Be3 e5", "B90", "Sicilian Defense: Najdorf Variation"},
      {"1. d4 d5 2. c4 e6 3. Nc3 Nf6", "D35", "Queen's Gambit Declined: Normal Defense"},
      {"1. e4 e6 2. d4 d5 3. e5 c5", "C02", "French Defense: Advance Variation"},
      {"1. d4 Nf6 2. c4 e6 3. Nc3 Bb4", "E20", "Nimzo-Indian Defense"},
  };
  for (const Case& c : cases) {
    const store::EcoEntry* entry = classify_line(c.moves);
    ASSERT_NE(entry, nullptr) << c.moves;
    EXPECT_EQ(entry->eco, c.eco) << c.moves;
    EXPECT_TRUE(entry->name.starts_with(c.name)) << c.moves << " -> " << entry->name;
  }
}

TEST(EcoTable, DeepestMatchWinsOverShallowerOnes) {
  // After 3.Bb5 the game is "Ruy Lopez" (C60); the later moves leave the table, so
  // the deepest known position is still the one after ply 5.
  const store::EcoEntry* entry = classify_line("1. e4 e5 2. Nf3 Nc6 3. Bb5 h5 4. h4 Rh6");
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry->eco, "C60");
  EXPECT_EQ(entry->plies, 5);
  // Keys beyond max_plies() are never looked at; an empty game has no opening.
  EXPECT_EQ(store::EcoTable::builtin().classify({}), nullptr);
}

TEST(EcoTable, TranspositionIsClassifiedByPosition) {
  // The Queen's Gambit Declined reached through the English Opening move order.
  const store::EcoEntry* via_english = classify_line("1. c4 e6 2. d4 d5");
  const store::EcoEntry* direct = classify_line("1. d4 d5 2. c4 e6");
  ASSERT_NE(via_english, nullptr);
  ASSERT_EQ(via_english, direct);
  EXPECT_EQ(direct->eco, "D30");
  EXPECT_TRUE(direct->name.starts_with("Queen's Gambit Declined")) << direct->name;
  // And a Ruy Lopez position reached with the knights first.
  const store::EcoEntry* knights_first = classify_line("1. Nf3 Nc6 2. e4 e5 3. Bb5");
  ASSERT_NE(knights_first, nullptr);
  EXPECT_EQ(knights_first->eco, "C60");
}

TEST(EcoTable, SameTablePositionKeepsShortestThenFirstLine) {
  const std::string tsv =
      "eco\tname\tpgn\n"
      "X01\tLong way\t1. Nf3 Nf6 2. Ng1 Ng8 3. e4\n"
      "X02\tDirect\t1. e4\n"
      "X03\tDirect again\t1. e4\n"
      "X04\tBroken\t1. e5\n"
      "\n"
      "eco\tname\tpgn\n"
      "X05\tSicilian\t1. e4 c5\r\n";
  const store::EcoTable table(tsv);
  EXPECT_EQ(table.size(), 4u);
  EXPECT_EQ(table.positions(), 2u);
  EXPECT_EQ(table.unplayable_lines(), 1u);
  EXPECT_EQ(table.max_plies(), 5);
  const store::EcoEntry* e4 = table.find(keys_of(Board(), {"e4"}).back());
  ASSERT_NE(e4, nullptr);
  EXPECT_EQ(e4->eco, "X02");
  EXPECT_EQ(e4->name, "Direct");
  const store::EcoEntry* sicilian = table.classify(keys_of(Board(), {"e4", "c5", "Nf3"}));
  ASSERT_NE(sicilian, nullptr);
  EXPECT_EQ(sicilian->name, "Sicilian");
}

TEST(EcoTable, SetUpPositionOutsideTableIsUnclassified) {
  // A rook endgame: neither its start nor any later position is an opening.
  const Board board = parse_fen("8/5k2/8/3R4/8/2K5/8/4r3 w - - 0 40").value();
  std::vector<uint64_t> keys = keys_of(board, {"Rd7+", "Kf6", "Kd4", "Re2"});
  ASSERT_EQ(keys.size(), 5u);
  EXPECT_EQ(store::EcoTable::builtin().classify(keys), nullptr);
  EXPECT_EQ(store::EcoTable::builtin().find(keys[0]), nullptr);
}

TEST(EcoTable, AgreesWithLichessTagsOfBundledSample) {
  ASSERT_TRUE(fs::exists(kSample)) << kSample;
  const std::string text = read_input(kSample);
  Agreement agreement = measure_agreement("tools/sample (lichess 2021-2022)", text);
  EXPECT_EQ(agreement.compared, 2000u);
  // lichess tagged these games with an earlier version of the same table.
  EXPECT_GE(agreement.rate(), 0.85);
  EXPECT_EQ(agreement.unclassified, 0u);
}

TEST(EcoTable, AgreesWithEcoTagsOfSharedFiles) {
  PGNBASE_REQUIRE_SHARED("nasty/tcec/TCEC_Match_1.pgn");
  struct File {
    const char* path;
    size_t max_bytes;
    double lower_bound;
  };
  // TCEC's tags come from its GUI's own ECO book and lichess's older exports from an
  // earlier version of the table, so codes differ on sub-variations: sane lower bounds
  // only. The lichess file is read up to 32 MB (about 11,000 games) to keep the
  // sanitizer build quick; all of it agrees on 93.8% (43,242 of 46,107), and the whole
  // TCEC corpus (bench/tcec-seasons-01-15.pgn.zst) on 79.3% (4,376 of 5,515).
  const File files[] = {
      {"nasty/tcec/TCEC_Match_1.pgn", SIZE_MAX, 0.6},
      {"bench/lichess-api-exports-2018-2022.pgn.zst", size_t{32} << 20, 0.9},
  };
  for (const File& file : files) {
    const fs::path path = test::shared_data(file.path);
    if (!fs::exists(path)) continue;
    Agreement agreement = measure_agreement(file.path, read_input(path, file.max_bytes));
    EXPECT_GT(agreement.compared, 0u) << file.path;
    EXPECT_GE(agreement.rate(), file.lower_bound) << file.path;
  }
}

TEST(EcoTable, ClassifyTakesWellUnderAMicrosecondPerGame) {
  ASSERT_TRUE(fs::exists(kSample)) << kSample;
  const std::string text = read_input(kSample);
  TaggedGameCollector collector;
  PgnReader reader(text);
  reader.read_all(collector);
  std::vector<std::vector<uint64_t>> games;
  for (const TaggedGame& game : collector.games) {
    std::vector<uint64_t> keys = keys_of(Board(), game.tokens);
    if (!keys.empty()) games.push_back(std::move(keys));
  }
  ASSERT_GT(games.size(), 1000u);
  const store::EcoTable& table = store::EcoTable::builtin();
  constexpr int kRounds = 20;
  size_t found = 0;
  const auto begin = Clock::now();
  for (int round = 0; round < kRounds; ++round) {
    for (const std::vector<uint64_t>& keys : games) found += table.classify(keys) != nullptr;
  }
  const double ns = std::chrono::duration<double, std::nano>(Clock::now() - begin).count();
  std::printf("[ ECO      ] classify: %.0f ns per game over %zu games x %d rounds\n",
              ns / double(games.size() * kRounds), games.size(), kRounds);
  EXPECT_EQ(found, games.size() * kRounds);
}

}  // namespace
}  // namespace pgnbase::indexer
