// The assessment symbols of NOTATION.md and their NAGs, alone and glued to a move.
#include "core/assessment.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>

namespace pgnbase {
namespace {

TEST(Assessment, EverySymbolOfTheNotationTableHasItsNag) {
  const std::pair<std::string_view, int> table[] = {
      {"=", 10},           {"inf", 13},          {"\xE2\x88\x9E", 13}, {"+=", 14},           {"+/=", 14},
      {"\xE2\xA9\xB2", 14}, {"=+", 15},          {"=/+", 15},          {"\xE2\xA9\xB1", 15}, {"+/-", 16},
      {"\xC2\xB1", 16},     {"\xB1", 16},        {"-/+", 17},          {"\xE2\x88\x93", 17}, {"+-", 18},
      {"+\xE2\x88\x92", 18}, {"-+", 19},         {"\xE2\x88\x92+", 19}, {"=/inf", 44},       {"=/\xE2\x88\x9E", 44},
      {"\xE2\x96\xA1", 8},  {"\xCE\x94", 140},   {"\xE2\x88\x86", 140}, {"\xE2\x8C\x93", 142}, {"RR", 145},
      {"N", 146}};
  for (const auto& [text, nag] : table) EXPECT_EQ(assessment_nag(text), nag) << text;
}

TEST(Assessment, MovesAndOtherMarksAreNoAssessment) {
  for (std::string_view text : {"", "+", "-", "/", "==", "Nf3", "e8=Q", "O-O", "--", "1-0", "1/2-1/2", "(=)", "!", "n",
                                "Inf", "R", "NN", "\xE2\x88\x92"})
    EXPECT_EQ(assessment_nag(text), 0) << text;
}

// The move left over and the NAG, or the token unchanged and 0.
std::pair<std::string, int> split(std::string_view token) {
  int nag = 0;
  const size_t length = may_end_with_assessment(token) ? glued_assessment_length(token, nag) : 0;
  return {std::string(token.substr(0, token.size() - length)), length > 0 ? nag : 0};
}

TEST(Assessment, GluedSymbolIsSplitOffTheMove) {
  using Split = std::pair<std::string, int>;
  EXPECT_EQ(split("Nd5\xC2\xB1"), (Split{"Nd5", 16}));
  EXPECT_EQ(split("Nd5\xB1"), (Split{"Nd5", 16}));  // Latin-1
  EXPECT_EQ(split("Nd5\xE2\xA9\xB1"), (Split{"Nd5", 15}));  // not the Latin-1 byte 0xB1 it ends with
  EXPECT_EQ(split("Qh5+-"), (Split{"Qh5", 18}));
  EXPECT_EQ(split("Qh5+-+"), (Split{"Qh5+", 19}));
  EXPECT_EQ(split("Nf3+="), (Split{"Nf3", 14}));  // the longest symbol, not check and "="
  EXPECT_EQ(split("e8=Q="), (Split{"e8=Q", 10}));
  EXPECT_EQ(split("e8(Q)+/-"), (Split{"e8(Q)", 16}));
  EXPECT_EQ(split("O-O-O=/+"), (Split{"O-O-O", 15}));
  EXPECT_EQ(split("Rd1\xE2\x96\xA1"), (Split{"Rd1", 8}));
}

TEST(Assessment, MoveMarksAreNotSplitOff) {
  using Split = std::pair<std::string, int>;
  for (std::string_view move : {"e4", "Nf3", "Qh5+", "Qh7#", "Qh7++", "e8=Q", "e8=Q+", "e8N", "O-O-O", "0-0-0", "--",
                                "Sg1-f3", "e2-e4", "Td3:", "Dh7\xE2\x80\xA0", "e8\xE2\x99\x95", "NN", "b5RR"})
    EXPECT_EQ(split(move), (Split{std::string(move), 0})) << move;
  EXPECT_EQ(split("+-"), (Split{"+-", 0}));  // nothing is left for a move: the reader takes it whole
  EXPECT_EQ(split("--+"), (Split{"--+", 0}));  // "-" ends no move
}

}  // namespace
}  // namespace pgnbase
