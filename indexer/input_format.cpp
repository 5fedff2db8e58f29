#include "indexer/input_format.h"

#include <array>

namespace pgnbase::indexer {

namespace {

using namespace std::string_view_literals;

struct Signature {
  std::string_view magic;
  size_t offset;
  std::string_view looks_like;
};

// Formats people mistake for PGN archives, or that a download may really be.
constexpr std::array kSignatures = {
    Signature{"SQLite format 3\0"sv, 0, "an SQLite database"},
    Signature{"\x89PNG\r\n\x1A\n"sv, 0, "a PNG image"},
    Signature{"\xFF\xD8\xFF"sv, 0, "a JPEG image"},
    Signature{"GIF87a"sv, 0, "a GIF image"},
    Signature{"GIF89a"sv, 0, "a GIF image"},
    Signature{"%PDF-"sv, 0, "a PDF document"},
    Signature{"\x7F" "ELF"sv, 0, "an ELF executable"},
    Signature{"7z\xBC\xAF\x27\x1C"sv, 0, "a 7-Zip archive"},
    Signature{"Rar!\x1A\x07"sv, 0, "a RAR archive"},
    Signature{"\xFF\xFE"sv, 0, "UTF-16 text"},
    Signature{"\xFE\xFF"sv, 0, "UTF-16 text"},
    Signature{"[\0"sv, 0, "UTF-16 text"},
    Signature{"\0["sv, 0, "UTF-16 text"},
    // Compressed data inside compressed data (a .pgn.gz.gz, a zip inside a .gz).
    Signature{"\x28\xB5\x2F\xFD"sv, 0, "zstd-compressed data"},
    Signature{"\x1F\x8B\x08"sv, 0, "gzip-compressed data"},
    Signature{"\xFD" "7zXZ\0"sv, 0, "xz-compressed data"},
    Signature{"PK\x03\x04"sv, 0, "a zip archive"},
};

bool has_at(std::string_view head, size_t offset, std::string_view magic) {
  return head.size() >= offset + magic.size() && head.substr(offset, magic.size()) == magic;
}

bool is_bzip2(std::string_view head) { return head.size() >= 4 && head.starts_with("BZh") && head[3] >= '1' && head[3] <= '9'; }

// A POSIX tar header: "ustar" at 257, and the NUL-padded member name in bytes 0-99.
bool is_tar(std::string_view head) {
  return has_at(head, 257, "ustar") && head.substr(0, 100).find('\0') != std::string_view::npos;
}

bool is_control_byte(unsigned char c) {
  if (c == 0x7F) return true;
  if (c >= 0x20) return false;
  // TAB, LF, VT, FF, CR: whitespace; SUB: DOS end of file; ESC: terminal colours in old logs.
  return !(c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r' || c == 0x1A || c == 0x1B);
}

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

std::optional<std::string_view> describe_non_pgn(std::string_view head) {
  head = head.substr(0, kSniffBytes);
  for (const Signature& signature : kSignatures)
    if (has_at(head, signature.offset, signature.magic)) return signature.looks_like;
  if (is_bzip2(head)) return "bzip2-compressed data";
  if (is_tar(head)) return "a tar archive";
  size_t control = 0;
  for (char c : head) control += is_control_byte(static_cast<unsigned char>(c));
  if (control * 32 > head.size()) return "binary data";
  return std::nullopt;
}

}  // namespace pgnbase::indexer
