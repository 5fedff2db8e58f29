#include "indexer/input_format.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace pgnbase::indexer {
namespace {

namespace fs = std::filesystem;
using namespace std::string_literals;

const fs::path kTestData = fs::path(PGNBASE_SOURCE_DIR) / "tests" / "data";

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

const std::string kGame = "[Event \"x\"]\n[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n";

TEST(DetectCompressionTest, MagicBytesNameTheFormat) {
  EXPECT_EQ(detect_compression("\x28\xB5\x2F\xFD...."), Compression::Zstd);
  EXPECT_EQ(detect_compression("\x1F\x8B\x08\x00"), Compression::Gzip);
  EXPECT_EQ(detect_compression("BZh91AY&SY"), Compression::Bzip2);
  EXPECT_EQ(detect_compression("\xFD" "7zXZ\0\0"s), Compression::Xz);
  EXPECT_EQ(detect_compression("PK\x03\x04\x14\0"s), Compression::Zip);
  EXPECT_EQ(detect_compression("PK\x05\x06\0\0"s), Compression::Zip);
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

}  // namespace
}  // namespace pgnbase::indexer
