#include "indexer/input_format.h"

namespace pgnbase::indexer {

namespace {

using namespace std::string_view_literals;

bool has_at(std::string_view head, size_t offset, std::string_view magic) {
  return head.size() >= offset + magic.size() && head.substr(offset, magic.size()) == magic;
}

bool is_bzip2(std::string_view head) { return head.size() >= 4 && head.starts_with("BZh") && head[3] >= '1' && head[3] <= '9'; }

}  // namespace

Compression detect_compression(std::string_view head) {
  if (has_at(head, 0, "\x28\xB5\x2F\xFD"sv)) return Compression::Zstd;
  if (has_at(head, 0, "\x1F\x8B\x08"sv)) return Compression::Gzip;
  if (is_bzip2(head)) return Compression::Bzip2;
  if (has_at(head, 0, "\xFD" "7zXZ\0"sv)) return Compression::Xz;
  if (has_at(head, 0, "PK\x03\x04"sv) || has_at(head, 0, "PK\x05\x06"sv)) return Compression::Zip;
  return Compression::None;
}

std::string_view compression_name(Compression compression) {
  switch (compression) {
    case Compression::None: return "plain";
    case Compression::Zstd: return "zstd";
    case Compression::Gzip: return "gzip";
    case Compression::Bzip2: return "bzip2";
    case Compression::Xz: return "xz";
    case Compression::Zip: return "zip";
  }
  return "unknown";
}

}  // namespace pgnbase::indexer
