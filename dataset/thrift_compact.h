// A writer for the Thrift compact protocol, the encoding of Parquet's metadata
// (https://github.com/apache/thrift/blob/master/doc/specs/thrift-compact-protocol.md).
//
// Only what Parquet's FileMetaData and PageHeader use: structs, i8/i32/i64 (zigzag
// varints), binary, bool and lists. Fields must be written in ascending id order
// within a struct, as a generated Thrift writer does; field ids are short deltas then.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace pgnbase::dataset {

// Thrift compact type nibbles.
enum class ThriftType : uint8_t {
  BoolTrue = 1, BoolFalse = 2, Byte = 3, I16 = 4, I32 = 5, I64 = 6, Double = 7,
  Binary = 8, List = 9, Set = 10, Map = 11, Struct = 12,
};

class ThriftWriter {
 public:
  // Field headers; the value follows with the matching write_* call (none for bools).
  void field_i8(int16_t id, int8_t v);
  void field_i32(int16_t id, int32_t v);
  void field_i64(int16_t id, int64_t v);
  void field_binary(int16_t id, std::string_view v);
  void field_bool(int16_t id, bool v);
  // Opens a nested struct as field id; close it with end_struct().
  void begin_struct(int16_t id);
  // Opens a list field of n elements of the given type. Struct elements are written
  // with begin_list_struct() / end_struct(); i32 and binary ones with list_i32 / list_binary.
  void begin_list(int16_t id, ThriftType element, size_t n);
  void begin_list_struct();
  void list_i32(int32_t v);
  void list_binary(std::string_view v);
  // Ends the innermost open struct (a stop byte) and restores its parent's field id.
  void end_struct();

  const std::vector<uint8_t>& bytes() const { return out_; }
  std::vector<uint8_t> take() { return std::move(out_); }

 private:
  void field_header(int16_t id, ThriftType type);
  void varint(uint64_t v);
  static uint64_t zigzag(int64_t v) { return (uint64_t(v) << 1) ^ uint64_t(v >> 63); }

  std::vector<uint8_t> out_;
  int16_t last_id_ = 0;
  std::vector<int16_t> parents_;  // last field id of each enclosing struct
};

}  // namespace pgnbase::dataset
