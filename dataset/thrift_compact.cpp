#include "dataset/thrift_compact.h"

#include "store/varint.h"

namespace pgnbase::dataset {

void ThriftWriter::varint(uint64_t v) { store::put_varint(out_, v); }

// A delta of 1..15 from the previous field id fits in the header byte's high nibble;
// otherwise the id follows as a zigzag varint.
void ThriftWriter::field_header(int16_t id, ThriftType type) {
  const int delta = id - last_id_;
  if (delta > 0 && delta <= 15) {
    out_.push_back(uint8_t(delta << 4 | uint8_t(type)));
  } else {
    out_.push_back(uint8_t(type));
    varint(zigzag(id));
  }
  last_id_ = id;
}

void ThriftWriter::field_i8(int16_t id, int8_t v) {
  field_header(id, ThriftType::Byte);
  out_.push_back(uint8_t(v));
}

void ThriftWriter::field_i32(int16_t id, int32_t v) {
  field_header(id, ThriftType::I32);
  varint(zigzag(v));
}

void ThriftWriter::field_i64(int16_t id, int64_t v) {
  field_header(id, ThriftType::I64);
  varint(zigzag(v));
}

void ThriftWriter::field_binary(int16_t id, std::string_view v) {
  field_header(id, ThriftType::Binary);
  list_binary(v);
}

void ThriftWriter::field_bool(int16_t id, bool v) { field_header(id, v ? ThriftType::BoolTrue : ThriftType::BoolFalse); }

void ThriftWriter::begin_struct(int16_t id) {
  field_header(id, ThriftType::Struct);
  parents_.push_back(last_id_);
  last_id_ = 0;
}

void ThriftWriter::begin_list(int16_t id, ThriftType element, size_t n) {
  field_header(id, ThriftType::List);
  if (n < 15) {
    out_.push_back(uint8_t(n << 4 | uint8_t(element)));
  } else {
    out_.push_back(uint8_t(0xF0 | uint8_t(element)));
    varint(n);
  }
}

void ThriftWriter::begin_list_struct() {
  parents_.push_back(last_id_);
  last_id_ = 0;
}

void ThriftWriter::list_i32(int32_t v) { varint(zigzag(v)); }

void ThriftWriter::list_binary(std::string_view v) {
  varint(v.size());
  out_.insert(out_.end(), v.begin(), v.end());
}

void ThriftWriter::end_struct() {
  out_.push_back(0);
  if (!parents_.empty()) {
    last_id_ = parents_.back();
    parents_.pop_back();
  }
}

}  // namespace pgnbase::dataset
