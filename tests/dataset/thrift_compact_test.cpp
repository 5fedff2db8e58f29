// The Thrift compact encoder against byte sequences worked out by hand from the
// protocol specification.
#include <gtest/gtest.h>

#include "dataset/thrift_compact.h"

namespace pgnbase::dataset {
namespace {

std::vector<uint8_t> bytes(std::initializer_list<int> v) { return std::vector<uint8_t>(v.begin(), v.end()); }

TEST(ThriftCompactTest, ShortFieldDeltasShareTheHeaderByte) {
  ThriftWriter t;
  t.field_i32(1, 3);       // delta 1, type 5; zigzag(3) = 6
  t.field_i64(3, -1);      // delta 2, type 6; zigzag(-1) = 1
  t.field_binary(4, "ab"); // delta 1, type 8; length 2
  t.end_struct();
  EXPECT_EQ(t.bytes(), bytes({0x15, 0x06, 0x26, 0x01, 0x18, 0x02, 'a', 'b', 0x00}));
}

TEST(ThriftCompactTest, LongDeltaWritesTheIdAsZigzagVarint) {
  ThriftWriter t;
  t.field_i32(1, 0);
  t.field_i32(20, 300);  // delta 19: type byte, then zigzag(20) = 40; zigzag(300) = 600 = 0xd8 0x04
  EXPECT_EQ(t.bytes(), bytes({0x15, 0x00, 0x05, 40, 0xd8, 0x04}));
}

TEST(ThriftCompactTest, NestedStructsRestoreTheParentFieldId) {
  ThriftWriter t;
  t.field_i32(5, 1);
  t.begin_struct(10);     // delta 5, type 12
  t.field_bool(2, false); // delta 2, type 2 (false)
  t.end_struct();
  t.field_i32(11, 2);     // delta 1 from 10
  EXPECT_EQ(t.bytes(), bytes({0x55, 0x02, 0x5c, 0x22, 0x00, 0x15, 0x04}));
}

TEST(ThriftCompactTest, ListsOfFifteenOrMoreCarryTheirSizeAsVarint) {
  ThriftWriter t;
  t.begin_list(1, ThriftType::I32, 2);
  t.list_i32(1);
  t.list_i32(-1);
  t.begin_list(2, ThriftType::Struct, 20);
  EXPECT_EQ(t.bytes(), bytes({0x19, 0x25, 0x02, 0x01, 0x19, 0xfc, 20}));
}

}  // namespace
}  // namespace pgnbase::dataset
