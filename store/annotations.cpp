#include "store/annotations.h"

#include "store/varint.h"

namespace pgnbase::store {

void append_varint(uint64_t value, std::string& out) {
  uint8_t buffer[kMaxVarintBytes];
  uint8_t* end = put_varint(buffer, value);
  out.append(reinterpret_cast<const char*>(buffer), size_t(end - buffer));
}

bool read_varint(std::string_view in, size_t& pos, uint64_t& value) {
  if (pos > in.size()) return false;
  auto begin = reinterpret_cast<const uint8_t*>(in.data());
  const uint8_t* p = begin + pos;
  if (!get_varint(p, begin + in.size(), value)) return false;
  pos = size_t(p - begin);
  return true;
}

void encode_annotations(const std::vector<AnnotationEntry>& entries, std::string& out) {
  for (const AnnotationEntry& e : entries) {
    append_varint(e.ply, out);
    append_varint(e.text.size(), out);
    out += e.text;
  }
}

bool read_length_prefixed(std::string_view in, size_t& pos, std::string_view& bytes) {
  uint64_t length;
  if (!read_varint(in, pos, length) || length > in.size() - pos) return false;
  bytes = in.substr(pos, length);
  pos += length;
  return true;
}

bool decode_annotations(std::string_view payload, std::vector<AnnotationView>& out, std::string_view& lifted_section) {
  out.clear();
  lifted_section = {};
  size_t pos = 0;
  while (pos < payload.size()) {
    uint64_t ply;
    AnnotationView a;
    if (!read_varint(payload, pos, ply) || (ply > UINT32_MAX && ply != kLiftedSectionKey) ||
        !read_length_prefixed(payload, pos, a.text))
      return false;
    if (ply == kLiftedSectionKey) {
      if (!lifted_section.empty() || a.text.empty()) return false;
      lifted_section = a.text;
      continue;
    }
    a.ply = uint32_t(ply);
    out.push_back(a);
  }
  return true;
}

}  // namespace pgnbase::store
