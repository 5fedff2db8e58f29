#include "dataset/thrift_compact_reader.h"

#include <string>

#include "store/varint.h"

namespace pgnbase::dataset {

namespace {

// Deeper nesting than Parquet's metadata ever has (about 5 levels) is a hostile file
// trying to exhaust the stack.
constexpr int kMaxDepth = 64;
constexpr size_t kMaxOpenStructs = 64;

int64_t unzigzag(uint64_t v) { return int64_t(v >> 1) ^ -int64_t(v & 1); }

}  // namespace

void ThriftReader::need(size_t n) const {
  if (size_t(end_ - p_) < n) throw ThriftReadError("metadata ends inside a value");
}

uint64_t ThriftReader::read_varint() {
  uint64_t v = 0;
  if (!store::get_varint(p_, end_, v)) throw ThriftReadError("metadata ends inside a number");
  return v;
}

void ThriftReader::begin_struct() {
  if (last_ids_.size() >= kMaxOpenStructs) throw ThriftReadError("metadata nested too deeply");
  last_ids_.push_back(0);
}

bool ThriftReader::next_field(int16_t& id, ThriftType& type) {
  if (last_ids_.empty()) throw ThriftReadError("a field outside any struct");
  need(1);
  const uint8_t header = *p_++;
  if (header == 0) {
    last_ids_.pop_back();
    return false;
  }
  const uint8_t nibble = header & 0x0F;
  if (nibble < uint8_t(ThriftType::BoolTrue) || nibble > uint8_t(ThriftType::Struct))
    throw ThriftReadError("unknown field type " + std::to_string(nibble));
  type = ThriftType(nibble);
  const int delta = header >> 4;
  if (delta != 0) {
    id = int16_t(last_ids_.back() + delta);
  } else {
    const int64_t full = unzigzag(read_varint());
    if (full < INT16_MIN || full > INT16_MAX) throw ThriftReadError("field id out of range");
    id = int16_t(full);
  }
  last_ids_.back() = id;
  return true;
}

int32_t ThriftReader::read_i32() {
  const int64_t v = unzigzag(read_varint());
  if (v < INT32_MIN || v > INT32_MAX) throw ThriftReadError("a 32-bit number out of range");
  return int32_t(v);
}

int64_t ThriftReader::read_i64() { return unzigzag(read_varint()); }

int8_t ThriftReader::read_byte() {
  need(1);
  return int8_t(*p_++);
}

std::string_view ThriftReader::read_binary() {
  const uint64_t n = read_varint();
  if (n > uint64_t(end_ - p_)) throw ThriftReadError("a string runs past the end of the metadata");
  std::string_view v(reinterpret_cast<const char*>(p_), size_t(n));
  p_ += n;
  return v;
}

std::pair<ThriftType, size_t> ThriftReader::read_list_header() {
  need(1);
  const uint8_t header = *p_++;
  const uint8_t nibble = header & 0x0F;
  if (nibble < uint8_t(ThriftType::BoolTrue) || nibble > uint8_t(ThriftType::Struct))
    throw ThriftReadError("unknown list element type " + std::to_string(nibble));
  uint64_t n = header >> 4;
  if (n == 15) n = read_varint();
  if (n > uint64_t(end_ - p_)) throw ThriftReadError("a list longer than the metadata holds");
  return {ThriftType(nibble), size_t(n)};
}

void ThriftReader::skip(ThriftType type) { skip_at_depth(type, 0); }

void ThriftReader::skip_at_depth(ThriftType type, int depth) {
  if (depth > kMaxDepth) throw ThriftReadError("metadata nested too deeply");
  switch (type) {
    case ThriftType::BoolTrue:
    case ThriftType::BoolFalse:
      return;  // a field's bool is its header; a list element's is skipped as a byte below
    case ThriftType::Byte:
      read_byte();
      return;
    case ThriftType::I16:
    case ThriftType::I32:
    case ThriftType::I64:
      read_varint();
      return;
    case ThriftType::Double:
      need(8);
      p_ += 8;
      return;
    case ThriftType::Binary:
      read_binary();
      return;
    case ThriftType::List:
    case ThriftType::Set: {
      const auto [element, n] = read_list_header();
      for (size_t i = 0; i < n; ++i) {
        if (element == ThriftType::BoolTrue || element == ThriftType::BoolFalse) read_byte();
        else skip_at_depth(element, depth + 1);
      }
      return;
    }
    case ThriftType::Map: {
      const uint64_t n = read_varint();
      if (n == 0) return;
      if (n > uint64_t(end_ - p_)) throw ThriftReadError("a map longer than the metadata holds");
      need(1);
      const uint8_t types = *p_++;
      const auto key = ThriftType(types >> 4), value = ThriftType(types & 0x0F);
      for (ThriftType t : {key, value})
        if (uint8_t(t) < uint8_t(ThriftType::BoolTrue) || uint8_t(t) > uint8_t(ThriftType::Struct))
          throw ThriftReadError("unknown map element type");
      for (uint64_t i = 0; i < n; ++i)
        for (ThriftType t : {key, value}) {
          if (t == ThriftType::BoolTrue || t == ThriftType::BoolFalse) read_byte();
          else skip_at_depth(t, depth + 1);
        }
      return;
    }
    case ThriftType::Struct: {
      begin_struct();
      int16_t id;
      ThriftType field;
      while (next_field(id, field)) skip_at_depth(field, depth + 1);
      return;
    }
  }
  throw ThriftReadError("unknown type");
}

}  // namespace pgnbase::dataset
