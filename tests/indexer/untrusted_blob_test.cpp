// Blobs read from a database that may come from anyone (store/blob_codec.h): a
// zstd frame's stated content size is never trusted for an allocation. Hand-made
// frames (RFC 8878) for the cases; real payloads for the round trips.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "store/blob_codec.h"
#include "store/moves_codec.h"
#include "store/zstd_frame_limit.h"
#include "tests/support/peak_memory.h"

namespace pgnbase::indexer {
namespace {

// A moves blob (header byte 1: zstd) holding one single-segment frame that states
// content_size and has one RLE block repeating 'x' block_size times.
std::string rle_blob(uint32_t content_size, uint32_t block_size) {
  std::string blob = "\x01\x28\xB5\x2F\xFD";
  blob += char(0xA0);  // frame header descriptor: 4-byte content size, single segment
  for (int i = 0; i < 4; ++i) blob += char(content_size >> (8 * i));
  const uint32_t block_header = 1 | (1 << 1) | (block_size << 3);  // last block, RLE
  for (int i = 0; i < 3; ++i) blob += char(block_header >> (8 * i));
  blob += 'x';
  return blob;
}

// The blob: 14 bytes stating 1 GiB. It was resized to 1 GiB before
// decompression failed (1.06 GB peak RSS per game on export).
TEST(UntrustedBlob, FourteenBytesStatingOneGibibyteAllocateNothing) {
  const std::string blob = rle_blob(1u << 30, 16);
  ASSERT_EQ(blob.size(), 14u);
  test::PeakMemory peak;
  ASSERT_TRUE(peak.available());
  std::vector<MoveCode> codes;
  EXPECT_FALSE(store::decode_moves(blob, Board(), codes));
  std::string payload;
  EXPECT_FALSE(store::decode_blob(blob, payload));
  EXPECT_LT(peak.growth_kib(), 64 * 1024) << "KiB of peak RSS for a 14-byte blob";
}

TEST(UntrustedBlob, FrameMustHoldExactlyItsStatedSize) {
  std::string payload;
  EXPECT_TRUE(store::decode_blob(rle_blob(1000, 1000), payload));
  EXPECT_EQ(payload, std::string(1000, 'x'));
  EXPECT_FALSE(store::decode_blob(rle_blob(1001, 1000), payload)) << "states more than it holds";
  EXPECT_FALSE(store::decode_blob(rle_blob(999, 1000), payload)) << "holds more than it states";
  EXPECT_FALSE(store::decode_blob(rle_blob(1000, 1000) + "y", payload)) << "bytes after the frame";
  const std::string truncated = rle_blob(1000, 1000);
  EXPECT_FALSE(store::decode_blob(truncated.substr(0, truncated.size() - 1), payload));
}

TEST(UntrustedBlob, StatedSizeBeyondWhatTheBytesCanHoldIsCorrupt) {
  const std::string blob = rle_blob(100000, 100000);
  const size_t frame_bytes = blob.size() - 1;
  ASSERT_LT(store::zstd_max_output(frame_bytes), 1u << 20);
  std::string payload;
  EXPECT_TRUE(store::decode_blob(blob, payload));
  EXPECT_FALSE(store::decode_blob(rle_blob(uint32_t(store::zstd_max_output(frame_bytes) + 1), 100000), payload));
}

// Real compressed payloads still read back, the highly compressible ones included
// (a 10 MiB comment of one repeated character compresses about 10,000 to 1).
TEST(UntrustedBlob, RealPayloadsRoundTrip) {
  for (const std::string& text : {std::string(10 << 20, '='), std::string("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 ") + std::string(5000, 'a')}) {
    std::string blob, payload;
    store::encode_blob(text, 3, blob);
    ASSERT_EQ(blob[0], char(store::BlobFormat::Zstd));
    ASSERT_TRUE(store::decode_blob(blob, payload));
    EXPECT_EQ(payload, text);
  }
}

}  // namespace
}  // namespace pgnbase::indexer
