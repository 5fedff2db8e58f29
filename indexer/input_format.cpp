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
    Signature{kSqliteMagic, 0, "an SQLite database"},
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
    Signature{"PAR1"sv, 0, "a Parquet file"},
};

bool has_at(std::string_view head, size_t offset, std::string_view magic) {
  return head.size() >= offset + magic.size() && head.substr(offset, magic.size()) == magic;
}

bool is_bzip2(std::string_view head) { return head.size() >= 4 && head.starts_with("BZh") && head[3] >= '1' && head[3] <= '9'; }

// A POSIX tar header: "ustar" at 257, and the NUL-padded member name in bytes 0-99.
bool is_tar(std::string_view head) {
  return has_at(head, 257, "ustar") && head.substr(0, 100).find('\0') != std::string_view::npos;
}

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_letter(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }

// The offset of the first game's first byte: after a UTF-8 byte-order mark, blank lines,
// '%' escape lines, ';' comment lines and {comments}; npos when head ends before it.
size_t skip_preamble(std::string_view head) {
  size_t at = head.starts_with("\xEF\xBB\xBF") ? 3 : 0;
  while (at < head.size()) {
    const char c = head[at];
    if (is_blank(c)) {
      ++at;
      continue;
    }
    if (c != '%' && c != ';' && c != '{') return at;
    const size_t end = c == '{' ? head.find('}', at) : head.find_first_of("\r\n", at);
    if (end == std::string_view::npos) break;
    at = end + 1;
  }
  return std::string_view::npos;
}

// A tag pair on one line: [Name "value"], the value's \" and \\ escaped.
bool is_tag_pair(std::string_view text) {
  size_t at = 1;  // text starts with '['
  while (at < text.size() && text[at] == ' ') ++at;
  const size_t name = at;
  while (at < text.size() && (is_letter(text[at]) || is_digit(text[at]) || text[at] == '_')) ++at;
  if (at == name) return false;
  while (at < text.size() && (text[at] == ' ' || text[at] == '\t')) ++at;
  if (at >= text.size() || text[at++] != '"') return false;
  for (; at < text.size() && text[at] != '"'; ++at) {
    if (text[at] == '\n' || text[at] == '\r') return false;
    if (text[at] == '\\') ++at;
  }
  if (at++ >= text.size()) return false;
  while (at < text.size() && text[at] == ' ') ++at;
  return at < text.size() && text[at] == ']';
}

// Movetext: a move number and the first letter of a move (a SAN piece or file in any
// language, O-O or 0-0, a figurine's UTF-8 lead byte), or a game that is only a result.
bool is_movetext(std::string_view text) {
  for (std::string_view result : {"1-0"sv, "0-1"sv, "1/2-1/2"sv, "*"sv})
    if (text.starts_with(result) && (text.size() == result.size() || is_blank(text[result.size()]))) return true;
  size_t at = 0;
  while (at < text.size() && at < 5 && is_digit(text[at])) ++at;
  if (at == 0 || at >= text.size() || text[at] != '.') return false;
  while (at < text.size() && (text[at] == '.' || is_blank(text[at]))) ++at;
  return at < text.size() && (is_letter(text[at]) || text[at] == '0' || static_cast<unsigned char>(text[at]) >= 0xC2);
}

// True when the first game of head starts right away (a tag pair or movetext), so that
// damage later in the file is the reader's to reject.
bool starts_as_pgn(std::string_view head) {
  const size_t start = skip_preamble(head);
  if (start == std::string_view::npos) return false;
  const std::string_view text = head.substr(start);
  return text[0] == '[' ? is_tag_pair(text) : is_movetext(text);
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
  if (has_at(head, 0, "PAR1"sv)) return Compression::Parquet;
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
    case Compression::Parquet: return "parquet";
  }
  return "unknown";
}

std::optional<std::string_view> describe_non_pgn(std::string_view head) {
  head = head.substr(0, kSniffBytes);
  for (const Signature& signature : kSignatures)
    if (has_at(head, signature.offset, signature.magic)) return signature.looks_like;
  if (is_bzip2(head)) return "bzip2-compressed data";
  if (is_tar(head)) return "a tar archive";
  if (starts_as_pgn(head)) return std::nullopt;
  size_t control = 0;
  for (char c : head) control += is_control_byte(static_cast<unsigned char>(c));
  if (control * 32 > head.size()) return "binary data";
  return std::nullopt;
}

}  // namespace pgnbase::indexer
