// What the first bytes of an input say about it: which compression wraps it, and
// whether the bytes inside read as PGN text at all. Both tests look at content only,
// never at the file name.
//
// Compression, by magic bytes at offset 0:
//   zstd 28 B5 2F FD | gzip 1F 8B 08 | bzip2 "BZh" + '1'..'9' | xz FD "7zXZ" 00 |
//   zip "PK" 03 04 (a member) or "PK" 05 06 (an empty archive) |
//   Parquet "PAR1" (a table of games, read as PGN text: parquet_decoder.h)
//
// The text test, on the first kSniffBytes of the uncompressed bytes, in this order:
// 1. They are not PGN when they start with the signature of a known binary format
//    (SQLite, PNG, JPEG, GIF, PDF, ELF, 7-Zip, RAR, tar, UTF-16, or compressed data
//    inside compressed data).
// 2. They are PGN when the first game starts right away: after an optional UTF-8
//    byte-order mark, blank lines, '%' escape lines, ';' comment lines and {comments},
//    the first thing is a tag pair on one line ([Name "value"]), a move number followed
//    by a move (1. e4, 1... Nf6, 1.Sf3, 1. 0-0, a figurine) or a lone result. Whatever
//    follows is the reader's business: a damaged region (a bad sector, a bad copy) becomes
//    rejects, and the good games around it are still imported.
// 3. Otherwise they are not PGN when more than 1 byte in 32 is a control byte other than
//    TAB, LF, VT, FF, CR, SUB and ESC. A ratio and not "any NUL": a few stray NULs or the
//    ^Z (SUB) that DOS editors put at the end must not refuse a file, while random or
//    compressed bytes hold about 10 % such bytes and an SQLite page or an executable far
//    more. Bytes 0x80-0xFF count as text: Latin-1 and UTF-8 files are PGN.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace pgnbase::indexer {

enum class Compression { None, Zstd, Gzip, Bzip2, Xz, Zip, Parquet };

// Bytes that detect_compression needs to see (the xz magic is the longest).
constexpr size_t kMagicBytes = 6;
// Uncompressed bytes that the text test looks at.
constexpr size_t kSniffBytes = size_t{64} << 10;

// The compression whose magic head starts with; None for anything else.
Compression detect_compression(std::string_view head);

// SQLite's file header: an input that starts with it is a database (merged when it is
// pgnbase's, indexer/database_merge.h), never PGN.
constexpr std::string_view kSqliteMagic{"SQLite format 3\0", 16};

// "zstd", "gzip", "bzip2", "xz", "zip", "parquet", or "plain", for messages.
std::string_view compression_name(Compression compression);

// nullopt when head (the first kSniffBytes of the uncompressed input, or all of it when
// shorter) reads as PGN text; otherwise what the bytes look like, worded to follow
// "looks like": "an SQLite database", "a PNG image", ..., "binary data".
std::optional<std::string_view> describe_non_pgn(std::string_view head);

}  // namespace pgnbase::indexer
