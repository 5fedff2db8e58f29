// show's readable annotations: NAGs as symbols, [%clk] and [%eval] out of the comments.
#include <gtest/gtest.h>

#include "query/annotation_text.h"

namespace pgnbase::query {
namespace {

TEST(AnnotationText, NagsReadAsSymbols) {
  EXPECT_EQ(readable_annotation("$14").text, "\u2A72");
  EXPECT_EQ(readable_annotation("$1 {good}").text, "! {good}");
  EXPECT_EQ(readable_annotation("$5 $16").text, "!? \u00B1");
  EXPECT_EQ(readable_annotation("$250").text, "$250");  // no common symbol: kept as written
  EXPECT_EQ(readable_annotation("(12... Nf6 13. e4)").text, "(12... Nf6 13. e4)");
}

TEST(AnnotationText, ClockAndEvaluationLeaveTheComment) {
  ReadableAnnotation a = readable_annotation("{ [%eval 0.17] [%clk 0:03:00] }");
  EXPECT_EQ(a.text, "");
  EXPECT_EQ(a.clock, "0:03:00");
  EXPECT_EQ(a.eval, "+0.17");
  a = readable_annotation("{ [%eval #-3] [%clk 0:00:09] } $2 {Blunder, mate follows}");
  EXPECT_EQ(a.eval, "#-3");
  EXPECT_EQ(a.clock, "0:00:09");
  EXPECT_EQ(a.text, "? {Blunder, mate follows}");
  a = readable_annotation("{Nice [%clk 1:00:00] move}");
  EXPECT_EQ(a.text, "{Nice  move}");
  EXPECT_EQ(a.eval, "");
}

}  // namespace
}  // namespace pgnbase::query
