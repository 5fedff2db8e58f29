// A reader for the Thrift compact protocol (thrift_compact.h is its writer), for
// Parquet's footer and page headers read from untrusted files. Every varint, length and
// nesting level is checked against the bytes given: damaged input ends in a
// ThriftReadError, never a read past the end.
//
// Use: begin_struct(), then next_field() until it returns false (the stop byte), reading
// each field's value with the read_* call its type asks for, or skip() for fields the
// caller does not know. A bool field's value is in its header: read_bool(type).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "dataset/thrift_compact.h"

namespace pgnbase::dataset {

// The bytes are not valid Thrift compact data; what() says what was wrong.
class ThriftReadError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class ThriftReader {
 public:
  // Reads bytes, which must outlive the reader (read_binary returns views into them).
  explicit ThriftReader(std::span<const uint8_t> bytes) : p_(bytes.data()), end_(bytes.data() + bytes.size()), begin_(bytes.data()) {}

  // Enters a struct (the top-level one, or a field or list element of type Struct).
  void begin_struct();
  // The next field of the current struct; false at its stop byte, after which the
  // struct is left.
  bool next_field(int16_t& id, ThriftType& type);

  int32_t read_i32();
  int64_t read_i64();
  int8_t read_byte();
  // A bool field's value (its header's type); a bool list element is read_byte() != 0.
  static bool read_bool(ThriftType field_type) { return field_type == ThriftType::BoolTrue; }
  std::string_view read_binary();
  // A list or set header: the element type and count. The count is checked against the
  // bytes left (each element takes at least one byte), so a hostile count cannot make a
  // caller reserve gigabytes.
  std::pair<ThriftType, size_t> read_list_header();
  // Skips a value of the given type (nested structs and lists included).
  void skip(ThriftType type);

  // Bytes consumed so far.
  size_t position() const { return size_t(p_ - begin_); }

 private:
  uint64_t read_varint();
  void need(size_t n) const;
  void skip_at_depth(ThriftType type, int depth);

  const uint8_t* p_;
  const uint8_t* end_;
  const uint8_t* begin_;
  std::vector<int16_t> last_ids_;  // the last field id of each open struct
};

}  // namespace pgnbase::dataset
