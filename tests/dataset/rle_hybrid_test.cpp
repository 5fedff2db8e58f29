// The RLE / bit-packing hybrid against the specification's example and hand-made
// sequences: runs, bit-packed groups, and where one gives way to the other.
#include <gtest/gtest.h>

#include "dataset/rle_hybrid.h"

namespace pgnbase::dataset {
namespace {

std::vector<uint8_t> encode(std::vector<uint32_t> values, int bit_width) {
  std::vector<uint8_t> out;
  append_rle_hybrid(values, bit_width, out);
  return out;
}

TEST(RleHybridTest, SpecificationBitPackingExample) {
  // The spec packs 0..7 with bit width 3 as 10001000 11000110 11111010.
  EXPECT_EQ(encode({0, 1, 2, 3, 4, 5, 6, 7}, 3), (std::vector<uint8_t>{0x03, 0x88, 0xc6, 0xfa}));
}

TEST(RleHybridTest, LongRunIsOneRepeatedRun) {
  // 300 ones: header 600 = 0xd8 0x04, then the value in one byte.
  EXPECT_EQ(encode(std::vector<uint32_t>(300, 1), 1), (std::vector<uint8_t>{0xd8, 0x04, 0x01}));
  // Bit width 9 needs two value bytes.
  EXPECT_EQ(encode(std::vector<uint32_t>(8, 258), 9), (std::vector<uint8_t>{0x10, 0x02, 0x01}));
}

TEST(RleHybridTest, ShortTailIsPaddedToAGroupOfEight) {
  // 1,0,1: one bit-packed group, bits 101 then zeros.
  EXPECT_EQ(encode({1, 0, 1}, 1), (std::vector<uint8_t>{0x03, 0x05}));
}

TEST(RleHybridTest, RunAfterAGroupBoundaryIsRepeated) {
  // 8 mixed values, then 10 zeros: one group bit-packed, then a run of 10.
  std::vector<uint32_t> v{1, 0, 1, 1, 0, 0, 0, 1};
  v.insert(v.end(), 10, 0);
  EXPECT_EQ(encode(v, 1), (std::vector<uint8_t>{0x03, 0x8d, 0x14, 0x00}));
}

TEST(RleHybridTest, BitWidthOfTheLargestValue) {
  EXPECT_EQ(bit_width_for(0), 0);
  EXPECT_EQ(bit_width_for(1), 1);
  EXPECT_EQ(bit_width_for(255), 8);
  EXPECT_EQ(bit_width_for(256), 9);
}

}  // namespace
}  // namespace pgnbase::dataset
