// Position index blocks read from a database that may come from anyone: the posting
// count and the section sizes a block states are checked against the bytes it has
// before anything is allocated for them. Hand-made blocks (posting_block_codec.h
// layout) for the hostile cases; encoded random postings for the good ones.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "store/posting_block_codec.h"
#include "store/varint.h"
#include "tests/support/peak_memory.h"
#include "tests/support/random_postings.h"

namespace pgnbase::indexer {
namespace {

// A header stating `postings` postings in one group with key 0, then the sections as
// given (codec, stored size, raw size for zstd).
std::vector<uint8_t> block_header(uint64_t postings) {
  std::vector<uint8_t> block = {store::kPostingBlockFormat, 64, 3, 0};  // format, key_bits, flags, extra_bits
  store::put_varint(block, postings);
  store::put_varint(block, 1);                          // groups
  block.insert(block.end(), 8, 0);               // first fingerprint
  block.push_back(0);                            // rice_k
  store::put_varint(block, 1);                          // game_base
  block.push_back(0);                            // game_bits
  return block;
}

void expect_refused_within_memory(const std::vector<uint8_t>& block) {
  test::PeakMemory peak;
  ASSERT_TRUE(peak.available());
  store::PostingBlockDecoder decoder;
  std::vector<store::Posting> out;
  EXPECT_THROW(
      {
        decoder.open(block);
        decoder.find(0, out);
      },
      store::PositionIndexError);
  EXPECT_LT(peak.growth_kib(), 64 * 1024) << "KiB of peak RSS for a " << block.size() << "-byte block";
}

// The case: 41 bytes stating 2^31 postings and a zstd section of 500 MB with no
// bytes (44 in format 3, which adds a header byte and a section); search --fen used 531
// MB on it.
TEST(UntrustedPostingBlock, FortyOneBytesStatingHalfAGigabyteAllocateNothing) {
  std::vector<uint8_t> block = block_header(uint64_t{1} << 31);
  block.push_back(0), block.push_back(0);  // fingerprint gaps: raw, empty
  block.push_back(1), block.push_back(0);  // group sizes: zstd, 0 bytes stored ...
  store::put_varint(block, 500'000'000);          // ... stating 500 MB raw
  for (int i = 2; i < store::kPostingBlockSections; ++i) block.push_back(0), block.push_back(0);
  EXPECT_EQ(block.size(), 44u);
  expect_refused_within_memory(block);
}

// A million postings in one group would need a game gap for each but the first.
TEST(UntrustedPostingBlock, PostingCountBeyondTheBytesPresentIsRefusedAtOpen) {
  std::vector<uint8_t> block = block_header(1'000'000);
  block.push_back(0), block.push_back(0);  // fingerprint gaps: raw, empty
  std::vector<uint8_t> sizes;
  store::put_varint(sizes, 999'999);  // group sizes: raw, one group of a million
  block.push_back(0);
  store::put_varint(block, sizes.size());
  block.insert(block.end(), sizes.begin(), sizes.end());
  for (int i = 2; i < store::kPostingBlockSections; ++i) block.push_back(0), block.push_back(0);
  store::PostingBlockDecoder decoder;
  EXPECT_THROW(decoder.open(block), store::PositionIndexError);
}

// Even with every byte present, a block may hold at most kMaxBlockPostings postings,
// so that sections sized per posting stay small; the encoder keeps to it too.
TEST(UntrustedPostingBlock, MoreThanTheMaximumPostingsIsRefusedEvenWithTheirBytes) {
  const uint64_t postings = store::kMaxBlockPostings + 1;
  std::vector<uint8_t> block = block_header(postings);
  block.push_back(0), block.push_back(0);  // fingerprint gaps: raw, empty
  std::vector<uint8_t> sizes;
  store::put_varint(sizes, postings - 1);  // group sizes: one group of them all
  block.push_back(0);
  store::put_varint(block, sizes.size());
  block.insert(block.end(), sizes.begin(), sizes.end());
  block.push_back(0), block.push_back(0);  // first games: empty (game_bits 0)
  block.push_back(0);                      // game gaps: a zero byte for each but the first
  store::put_varint(block, postings - 1);
  block.insert(block.end(), postings - 1, 0);
  for (int i = 4; i < store::kPostingBlockSections; ++i) block.push_back(0), block.push_back(0);
  store::PostingBlockDecoder decoder;
  EXPECT_THROW(decoder.open(block), store::PositionIndexError);
  std::vector<store::Posting> many(postings, store::Posting{1, 1, 0, 0, store::GameResult::Unknown});
  store::PostingBlockEncoder encoder(64, 1);
  EXPECT_THROW(encoder.encode(many), store::PositionIndexError);
}

// Good blocks, lean and full, of many sizes still read back exactly.
TEST(UntrustedPostingBlock, EncodedBlocksStillDecode) {
  std::mt19937_64 random(5);
  for (size_t count : {1, 2, 100, 5000}) {
    std::vector<store::Posting> postings;
    for (size_t i = 0; i < count; ++i)
      postings.push_back(store::Posting{random() % 64, uint32_t(random() % 100000), uint16_t(random() % 300),
                                 uint16_t(random() & 0x7FFF), store::GameResult(random() % 4)});
    std::sort(postings.begin(), postings.end(), store::posting_less);
    for (bool lean : {false, true}) {
      store::PostingBlockEncoder encoder(64, 3, lean);
      store::PostingBlockDecoder decoder;
      decoder.open(encoder.encode(postings));
      std::vector<store::Posting> out;
      decoder.decode_all(out);
      ASSERT_EQ(out.size(), postings.size());
      for (size_t i = 0; i < out.size(); ++i) {
        EXPECT_EQ(out[i].key, postings[i].key);
        EXPECT_EQ(out[i].game_id, postings[i].game_id);
      }
    }
  }
}

// Format 3's new parts (groups sharing a fingerprint, the extra key bits, flag bit 2)
// from damaged bytes: each of thousands of blocks with bytes changed or cut either reads
// or throws PositionIndexError, never reading outside the blob (ASan) or throwing
// anything else.
TEST(UntrustedPostingBlock, DamagedFormat3BlocksReadOrThrowWithinTheirBytes) {
  std::mt19937_64 random(11);
  const std::vector<store::Posting> postings = test::random_lean_postings(600, 3, 2, 2, 5000, 11);
  size_t thrown = 0, read = 0;
  for (const bool every_group_extra : {false, true}) {
    store::PostingBlockEncoder encoder(9, 1, /*lean=*/true, 20);  // crowded fingerprints
    const std::span<const uint8_t> bytes = encoder.encode(postings, nullptr, every_group_extra);
    const std::vector<uint8_t> good(bytes.begin(), bytes.end());
    store::PostingBlockDecoder decoder;
    std::vector<store::Posting> out;
    for (int trial = 0; trial < 3000; ++trial) {
      std::vector<uint8_t> block = good;
      if (trial % 5 == 0) {
        block.resize(size_t(random() % block.size()));
      } else {
        for (int flips = 1 + int(random() % 3); flips > 0; --flips) block[random() % block.size()] ^= uint8_t(1 + random() % 255);
      }
      try {
        decoder.open(block);
        out.clear();
        decoder.decode_all(out);
        for (int lookup = 0; lookup < 4; ++lookup) {
          const uint64_t key = postings[random() % postings.size()].key;
          decoder.find(key, out);
          decoder.count(key);
        }
        ++read;
      } catch (const store::PositionIndexError&) {
        ++thrown;
      }
    }
  }
  EXPECT_GT(thrown, 1000u);
  EXPECT_GT(read, 10u);
}

}  // namespace
}  // namespace pgnbase::indexer
