#include "indexer/input_format.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <string>

#include "tests/support/files.h"
#include "tests/support/shared_data.h"

namespace pgnbase::indexer {
namespace {

namespace fs = std::filesystem;
using namespace std::string_literals;

const fs::path kTestData = fs::path(PGNBASE_SOURCE_DIR) / "tests" / "data";

using test::read_file;

std::string random_bytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::string bytes(n, '\0');
  for (char& c : bytes) c = char(rng() & 0xFF);
  return bytes;
}

const std::string kGame = "[Event \"x\"]\n[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n";

TEST(DetectCompressionTest, MagicBytesNameTheFormat) {
  EXPECT_EQ(detect_compression("\x28\xB5\x2F\xFD...."), Compression::Zstd);
  EXPECT_EQ(detect_compression("\x1F\x8B\x08\x00"), Compression::Gzip);
  EXPECT_EQ(detect_compression("BZh91AY&SY"), Compression::Bzip2);
  EXPECT_EQ(detect_compression("\xFD" "7zXZ\0\0"s), Compression::Xz);
  EXPECT_EQ(detect_compression("PK\x03\x04\x14\0"s), Compression::Zip);
  EXPECT_EQ(detect_compression("PK\x05\x06\0\0"s), Compression::Zip);
  EXPECT_EQ(detect_compression("PAR1\x15\x04"s), Compression::Parquet);
  EXPECT_EQ(detect_compression(kGame), Compression::None);
  EXPECT_EQ(detect_compression("BZh0"), Compression::None);  // no such block size
  EXPECT_EQ(detect_compression("\x1F\x8B"), Compression::None);  // too short to tell
  EXPECT_EQ(detect_compression(""), Compression::None);
}

TEST(DetectCompressionTest, CommittedArchivesAreRecognised) {
  const fs::path dir = kTestData / "archives";
  EXPECT_EQ(detect_compression(read_file(dir / "fide-appendix-e-sample.pgn.gz")), Compression::Gzip);
  EXPECT_EQ(detect_compression(read_file(dir / "fide-appendix-e-sample.pgn.bz2")), Compression::Bzip2);
  EXPECT_EQ(detect_compression(read_file(dir / "fide-appendix-e-sample.pgn.xz")), Compression::Xz);
  EXPECT_EQ(detect_compression(read_file(dir / "fide-and-lichess.zip")), Compression::Zip);
}

TEST(DescribeNonPgnTest, KnownFormatsAreNamed) {
  EXPECT_EQ(describe_non_pgn("SQLite format 3\0\x10\0\x02\x02"s), "an SQLite database");
  EXPECT_EQ(describe_non_pgn("\x89PNG\r\n\x1A\n\0\0\0\rIHDR"s), "a PNG image");
  EXPECT_EQ(describe_non_pgn("\xFF\xD8\xFF\xE0\0\x10JFIF"s), "a JPEG image");
  EXPECT_EQ(describe_non_pgn("GIF89a\x01\0\x01\0"s), "a GIF image");
  EXPECT_EQ(describe_non_pgn("%PDF-1.7\n%\xE2\xE3\xCF\xD3\n1 0 obj\n"), "a PDF document");
  EXPECT_EQ(describe_non_pgn("\x7F" "ELF\x02\x01\x01\0"s), "an ELF executable");
  EXPECT_EQ(describe_non_pgn("7z\xBC\xAF\x27\x1C\0\x04"s), "a 7-Zip archive");
  EXPECT_EQ(describe_non_pgn("Rar!\x1A\x07\x01\0"s), "a RAR archive");
  EXPECT_EQ(describe_non_pgn("\xFF\xFE[\0E\0"s), "UTF-16 text");
  EXPECT_EQ(describe_non_pgn("[\0E\0v\0e\0n\0t\0"s), "UTF-16 text");
  EXPECT_EQ(describe_non_pgn("\x1F\x8B\x08\0\0\0"s), "gzip-compressed data");
  EXPECT_EQ(describe_non_pgn("BZh91AY&SY"), "bzip2-compressed data");
  EXPECT_EQ(describe_non_pgn("PK\x03\x04\x14\0"s), "a zip archive");
  std::string tar(1024, '\0');
  tar.replace(0, 9, "games.pgn");
  tar.replace(257, 6, "ustar\0"s);
  EXPECT_EQ(describe_non_pgn(tar + kGame), "a tar archive");
}

TEST(DescribeNonPgnTest, ControlBytesOverOneInThirtyTwoAreBinary) {
  EXPECT_EQ(describe_non_pgn(random_bytes(1 << 20, 1)), "binary data");
  EXPECT_EQ(describe_non_pgn(random_bytes(200, 2)), "binary data");
  // 100 bytes with 3 NULs pass, with 4 they do not (4 * 32 > 100).
  std::string text(100, 'a');
  for (int i = 0; i < 3; ++i) text[10 * i] = '\0';
  EXPECT_EQ(describe_non_pgn(text), std::nullopt);
  text[50] = '\x01';
  EXPECT_EQ(describe_non_pgn(text), "binary data");
  // Only the first kSniffBytes count: binary after them is the reader's business.
  EXPECT_EQ(describe_non_pgn(std::string(kSniffBytes, 'a') + std::string(kSniffBytes, '\0')), std::nullopt);
}

TEST(DescribeNonPgnTest, TextOfEveryKindIsPgn) {
  EXPECT_EQ(describe_non_pgn(""), std::nullopt);
  EXPECT_EQ(describe_non_pgn(kGame), std::nullopt);
  EXPECT_EQ(describe_non_pgn("\xEF\xBB\xBF" + kGame), std::nullopt);                    // UTF-8 BOM
  EXPECT_EQ(describe_non_pgn("[White \"M\xFCller\"]\n\n1. e4 *\n"), std::nullopt);      // Latin-1
  EXPECT_EQ(describe_non_pgn("[White \"Nepomniachtchi \xD0\xAF\"]\n"), std::nullopt);  // UTF-8
  std::string mixed = kGame;
  for (char& c : mixed) if (c == '\n') c = '\r';  // old Mac line ends
  EXPECT_EQ(describe_non_pgn(mixed + "\t\f\v\x1B[0m"), std::nullopt);
  EXPECT_EQ(describe_non_pgn(kGame + "\x1A"), std::nullopt);                            // DOS ^Z at the end
  // A stray NUL or two inside a file of games.
  EXPECT_EQ(describe_non_pgn("[Event \"Nul\"]\n\n1. e4 \0 e5 *\n\n"s + kGame + kGame), std::nullopt);
  EXPECT_EQ(describe_non_pgn("[Event \"Mustarov\"]" + std::string(300, ' ') + kGame), std::nullopt);
}

TEST(DescribeNonPgnTest, PgnFromTheFirstByteIsPgnWhateverFollows) {
  // Damage after a PGN start (a bad sector) is left to the reader, to become rejects.
  const std::string junk = random_bytes(kSniffBytes, 12);
  ASSERT_EQ(describe_non_pgn(junk), "binary data");
  for (const std::string& start : {kGame, "[Event \"Say \\\"hi\\\"\"] "s, "[Site\"x\"]"s, "\xEF\xBB\xBF" + kGame,
                                  "\n\r\n  \t" + kGame, "% exported by a program\n" + kGame,
                                  "; a comment line\r\n{ a comment\non two lines }\n" + kGame, "1. e4 e5 2. Nf3"s, "1.d4"s,
                                  "12... Qxd5"s, "1. 0-0"s, "1. Sf3 Sf6"s, "1. \xE2\x99\x98" "f3"s, "1-0\n"s,
                                  "1/2-1/2 "s, "*\n"s})
    EXPECT_EQ(describe_non_pgn(start + junk), std::nullopt) << start;
}

TEST(DescribeNonPgnTest, WhatOnlyLooksLikeAPgnStartIsTested) {
  // Not a tag pair or movetext: the control-byte ratio decides, as for any text.
  const std::string junk = random_bytes(kSniffBytes, 13);
  for (const std::string& start : {""s, "["s, "[]"s, "[Event"s, "[Event \"x\""s, "[Event \"x\n\"]"s, "[Event x]"s,
                                  "[\"x\"]"s, "1.\x01"s, "123456. e4"s, "1-0x"s, "{ unclosed"s, "% only\n"s,
                                  "e4 e5"s, "Event \"x\"]"s})
    EXPECT_EQ(describe_non_pgn(start + junk), "binary data") << start;
  // Signatures come first: a PDF's "%PDF-" line is not a PGN escape line.
  EXPECT_EQ(describe_non_pgn("%PDF-1.7\n" + kGame), "a PDF document");
}

TEST(DescribeNonPgnTest, EveryRealPgnFileIsPgn) {
  PGNBASE_REQUIRE_SHARED();
  size_t files = 0;
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator(test::shared_data())) {
    if (!entry.is_regular_file() || entry.path().extension() != ".pgn") continue;
    std::string head = read_file(entry.path()).substr(0, kSniffBytes);
    EXPECT_EQ(describe_non_pgn(head), std::nullopt) << entry.path();
    ++files;
  }
  EXPECT_GE(files, 50u);
}

}  // namespace
}  // namespace pgnbase::indexer
