// The pattern parsers: what each written form means, and the one-line errors.
#include <gtest/gtest.h>

#include "query/pattern.h"

namespace pgnbase::query {
namespace {

MaterialSpec material(std::string_view text) {
  MaterialSpec m;
  std::string error;
  EXPECT_TRUE(parse_material(text, m, error)) << text << ": " << error;
  return m;
}

TEST(PatternParse, MaterialCountsAndRanges) {
  const MaterialSpec a = material("KRPPvKR"), b = material("KR2PvKR");
  for (Color c : {WHITE, BLACK})
    for (int pt = PAWN; pt <= QUEEN; ++pt) {
      EXPECT_EQ(a.range[c][pt].min, b.range[c][pt].min);
      EXPECT_EQ(a.range[c][pt].max, b.range[c][pt].max);
    }
  EXPECT_EQ(a.range[WHITE][PAWN].min, 2);
  EXPECT_EQ(a.range[WHITE][PAWN].max, 2);
  EXPECT_EQ(a.range[BLACK][PAWN].max, 0);
  EXPECT_EQ(a.range[BLACK][ROOK].min, 1);
  const MaterialSpec r = material("KR*PvKRP*P");
  EXPECT_EQ(r.range[WHITE][PAWN].min, 0);
  EXPECT_EQ(r.range[WHITE][PAWN].max, 255);
  EXPECT_EQ(r.range[BLACK][PAWN].min, 1);  // one pawn and any more
  EXPECT_EQ(r.range[BLACK][PAWN].max, 255);
  EXPECT_EQ(r.range[WHITE][QUEEN].max, 0);
}

TEST(PatternParse, MaterialErrorsNameTheBadPart) {
  MaterialSpec m;
  std::string error;
  EXPECT_FALSE(parse_material("KRX", m, error));
  EXPECT_EQ(error, "'KRX' has no piece X");
  EXPECT_FALSE(parse_material("KRvKRvK", m, error));
  EXPECT_NE(error.find("expected WHITEvBLACK"), std::string::npos);
  EXPECT_FALSE(parse_material("KR3vK", m, error));
  EXPECT_NE(error.find("ends in a count"), std::string::npos);
  EXPECT_FALSE(parse_material("KKRvK", m, error));
  EXPECT_NE(error.find("one K"), std::string::npos);
}

// Issue 22 item 9: 256 pawns wrapped the count to 0 and the range to "any number".
TEST(PatternParse, MaterialCountsCannotWrap) {
  MaterialSpec m;
  std::string error;
  EXPECT_FALSE(parse_material("K" + std::string(256, 'P') + "vK", m, error));
  EXPECT_NE(error.find("more than 8 pawns"), std::string::npos) << error;
  EXPECT_FALSE(parse_material("K9PvK", m, error));
  EXPECT_NE(error.find("more than 8 pawns"), std::string::npos) << error;
  std::string many = "K";
  for (int i = 0; i < 20; ++i) many += "15Q";
  EXPECT_FALSE(parse_material(many + "vK", m, error));
  EXPECT_NE(error.find("more than 16 men"), std::string::npos) << error;
  EXPECT_TRUE(parse_material("KQQQQQQQQQRRBBNNvK", m, error)) << error;  // 15 men: legal after promotions
  EXPECT_TRUE(parse_material("K8P7QvK", m, error)) << error;
}

TEST(PatternParse, ImbalanceForms) {
  ImbalanceSpec i;
  std::string error;
  ASSERT_TRUE(parse_imbalance("QvRR", i, error)) << error;
  EXPECT_EQ(i.difference[QUEEN], 1);
  EXPECT_EQ(i.difference[ROOK], -2);
  EXPECT_TRUE(i.pawns_free);
  ASSERT_TRUE(parse_imbalance("Pawn+2", i, error)) << error;
  EXPECT_EQ(i.difference[PAWN], 2);
  EXPECT_FALSE(i.pawns_free);
  ImbalanceSpec same;
  ASSERT_TRUE(parse_imbalance("PPv", same, error));
  EXPECT_EQ(same.difference, i.difference);
  ASSERT_TRUE(parse_imbalance("vPP", i, error));
  EXPECT_EQ(i.difference[PAWN], -2);
  EXPECT_FALSE(parse_imbalance("Pawn+x", i, error));
  EXPECT_FALSE(parse_imbalance("QvK", i, error));
  EXPECT_NE(error.find("no piece K"), std::string::npos);
}

TEST(PatternParse, PieceListAndMaskAgree) {
  PlacementSpec list, mask;
  std::string error;
  ASSERT_TRUE(parse_pieces("wKg1 Rf1 bKg8 ph7 -e4", list, error)) << error;
  ASSERT_TRUE(parse_pieces(std::string(8, '?') + "/???????p/" + std::string(8, '?') + "/" + std::string(8, '?') + "/" + std::string(4, '?') + "." + std::string(3, '?') + "/" +
                               std::string(8, '?') + "/" + std::string(8, '?') + "/?????RK?",
                           mask, error))
      << error;
  // The mask has no black king: add it to compare the rest.
  mask.required[BLACK][KING] = square_bb(SQ_G8);
  EXPECT_EQ(list.required, mask.required);
  EXPECT_EQ(list.empty, mask.empty);
  EXPECT_EQ(list.empty, square_bb(SQ_E4));
  PlacementSpec fen;
  ASSERT_TRUE(parse_pieces("6k1/8/8/8/8/8/8/6K1", fen, error));
  EXPECT_EQ(popcount(fen.empty), 62);
  EXPECT_FALSE(parse_pieces("wKg1 wQg1", list, error));
  EXPECT_NE(error.find("two things on one square"), std::string::npos);
  EXPECT_FALSE(parse_pieces("9/8/8/8/8/8/8/8", list, error));
  EXPECT_FALSE(parse_pieces("8/8/8/8/8/8/8/8/8", list, error));
  EXPECT_FALSE(parse_pieces("wZa1", list, error));
  EXPECT_EQ(error, "'wZa1' has no piece Z");
}

TEST(PatternParse, PawnsOfBothOrOneColour) {
  PawnSpec p;
  std::string error;
  ASSERT_TRUE(parse_pawns("8/pp3ppp/4p3/8/3P4/8/PP3PPP/8", p, error)) << error;
  EXPECT_EQ(popcount(p.pawns[WHITE]), 6);
  EXPECT_EQ(popcount(p.pawns[BLACK]), 6);
  EXPECT_TRUE(p.checked[WHITE] && p.checked[BLACK]);
  ASSERT_TRUE(parse_pawns("w:8/8/8/8/3P4/8/PP3PPP/8", p, error)) << error;
  EXPECT_FALSE(p.checked[BLACK]);
  EXPECT_FALSE(parse_pawns("w:8/p7/8/8/8/8/8/8", p, error));  // a black pawn in a White-only board
  EXPECT_FALSE(parse_pawns("8/8/8/8/8/8/8/N7", p, error));
}

TEST(PatternParse, PlyRanges) {
  uint32_t from, to;
  std::string error;
  ASSERT_TRUE(parse_ply_range("20-60", from, to, error));
  EXPECT_EQ(from, 20u);
  EXPECT_EQ(to, 60u);
  ASSERT_TRUE(parse_ply_range("20-", from, to, error));
  EXPECT_EQ(to, UINT32_MAX);
  ASSERT_TRUE(parse_ply_range("-60", from, to, error));
  EXPECT_EQ(from, 0u);
  ASSERT_TRUE(parse_ply_range("40", from, to, error));
  EXPECT_EQ(from, 40u);
  EXPECT_EQ(to, 40u);
  EXPECT_FALSE(parse_ply_range("-", from, to, error));
  EXPECT_FALSE(parse_ply_range("60-20", from, to, error));
  EXPECT_FALSE(parse_ply_range("x", from, to, error));
}

}  // namespace
}  // namespace pgnbase::query
