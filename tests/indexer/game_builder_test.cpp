// build_game on hand-made games: Variant tag names, and annotated games that write
// their assessments as text (+=, ±, N ...), which become NAGs instead of rejects.
#include "indexer/game_builder.h"

#include <gtest/gtest.h>

#include "core/pgn_reader.h"

namespace pgnbase::indexer {
namespace {

// Builds the first game of text; the reject's reason when it is rejected.
struct Built {
  bool ok = false;
  GameRecord record;
  RejectRecord reject;
};

Built build(std::string_view text) {
  PgnReader reader(text);
  GameCollector collector(true);
  Built built;
  EXPECT_TRUE(reader.read_game(collector));
  built.ok = build_game(collector.draft(), BuildOptions{}, built.record, built.reject);
  return built;
}

// "ply:text" per stored annotation entry, joined by " | " (these games have no clocks).
std::string annotations_of(const GameRecord& record) {
  std::vector<store::AnnotationView> entries;
  std::string_view lifted;
  EXPECT_TRUE(store::decode_annotations(record.annotations, entries, lifted));
  EXPECT_TRUE(lifted.empty());
  std::string out;
  for (const store::AnnotationView& e : entries) {
    if (!out.empty()) out += " | ";
    out += std::to_string(e.ply) + ":" + std::string(e.text);
  }
  return out;
}

TEST(GameBuilder, VariantNamesOfStandardChess) {
  for (std::string_view name : {"", "Standard", "standard", "normal", "Regular", "regular", " Regular ", "From Position",
                                "chess"})
    EXPECT_EQ(variant_from_tag(name), store::Variant::Standard) << name;
  for (std::string_view name : {"Chess960", "chess 960", "fischerandom", "Fischer Random"})
    EXPECT_EQ(variant_from_tag(name), store::Variant::Chess960) << name;
  for (std::string_view name : {"Crazyhouse", "Atomic", "King of the Hill", "Three-check", "Antichess"})
    EXPECT_EQ(variant_from_tag(name), std::nullopt) << name;
}

TEST(GameBuilder, HandMadeRegularVariantGameIsStandardChess) {
  const Built b = build("[Event \"x\"]\n[Variant \"Regular\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 *\n");
  ASSERT_TRUE(b.ok) << b.reject.reason;
  EXPECT_EQ(b.record.variant, store::Variant::Standard);
  EXPECT_EQ(b.record.eco, "C60");  // classified like any standard game
}

// A repertoire line as people annotate by hand: assessments standing alone, glued to the
// move, in Unicode, inside a variation, and the novelty mark "N" next to knight moves.
TEST(GameBuilder, HandMadeRepertoireGameWithTextAssessmentsIsImported) {
  const Built b = build(
      "[Event \"Caro-Kann repertoire\"]\n\n"
      "1. e4 c6 2. d4 d5 3. Nc3 dxe4 4. Nxe4 Bf5 5. Ng3 Bg6 6. h4 h6 7. Nf3 Nd7 8. h5 Bh7 9. Bd3 Bxd3 "
      "10. Qxd3 e6 11. Bd2 Ngf6 12. O-O-O Be7 += (12... Qc7 13. Ne4 N O-O-O 14. g3 \xE2\xA9\xB2) 13. Kb1 O-O "
      "14. Ne4 Nxe4 15. Qxe4 Nf6 16. Qe2 Qd5 17. c4 Qe4+ 18. Qxe4 Nxe4 = 19. Be1\xC2\xB1 Rfd8 inf "
      "20. Rh4 Nf6 =/\xE2\x88\x9E 21. Ne5 +/- N 1/2-1/2\n");
  ASSERT_TRUE(b.ok) << b.reject.reason;
  EXPECT_EQ(b.record.codes.size(), 41u);
  EXPECT_EQ(annotations_of(b.record),
            "24:$14 (12... Qc7 13. Ne4 $146 O-O-O 14. g3 $14) | 36:$10 | 37:$16 | 38:$13 | 40:$44 | "
            "41:$16 $146");
}

TEST(GameBuilder, HandMadeGameWithoutAnnotationsKeepsNoAssessment) {
  PgnReader reader("1. e4 += e5 =+ 2. Nf3\xC2\xB1 N *");
  GameCollector collector(false);
  ASSERT_TRUE(reader.read_game(collector));
  Built b;
  BuildOptions options;
  options.keep_annotations = false;
  ASSERT_TRUE(build_game(collector.draft(), options, b.record, b.reject)) << b.reject.reason;
  EXPECT_EQ(b.record.codes.size(), 3u);
  EXPECT_TRUE(b.record.annotations.empty());
}

}  // namespace
}  // namespace pgnbase::indexer
