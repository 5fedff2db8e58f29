// The pattern parsers: what each written form means, and the one-line errors.
#include <gtest/gtest.h>

#include "search/pattern.h"

namespace pgnbase::query {
namespace {

search::MaterialSpec material(std::string_view text) {
  Parsed<search::MaterialSpec> m = search::parse_material(text);
  EXPECT_TRUE(m) << text << ": " << (m ? "" : m.error());
  return m ? *m : search::MaterialSpec{};
}

// The error of a text that must not parse ("" when it parses).
template <class T>
std::string error_of(const Parsed<T>& parsed) {
  EXPECT_FALSE(parsed);
  return parsed ? "" : parsed.error();
}

TEST(PatternParse, MaterialCountsAndRanges) {
  const search::MaterialSpec a = material("KRPPvKR"), b = material("KR2PvKR");
  for (Color c : {WHITE, BLACK})
    for (int pt = PAWN; pt <= QUEEN; ++pt) {
      EXPECT_EQ(a.range[c][pt].min, b.range[c][pt].min);
      EXPECT_EQ(a.range[c][pt].max, b.range[c][pt].max);
    }
  EXPECT_EQ(a.range[WHITE][PAWN].min, 2);
  EXPECT_EQ(a.range[WHITE][PAWN].max, 2);
  EXPECT_EQ(a.range[BLACK][PAWN].max, 0);
  EXPECT_EQ(a.range[BLACK][ROOK].min, 1);
  const search::MaterialSpec r = material("KR*PvKRP*P");
  EXPECT_EQ(r.range[WHITE][PAWN].min, 0);
  EXPECT_EQ(r.range[WHITE][PAWN].max, 255);
  EXPECT_EQ(r.range[BLACK][PAWN].min, 1);  // one pawn and any more
  EXPECT_EQ(r.range[BLACK][PAWN].max, 255);
  EXPECT_EQ(r.range[WHITE][QUEEN].max, 0);
}

TEST(PatternParse, MaterialErrorsNameTheBadPart) {
  EXPECT_EQ(error_of(search::parse_material("KRX")), "'KRX' has no piece X");
  EXPECT_NE(error_of(search::parse_material("KRvKRvK")).find("expected WHITEvBLACK"), std::string::npos);
  EXPECT_NE(error_of(search::parse_material("KR3vK")).find("ends in a count"), std::string::npos);
  EXPECT_NE(error_of(search::parse_material("KKRvK")).find("one K"), std::string::npos);
}

// Issue 22 item 9: 256 pawns wrapped the count to 0 and the range to "any number".
TEST(PatternParse, MaterialCountsCannotWrap) {
  std::string error = error_of(search::parse_material("K" + std::string(256, 'P') + "vK"));
  EXPECT_NE(error.find("more than 8 pawns"), std::string::npos) << error;
  error = error_of(search::parse_material("K9PvK"));
  EXPECT_NE(error.find("more than 8 pawns"), std::string::npos) << error;
  std::string many = "K";
  for (int i = 0; i < 20; ++i) many += "15Q";
  error = error_of(search::parse_material(many + "vK"));
  EXPECT_NE(error.find("more than 16 men"), std::string::npos) << error;
  material("KQQQQQQQQQRRBBNNvK");  // 15 men: legal after promotions
  material("K8P7QvK");
}

TEST(PatternParse, ImbalanceForms) {
  Parsed<search::ImbalanceSpec> i = search::parse_imbalance("QvRR");
  ASSERT_TRUE(i) << i.error();
  EXPECT_EQ(i->difference[QUEEN], 1);
  EXPECT_EQ(i->difference[ROOK], -2);
  EXPECT_TRUE(i->pawns_free);
  i = search::parse_imbalance("Pawn+2");
  ASSERT_TRUE(i) << i.error();
  EXPECT_EQ(i->difference[PAWN], 2);
  EXPECT_FALSE(i->pawns_free);
  Parsed<search::ImbalanceSpec> same = search::parse_imbalance("PPv");
  ASSERT_TRUE(same);
  EXPECT_EQ(same->difference, i->difference);
  i = search::parse_imbalance("vPP");
  ASSERT_TRUE(i);
  EXPECT_EQ(i->difference[PAWN], -2);
  error_of(search::parse_imbalance("Pawn+x"));
  EXPECT_NE(error_of(search::parse_imbalance("QvK")).find("no piece K"), std::string::npos);
}

TEST(PatternParse, PieceListAndMaskAgree) {
  Parsed<search::PlacementSpec> list = search::parse_pieces("wKg1 Rf1 bKg8 ph7 -e4");
  ASSERT_TRUE(list) << list.error();
  Parsed<search::PlacementSpec> mask =
      search::parse_pieces(std::string(8, '?') + "/???????p/" + std::string(8, '?') + "/" + std::string(8, '?') + "/" +
                   std::string(4, '?') + "." + std::string(3, '?') + "/" + std::string(8, '?') + "/" +
                   std::string(8, '?') + "/?????RK?");
  ASSERT_TRUE(mask) << mask.error();
  // The mask has no black king: add it to compare the rest.
  mask->required[BLACK][KING] = square_bb(SQ_G8);
  EXPECT_EQ(list->required, mask->required);
  EXPECT_EQ(list->empty, mask->empty);
  EXPECT_EQ(list->empty, square_bb(SQ_E4));
  Parsed<search::PlacementSpec> fen = search::parse_pieces("6k1/8/8/8/8/8/8/6K1");
  ASSERT_TRUE(fen);
  EXPECT_EQ(popcount(fen->empty), 62);
  EXPECT_NE(error_of(search::parse_pieces("wKg1 wQg1")).find("two things on one square"), std::string::npos);
  error_of(search::parse_pieces("9/8/8/8/8/8/8/8"));
  error_of(search::parse_pieces("8/8/8/8/8/8/8/8/8"));
  EXPECT_EQ(error_of(search::parse_pieces("wZa1")), "'wZa1' has no piece Z");
}

TEST(PatternParse, PawnsOfBothOrOneColour) {
  Parsed<search::PawnSpec> p = search::parse_pawns("8/pp3ppp/4p3/8/3P4/8/PP3PPP/8");
  ASSERT_TRUE(p) << p.error();
  EXPECT_EQ(popcount(p->pawns[WHITE]), 6);
  EXPECT_EQ(popcount(p->pawns[BLACK]), 6);
  EXPECT_TRUE(p->checked[WHITE] && p->checked[BLACK]);
  p = search::parse_pawns("w:8/8/8/8/3P4/8/PP3PPP/8");
  ASSERT_TRUE(p) << p.error();
  EXPECT_FALSE(p->checked[BLACK]);
  error_of(search::parse_pawns("w:8/p7/8/8/8/8/8/8"));  // a black pawn in a White-only board
  error_of(search::parse_pawns("8/8/8/8/8/8/8/N7"));
}

TEST(PatternParse, PlyRanges) {
  Parsed<search::PlyRange> r = search::parse_ply_range("20-60");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->from, 20u);
  EXPECT_EQ(r->to, 60u);
  r = search::parse_ply_range("20-");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->to, UINT32_MAX);
  r = search::parse_ply_range("-60");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->from, 0u);
  r = search::parse_ply_range("40");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->from, 40u);
  EXPECT_EQ(r->to, 40u);
  error_of(search::parse_ply_range("-"));
  error_of(search::parse_ply_range("60-20"));
  error_of(search::parse_ply_range("x"));
}

}  // namespace
}  // namespace pgnbase::query
