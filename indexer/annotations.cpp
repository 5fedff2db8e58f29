#include "indexer/annotations.h"

#include "indexer/varint.h"

namespace pgnbase::indexer {

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

bool decode_annotations(std::string_view blob, std::vector<AnnotationEntry>& out) {
  out.clear();
  size_t pos = 0;
  while (pos < blob.size()) {
    uint64_t ply, length;
    if (!read_varint(blob, pos, ply) || !read_varint(blob, pos, length) || length > blob.size() - pos)
      return false;
    out.push_back({uint32_t(ply), std::string(blob.substr(pos, length))});
    pos += length;
  }
  return true;
}

}  // namespace pgnbase::indexer
