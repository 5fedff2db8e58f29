// The pieces under the position index: varints, bit streams, Rice codes, the block
// codec, run files and the external sort.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "store/bit_stream.h"
#include "store/posting_block_codec.h"
#include "indexer/posting_run_file.h"
#include "indexer/posting_sorter.h"
#include "store/varint.h"
#include "tests/support/random_postings.h"
#include "tests/support/temp_dir.h"

namespace pgnbase::indexer {
namespace {

namespace fs = std::filesystem;

std::vector<store::Posting> random_sorted_postings(size_t count, uint32_t seed, uint64_t key_range) {
  std::mt19937_64 random(seed);
  std::vector<store::Posting> postings;
  for (size_t i = 0; i < count; ++i)
    postings.push_back(store::Posting{key_range ? random() % key_range : random(), static_cast<uint32_t>(random()),
                               static_cast<uint16_t>(random()), static_cast<uint16_t>(random()),
                               static_cast<store::GameResult>(random() % 4)});
  std::sort(postings.begin(), postings.end(), store::posting_less);
  return postings;
}

TEST(VarintTest, RoundTripsAndRejectsTruncation) {
  std::vector<uint64_t> values = {0, 1, 127, 128, 16383, 16384, UINT32_MAX, ~uint64_t{0}};
  std::vector<uint8_t> bytes;
  for (uint64_t value : values) store::put_varint(bytes, value);
  const uint8_t* p = bytes.data();
  for (uint64_t value : values) {
    uint64_t decoded;
    ASSERT_TRUE(store::get_varint(p, bytes.data() + bytes.size(), decoded));
    EXPECT_EQ(decoded, value);
  }
  EXPECT_EQ(p, bytes.data() + bytes.size());
  std::vector<uint8_t> truncated = {0x80, 0x80};
  p = truncated.data();
  uint64_t ignored;
  EXPECT_FALSE(store::get_varint(p, truncated.data() + truncated.size(), ignored));
  std::vector<uint8_t> overlong(11, 0x80);
  p = overlong.data();
  EXPECT_FALSE(store::get_varint(p, overlong.data() + overlong.size(), ignored));
}

// A lean block keeps keys and game ids of every posting, the next move and result only
// of keys with two or more postings in the block, and no plies.
TEST(PostingBlockTest, LeanBlocksKeepMovesOfRepeatedKeysOnly) {
  for (int key_bits : {64, 30}) {
    // Random 64-bit keys, a quarter of them repeated in another game.
    std::vector<store::Posting> postings = random_sorted_postings(2000, 17, 0);
    for (size_t i = 0; i < 2000; i += 4) {
      store::Posting again = postings[i];
      again.game_id ^= 0x5A5A;
      postings.push_back(again);
    }
    std::sort(postings.begin(), postings.end(), store::posting_less);
    store::PostingBlockEncoder encoder(key_bits, 1, true);
    std::span<const uint8_t> bytes = encoder.encode(postings);
    std::vector<uint8_t> block(bytes.begin(), bytes.end());
    store::PostingBlockDecoder decoder;
    decoder.open(block);
    size_t with_moves = 0;
    for (size_t i = 0; i < postings.size();) {
      size_t j = i;
      while (j < postings.size() && store::mask_key(postings[j].key, key_bits) == store::mask_key(postings[i].key, key_bits)) ++j;
      std::vector<store::Posting> found;
      ASSERT_EQ(decoder.find(postings[i].key, found), j - i);
      std::vector<store::Posting> expected(postings.begin() + static_cast<std::ptrdiff_t>(i),
                                    postings.begin() + static_cast<std::ptrdiff_t>(j));
      std::sort(expected.begin(), expected.end(), [](const store::Posting& a, const store::Posting& b) {
        return std::tie(a.game_id, a.ply) < std::tie(b.game_id, b.ply);
      });
      for (size_t k = 0; k < found.size(); ++k) {
        EXPECT_EQ(found[k].game_id, expected[k].game_id);
        EXPECT_EQ(found[k].ply, store::kUnknownPly);
        if (j - i >= 2) {
          EXPECT_EQ(found[k].next_move, expected[k].next_move);
          EXPECT_EQ(found[k].result, expected[k].result);
          ++with_moves;
        } else {
          EXPECT_EQ(found[k].next_move, store::kUnknownNextMove);
        }
      }
      i = j;
    }
    EXPECT_GT(with_moves, 0u);
    EXPECT_LT(with_moves, postings.size());
    // Smaller than the full block of the same postings.
    store::PostingBlockEncoder full(key_bits, 1);
    EXPECT_LT(block.size(), full.encode(postings).size());
  }
}

// The writer keeps up to 63 bits and hands them over four bytes at a time: its bytes are
// those of packing the bits one by one, least significant first, for any mix of widths.
TEST(BitStreamTest, BytesAreTheBitsPackedOneByOne) {
  std::mt19937_64 random(5);
  for (int round = 0; round < 200; ++round) {
    std::vector<uint8_t> bytes, expected;
    store::BitWriter writer(bytes);
    size_t bit = 0;
    for (int i = 0; i < round % 50; ++i) {
      const int width = static_cast<int>(random() % 65);
      const uint64_t value = random();
      writer.write(value, width);
      for (int b = 0; b < width; ++b, ++bit) {
        if (bit % 8 == 0) expected.push_back(0);
        expected.back() |= static_cast<uint8_t>(((value >> b) & 1) << (bit % 8));
      }
    }
    writer.finish();
    ASSERT_EQ(bytes, expected) << round;
  }
}

TEST(BitStreamTest, FixedWidthAndRiceCodesRoundTrip) {
  std::mt19937_64 random(2);
  std::vector<std::pair<uint64_t, int>> fields;
  std::vector<std::pair<uint64_t, int>> rice;
  std::vector<uint8_t> bytes;
  store::BitWriter writer(bytes);
  for (int i = 0; i < 5000; ++i) {
    int width = static_cast<int>(random() % 65);
    uint64_t value = random() & store::low_bits_mask(width);
    writer.write(value, width);
    fields.emplace_back(value, width);
    int k = static_cast<int>(random() % 40);
    // Mostly near 2^k, sometimes far beyond (escapes), sometimes zero.
    uint64_t r = random();
    uint64_t code = i % 10 == 0 ? r : i % 10 == 1 ? 0 : (r % (uint64_t{4} << k));
    writer.write_rice(code, k);
    rice.emplace_back(code, k);
  }
  writer.finish();
  store::BitReader reader(bytes);
  for (size_t i = 0; i < fields.size(); ++i) {
    ASSERT_EQ(reader.read(fields[i].second), fields[i].first) << i;
    ASSERT_EQ(reader.read_rice(rice[i].second), rice[i].first) << i;
  }
  EXPECT_FALSE(reader.failed());
  reader.read(16);
  EXPECT_TRUE(reader.failed());
}

TEST(PostingBlockCodecTest, RoundTripsRandomBlocksAtEveryKeyWidth) {
  for (int key_bits : {64, 48, 32, 20, 8, 1}) {
    for (uint64_t key_range : {uint64_t{0}, uint64_t{50}, uint64_t{1}}) {
      std::vector<store::Posting> postings = random_sorted_postings(3000, static_cast<uint32_t>(key_bits), key_range);
      store::PostingBlockEncoder encoder(key_bits, 3);
      std::span<const uint8_t> block = encoder.encode(postings);
      std::vector<uint8_t> copy(block.begin(), block.end());
      store::PostingBlockDecoder decoder;
      decoder.open(copy);
      EXPECT_EQ(decoder.postings(), postings.size());
      std::vector<store::Posting> decoded;
      decoder.decode_all(decoded);
      // Stored keys are masked; within a stored key, postings are by game and ply.
      std::vector<store::Posting> expected = postings;
      for (store::Posting& posting : expected) posting.key = store::mask_key(posting.key, key_bits);
      std::sort(expected.begin(), expected.end(), store::posting_less);
      ASSERT_EQ(decoded, expected) << "key_bits " << key_bits << " range " << key_range;
      // find() of each key returns its stored group with the asked key.
      std::vector<store::Posting> found;
      EXPECT_EQ(decoder.find(postings[17].key, found), decoder.count(postings[17].key));
      for (const store::Posting& posting : found) EXPECT_EQ(posting.key, postings[17].key);
    }
  }
}

// A merged source's blocks are copied with their game ids moved (database_merge.h): the
// rebased bytes must be what encoding the moved postings gives, and decode to them.
TEST(PostingBlockCodecTest, RebasedBlockIsTheEncodingOfTheMovedPostings) {
  std::vector<store::Posting> postings = random_sorted_postings(3000, 11, 700);
  for (store::Posting& p : postings) {
    p.game_id = 1000 + p.game_id % 5000;
    p.ply = store::kUnknownPly;
  }
  std::sort(postings.begin(), postings.end(), store::posting_less);
  for (const int64_t delta : {int64_t{0}, int64_t{1}, int64_t{-999}, int64_t{4'000'000'000 - 7000}}) {
    store::PostingBlockEncoder encoder(30, 1, true);
    const std::span<const uint8_t> original = encoder.encode(postings);
    const std::vector<uint8_t> bytes(original.begin(), original.end());
    std::vector<uint8_t> rebased;
    ASSERT_TRUE(store::rebase_posting_block(bytes, delta, rebased)) << delta;
    std::vector<store::Posting> moved = postings;
    for (store::Posting& p : moved) p.game_id = uint32_t(int64_t(p.game_id) + delta);
    store::PostingBlockEncoder fresh(30, 1, true);
    const std::span<const uint8_t> expected = fresh.encode(moved);
    EXPECT_EQ(rebased, std::vector<uint8_t>(expected.begin(), expected.end())) << delta;
    // Decoded: the original block's postings (in block order, keys masked), ids moved.
    store::PostingBlockDecoder decoder;
    std::vector<store::Posting> before, after;
    decoder.open(bytes);
    decoder.decode_all(before);
    decoder.open(rebased);
    decoder.decode_all(after);
    ASSERT_EQ(after.size(), before.size());
    for (store::Posting& p : before) p.game_id = uint32_t(int64_t(p.game_id) + delta);
    EXPECT_EQ(after, before) << delta;
  }
  store::PostingBlockEncoder encoder(30, 1, true);
  const std::span<const uint8_t> block = encoder.encode(postings);
  std::vector<uint8_t> out;
  EXPECT_FALSE(store::rebase_posting_block(block, -7000, out));            // ids below 0
  EXPECT_FALSE(store::rebase_posting_block(block.first(12), 5, out));       // cut inside the header
  std::vector<uint8_t> format1(block.begin(), block.end());
  format1[0] = 1;
  EXPECT_FALSE(store::rebase_posting_block(format1, 5, out));               // only the current format
}

// Format 3: a lean block stores the extra key bits of groups with moves only; a group of
// one is matched by its fingerprint. Checked against the postings themselves: find(key)
// must give key's own group (by fingerprint and extra bits) and every group of one with
// key's fingerprint, nothing else, in game order; flag bit 2 stores every group's extra
// bits, and then only key's own group comes back.
TEST(PostingBlockCodecTest, GroupsOfOneAreFoundByTheirFingerprint) {
  constexpr int kFingerprintBits = 8, kExtraBits = 20;  // 256 fingerprints: crowded
  const std::vector<store::Posting> postings = test::random_lean_postings(3000, 3, 1, 4, 100000, 5);
  const auto group_key = [](uint64_t key) { return store::mask_key(key, kFingerprintBits + kExtraBits); };
  const auto fingerprint = [](uint64_t key) { return store::mask_key(key, kFingerprintBits); };
  std::map<uint64_t, size_t> group_size;
  for (const store::Posting& p : postings) ++group_size[group_key(p.key)];
  for (const bool every_group_extra : {false, true}) {
    store::PostingBlockEncoder encoder(kFingerprintBits, 1, /*lean=*/true, kExtraBits);
    const std::span<const uint8_t> bytes = encoder.encode(postings, nullptr, every_group_extra);
    const std::vector<uint8_t> block(bytes.begin(), bytes.end());
    store::PostingBlockDecoder decoder;
    decoder.open(block);
    EXPECT_EQ(decoder.extra_bits(), kExtraBits);
    EXPECT_EQ(decoder.groups(), group_size.size());
    size_t others = 0;
    for (size_t i = 0; i < postings.size(); i += 7) {
      const uint64_t key = postings[i].key;
      std::vector<store::Posting> want;
      for (const store::Posting& p : postings) {
        const bool own = group_key(p.key) == group_key(key);
        const bool alone = !every_group_extra && group_size[group_key(p.key)] == 1 && fingerprint(p.key) == fingerprint(key);
        if (!own && !alone) continue;
        others += !own;
        store::Posting expected = p;
        expected.key = key;
        if (group_size[group_key(p.key)] == 1) expected.next_move = store::kUnknownNextMove, expected.result = {};
        want.push_back(expected);
      }
      std::stable_sort(want.begin(), want.end(), [](const store::Posting& a, const store::Posting& b) {
        return std::tie(a.game_id, a.ply) < std::tie(b.game_id, b.ply);
      });
      std::vector<store::Posting> found;
      ASSERT_EQ(decoder.find(key, found), want.size()) << i;
      EXPECT_EQ(decoder.count(key), want.size()) << i;
      // Games with two postings of the lookup may come in either order of their groups.
      std::vector<store::Posting> sorted_found = found, sorted_want = want;
      auto by_everything = [](const store::Posting& a, const store::Posting& b) {
        return std::tie(a.game_id, a.next_move, a.result) < std::tie(b.game_id, b.next_move, b.result);
      };
      std::sort(sorted_found.begin(), sorted_found.end(), by_everything);
      std::sort(sorted_want.begin(), sorted_want.end(), by_everything);
      ASSERT_EQ(sorted_found, sorted_want) << i;
      EXPECT_TRUE(std::is_sorted(found.begin(), found.end(), [](const store::Posting& a, const store::Posting& b) {
        return a.game_id < b.game_id;
      }));
    }
    if (every_group_extra) EXPECT_EQ(others, 0u);
    else EXPECT_GT(others, 1000u);
  }
}

// Many groups of one behind one fingerprint (1 fingerprint bit: two fingerprints for
// 40,000 keys): a lookup takes every one of its fingerprint's, decoded in one pass over
// the block (one pass per group would be about 10^9 steps here).
TEST(PostingBlockCodecTest, ManyGroupsSharingAFingerprintDecodeInOnePass) {
  std::mt19937_64 random(3);
  std::vector<store::Posting> postings;
  for (uint32_t i = 0; i < 40000; ++i)
    postings.push_back({random(), uint32_t(random() % 1000000), store::kUnknownPly, 0, store::GameResult::Unknown});
  std::sort(postings.begin(), postings.end(), store::posting_less);
  store::PostingBlockEncoder encoder(1, 1, /*lean=*/true, 30);
  const std::span<const uint8_t> bytes = encoder.encode(postings);
  const std::vector<uint8_t> block(bytes.begin(), bytes.end());
  store::PostingBlockDecoder decoder;
  decoder.open(block);
  for (const uint64_t key : {postings.front().key, postings.back().key}) {
    std::vector<uint32_t> want;
    for (const store::Posting& p : postings)
      if (p.key >> 63 == key >> 63) want.push_back(p.game_id);
    std::sort(want.begin(), want.end());
    std::vector<store::Posting> found;
    ASSERT_EQ(decoder.find(key, found), want.size());
    std::vector<uint32_t> games;
    for (const store::Posting& p : found) games.push_back(p.game_id);
    EXPECT_EQ(games, want);  // in game order
    EXPECT_EQ(decoder.count(key), want.size());
  }
}

// decode_all gives each group's postings and size; encode_groups takes them back, with
// postings left out, as the merge of a database re-encodes a block whose games it skips:
// groups shrink but never merge (two groups of one share a fingerprint here), and a group
// left with one posting loses its move and extra bits.
TEST(PostingBlockCodecTest, DecodedGroupsEncodeAgainWithPostingsLeftOut) {
  constexpr int kFingerprintBits = 10, kExtraBits = 14;
  const std::vector<store::Posting> postings = test::random_lean_postings(2000, 4, 3, 3, 5000, 9);
  for (const bool every_group_extra : {false, true}) {
    store::PostingBlockEncoder encoder(kFingerprintBits, 1, true, kExtraBits);
    const std::span<const uint8_t> bytes = encoder.encode(postings, nullptr, every_group_extra);
    const std::vector<uint8_t> block(bytes.begin(), bytes.end());
    store::PostingBlockDecoder decoder;
    decoder.open(block);
    std::vector<store::Posting> decoded;
    std::vector<uint32_t> sizes;
    decoder.decode_all(decoded, &sizes);
    ASSERT_EQ(decoded.size(), postings.size());
    // Same block again from what it decodes to.
    const std::span<const uint8_t> again = encoder.encode_groups(decoded, sizes, every_group_extra);
    EXPECT_EQ(std::vector<uint8_t>(again.begin(), again.end()), block);
    // Leave out the postings of odd games.
    std::vector<store::Posting> kept, want;
    std::vector<uint32_t> kept_sizes;
    for (size_t g = 0, at = 0; g < sizes.size(); ++g) {
      uint32_t n = 0;
      for (size_t end = at + sizes[g]; at < end; ++at)
        if (decoded[at].game_id % 2 == 0) kept.push_back(decoded[at]), ++n;
      if (n > 0) kept_sizes.push_back(n);
      for (size_t i = kept.size() - n; i < kept.size(); ++i) {
        store::Posting p = kept[i];
        if (n == 1) {
          p.next_move = store::kUnknownNextMove, p.result = {};
          if (!every_group_extra) p.key = store::mask_key(p.key, kFingerprintBits);
        }
        want.push_back(p);
      }
    }
    const std::span<const uint8_t> shrunk = encoder.encode_groups(kept, kept_sizes, every_group_extra);
    const std::vector<uint8_t> shrunk_block(shrunk.begin(), shrunk.end());
    decoder.open(shrunk_block);
    std::vector<store::Posting> back;
    std::vector<uint32_t> back_sizes;
    decoder.decode_all(back, &back_sizes);
    EXPECT_EQ(back_sizes, kept_sizes);
    EXPECT_EQ(back, want);
  }
}

// Blocks written before format 3 stay readable. A format-2 block is made here from a
// format-3 one without extra bits (the layouts differ in the header's extra_bits byte,
// the fingerprint gaps, coded minus one in format 2, and the ninth section).
TEST(PostingBlockCodecTest, Format2BlocksStillDecode) {
  std::vector<store::Posting> postings = random_sorted_postings(3000, 3, 0);
  for (size_t i = 0; i < postings.size(); i += 5) postings[i + 1].key = postings[i].key;  // groups of two
  std::sort(postings.begin(), postings.end(), store::posting_less);
  for (store::Posting& p : postings) p.ply = store::kUnknownPly;
  store::PostingBlockEncoder encoder(36, 1, true);
  const std::span<const uint8_t> bytes = encoder.encode(postings);
  const std::vector<uint8_t> block3(bytes.begin(), bytes.end());
  // The header up to the first section: format, key_bits, flags, extra_bits, P, G, u64,
  // rice_k, game_base, game_bits.
  const uint8_t* p = block3.data() + 4;
  const uint8_t* end = block3.data() + block3.size();
  uint64_t value, groups;
  ASSERT_TRUE(store::get_varint(p, end, value));
  ASSERT_TRUE(store::get_varint(p, end, groups));
  p += 9;
  const int rice_k = block3[size_t(p - 1 - block3.data())];
  ASSERT_TRUE(store::get_varint(p, end, value));
  ++p;
  std::vector<uint8_t> block2 = {2, block3[1], block3[2]};
  block2.insert(block2.end(), block3.begin() + 4, block3.begin() + (p - block3.data()));
  // Section 0, raw: the gaps minus one.
  ASSERT_EQ(*p++, 0);
  uint64_t stored;
  ASSERT_TRUE(store::get_varint(p, end, stored));
  store::BitReader gaps({p, size_t(stored)});
  std::vector<uint8_t> gaps2;
  store::BitWriter writer(gaps2);
  for (uint64_t g = 1; g < groups; ++g) {
    const uint64_t gap = gaps.read_rice(rice_k);
    ASSERT_GT(gap, 0u);
    writer.write_rice(gap - 1, rice_k);
  }
  writer.finish();
  ASSERT_FALSE(gaps.failed());
  p += stored;
  block2.push_back(0);
  store::put_varint(block2, gaps2.size());
  block2.insert(block2.end(), gaps2.begin(), gaps2.end());
  // Sections 1-7 as they are; section 8 (empty: no extra bits) left out.
  const uint8_t* sections_end = end - 2;
  ASSERT_EQ(sections_end[0], 0);
  ASSERT_EQ(sections_end[1], 0);
  block2.insert(block2.end(), p, sections_end);

  store::PostingBlockDecoder decoder;
  std::vector<store::Posting> from3, from2;
  decoder.open(block3);
  decoder.decode_all(from3);
  decoder.open(block2);
  EXPECT_EQ(decoder.extra_bits(), 0);
  decoder.decode_all(from2);
  EXPECT_EQ(from2, from3);
  for (size_t i = 0; i < postings.size(); i += 11) {
    std::vector<store::Posting> found3, found2;
    decoder.open(block3);
    decoder.find(postings[i].key, found3);
    decoder.open(block2);
    decoder.find(postings[i].key, found2);
    ASSERT_FALSE(found2.empty());
    EXPECT_EQ(found2, found3);
  }
}

TEST(PostingBlockCodecTest, SingleKeyBlockIsTiny) {
  // The start position in 10,000 consecutive games with one next move: a few dozen bytes.
  std::vector<store::Posting> postings;
  for (uint32_t game = 1; game <= 10000; ++game)
    postings.push_back(store::Posting{0x463b96181691fc9cull, game, 0, 0x70c, store::GameResult::WhiteWin});
  store::PostingBlockEncoder encoder(64, 3);
  EXPECT_LT(encoder.encode(postings).size(), 200u);
}

class RunFileTest : public test::TempDirTest {};

TEST_F(RunFileTest, RoundTripsThroughSmallBuffersAndRemovesItself) {
  std::vector<store::Posting> postings = random_sorted_postings(20000, 5, 3000);
  fs::path path;
  {
    PostingRunFile run = write_posting_run(dir_, postings);
    path = run.paths().at(0);
    EXPECT_TRUE(fs::exists(path));
    PostingRunReader reader(run, 100);
    store::Posting posting;
    std::vector<store::Posting> read;
    while (reader.next(posting)) read.push_back(posting);
    EXPECT_EQ(read, postings);
  }
  EXPECT_FALSE(fs::exists(path));
}

TEST_F(RunFileTest, TruncatedRunThrows) {
  std::vector<store::Posting> postings = random_sorted_postings(1000, 6, 0);
  PostingRunFile run = write_posting_run(dir_, postings);
  const fs::path path = run.paths().at(0);
  fs::resize_file(path, fs::file_size(path) / 2);
  PostingRunReader reader(run, 4096);
  store::Posting posting;
  EXPECT_THROW(
      while (reader.next(posting)) {}, store::PositionIndexError);
}

// A spill's threads each write the key partitions they take to a file of their own; the
// files joined read as one run, whole or a partition at a time, as one file of the same
// postings does, and the joined run removes every file.
TEST_F(RunFileTest, FilesOfDisjointPartitionsJoinedReadAsOneRun) {
  std::vector<store::Posting> postings = random_sorted_postings(30000, 9, 0);
  PostingRunFile whole = write_posting_run(dir_, postings);
  auto read_all = [](PostingRunReader reader) {
    std::vector<store::Posting> read;
    for (store::Posting posting; reader.next(posting);) read.push_back(posting);
    return read;
  };
  std::vector<fs::path> paths;
  {
    // Partitions dealt to three writers in turn, as threads taking the next one would;
    // the fourth writer takes none (its file holds nothing and goes at the join).
    std::vector<std::unique_ptr<PostingRunWriter>> writers;
    for (int i = 0; i < 4; ++i) writers.push_back(std::make_unique<PostingRunWriter>(dir_));
    for (const store::Posting& posting : postings) writers[store::key_partition(posting.key) % 3]->add(posting);
    std::vector<PostingRunFile> files;
    for (auto& writer : writers) files.push_back(writer->finish());
    PostingRunFile joined = PostingRunFile::join(std::move(files));
    paths = joined.paths();
    EXPECT_EQ(paths.size(), 3u);
    EXPECT_EQ(joined.postings(), postings.size());
    EXPECT_EQ(read_all(PostingRunReader(joined, 100)), postings);
    for (unsigned p = 0; p < store::kKeyPartitions; ++p)
      EXPECT_EQ(read_all(PostingRunReader(joined, 100, p)), read_all(PostingRunReader(whole, 100, p))) << p;
  }
  for (const fs::path& path : paths) EXPECT_FALSE(fs::exists(path)) << path;
}

// A spill whose files cannot be made (the folder removed after the first spill: root
// ignores permissions) fails with the folder's name, from whichever of its threads
// failed, at a later hand-over or at the merge; the sorter then goes away cleanly.
TEST_F(RunFileTest, ASpillThatCannotWriteFailsWithTheFolder) {
  const std::vector<store::Posting> postings = random_sorted_postings(60000, 12, 0);
  for (unsigned threads : {1u, 3u}) {
    const fs::path runs = dir_ / ("runs-" + std::to_string(threads));
    fs::create_directories(runs);
    std::string error;
    try {
      PostingSorter sorter(10000 * PostingSorter::kBytesPerBufferedPosting, runs, threads);
      // Runs of 2,000 consecutive postings, each sorted as a chunk's are.
      for (size_t at = 0; at < postings.size(); at += 2000) {
        std::vector<PostingSorter::Record> run;
        for (size_t i = at; i < at + 2000; ++i) run.push_back(PostingSorter::to_record(postings[i]));
        sorter.add_sorted_run(std::move(run));
        if (sorter.runs_spilled() > 0 && fs::exists(runs)) fs::remove_all(runs);
      }
      sorter.merge([](std::span<const store::Posting>) {});
    } catch (const store::PositionIndexError& e) {
      error = e.what();
    }
    EXPECT_NE(error.find(runs.string()), std::string::npos) << threads << " threads: " << error;
  }
}

TEST_F(RunFileTest, UnwritableDirectoryThrowsWithThePath) {
  try {
    write_posting_run(dir_ / "missing", random_sorted_postings(10, 7, 0));
    FAIL() << "expected PositionIndexError";
  } catch (const store::PositionIndexError& error) {
    EXPECT_NE(std::string(error.what()).find("missing"), std::string::npos) << error.what();
  }
}

TEST_F(RunFileTest, SorterOrdersAnyInputLikeStdSort) {
  for (size_t budget_postings : {size_t{1}, size_t{7}, size_t{1000}, size_t{1000000}}) {
    std::vector<store::Posting> postings = random_sorted_postings(3000, 8, 40);
    std::shuffle(postings.begin(), postings.end(), std::mt19937(1));
    PostingSorter sorter(budget_postings * PostingSorter::kBytesPerBufferedPosting, dir_, unsigned(budget_postings % 4) + 1);
    for (const store::Posting& posting : postings) sorter.add(posting);
    std::vector<store::Posting> merged;
    sorter.merge([&](std::span<const store::Posting> batch) { merged.insert(merged.end(), batch.begin(), batch.end()); });
    std::vector<store::Posting> expected = postings;
    std::stable_sort(expected.begin(), expected.end(), store::posting_less);
    // Equal (key, game, ply) triples may come out in any order; compare as sorted multisets.
    auto full_less = [](const store::Posting& a, const store::Posting& b) {
      return std::tie(a.key, a.game_id, a.ply, a.next_move, a.result) <
             std::tie(b.key, b.game_id, b.ply, b.next_move, b.result);
    };
    ASSERT_TRUE(std::is_sorted(merged.begin(), merged.end(), store::posting_less)) << budget_postings;
    std::sort(merged.begin(), merged.end(), full_less);
    std::sort(expected.begin(), expected.end(), full_less);
    EXPECT_EQ(merged, expected) << budget_postings;
    EXPECT_EQ(sorter.size(), 0u);
    EXPECT_TRUE(fs::is_empty(dir_));
  }
}

// sort_posting_records and PostingChunkSorter sort by key alone and rely on records of one
// key arriving in (game, ply) order, as a chunk collects them; sort_posting_records sorts
// any other order too.
TEST(PostingRecordSortTest, GivesTheComparisonSortsOrderForGameOrderAndShuffledInput) {
  std::mt19937_64 random(7);
  std::vector<uint64_t> common_keys;  // opening positions: keys met in many games
  for (int i = 0; i < 40; ++i) common_keys.push_back(random());
  common_keys.push_back(0);
  common_keys.push_back(~uint64_t{0});
  std::vector<PostingSorter::Record> by_game;
  for (uint32_t game = 0; game < 3000; ++game)
    for (uint16_t ply = 0; ply < 60; ++ply) {
      // Common keys early in a game, the same key twice in a game now and then (a repetition).
      const uint64_t key = ply < 8 && random() % 3 ? common_keys[random() % common_keys.size()]
                           : ply > 0 && random() % 50 == 0 ? by_game.back().key
                                                          : random() >> (random() % 64);
      by_game.push_back({key, game, ply, uint16_t(random()), uint8_t(random() % 4)});
    }
  auto less = [](const PostingSorter::Record& a, const PostingSorter::Record& b) {
    return std::tuple(a.key, a.game_id, a.ply) < std::tuple(b.key, b.game_id, b.ply);
  };
  auto same = [](const PostingSorter::Record& a, const PostingSorter::Record& b) {
    return std::tuple(a.key, a.game_id, a.ply, a.next_move, a.result) ==
           std::tuple(b.key, b.game_id, b.ply, b.next_move, b.result);
  };
  std::vector<PostingSorter::Record> shuffled = by_game;
  std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937(3));
  for (std::vector<PostingSorter::Record>* input : {&by_game, &shuffled})
    for (size_t n : {size_t{0}, size_t{1}, size_t{31}, size_t{500}, input->size()}) {
      std::vector<PostingSorter::Record> sorted(input->begin(), input->begin() + std::ptrdiff_t(n));
      std::vector<PostingSorter::Record> expected = sorted;
      std::stable_sort(expected.begin(), expected.end(), less);
      sort_posting_records(sorted.data(), sorted.size());
      ASSERT_TRUE(std::equal(sorted.begin(), sorted.end(), expected.begin(), expected.end(), same))
          << (input == &by_game ? "game order, " : "shuffled, ") << n << " records";
      if (input != &by_game) continue;
      // The pipeline's way: each record placed in its bucket as it is made, in game order.
      PostingChunkSorter chunk_sorter(n);
      for (size_t i = 0; i < n; ++i) chunk_sorter.count(by_game[i].key);
      std::vector<PostingSorter::Record> placed(n);
      chunk_sorter.begin(placed.data());
      for (size_t i = 0; i < n; ++i) chunk_sorter.place(by_game[i]);
      chunk_sorter.finish();
      ASSERT_TRUE(std::equal(placed.begin(), placed.end(), expected.begin(), expected.end(), same))
          << "placed in buckets, " << n << " records";
    }
}

// Runs whose games ascend from run to run (chunks in input order) are merged per key
// partition by one sort; runs in any other order by comparing heads. Both give every
// posting once, in posting_less order, with the runs' id offsets added.
TEST_F(RunFileTest, MergedRunsComeOutInPostingOrderWhateverTheOrderOfTheirGames) {
  std::mt19937_64 random(11);
  std::vector<uint64_t> common_keys;
  for (int i = 0; i < 30; ++i) common_keys.push_back(random());
  std::vector<std::vector<PostingSorter::Record>> chunks, partition_ordered;
  std::vector<uint32_t> first_games, last_games;  // the ids of each chunk's first and last game
  std::vector<store::Posting> expected;
  uint32_t first_game = 0;
  for (int c = 0; c < 9; ++c) {
    first_games.push_back(first_game);
    std::vector<PostingSorter::Record> chunk;
    const uint32_t games = 20 + uint32_t(random() % 50);
    for (uint32_t game = 0; game < games; ++game)
      for (uint16_t ply = 0; ply < 70; ++ply) {
        const uint64_t key = ply < 10 ? common_keys[random() % common_keys.size()] : random();
        chunk.push_back({key, game, ply, uint16_t(random()), uint8_t(random() % 4)});
        expected.push_back({key, first_game + game, ply, chunk.back().next_move, store::GameResult(chunk.back().result)});
      }
    // The same run placed by a chunk sorter that is not finished: key partition order only.
    PostingChunkSorter placer(chunk.size());
    for (const PostingSorter::Record& r : chunk) placer.count(r.key);
    std::vector<PostingSorter::Record> placed(chunk.size());
    placer.begin(placed.data());
    for (const PostingSorter::Record& r : chunk) placer.place(r);
    partition_ordered.push_back(std::move(placed));
    sort_posting_records(chunk.data(), chunk.size());
    chunks.push_back(std::move(chunk));
    first_game += games;
    last_games.push_back(first_game - 1);
  }
  std::sort(expected.begin(), expected.end(), store::posting_less);
  // The small budget spills runs into files, which the final merge reads beside the runs
  // still in memory (by comparing heads: a file knows no game bounds). Runs come sorted,
  // in key partition order only (the import's chunks until a spill), or one of each in turn.
  for (size_t budget : {size_t{1} << 30, 5000 * PostingSorter::kBytesPerBufferedPosting}) {
    for (bool ascending : {true, false}) {
      for (int form : {0, 1, 2}) {
        for (unsigned threads : {1u, 3u}) {
          PostingSorter sorter(budget, dir_, threads);
          for (size_t i = 0; i < chunks.size(); ++i) {
            const size_t c = ascending ? i : chunks.size() - 1 - i;
            const bool sorted = form == 0 || (form == 2 && i % 2 == 0);
            sorter.add_sorted_run(sorted ? chunks[c] : partition_ordered[c], first_games[c], first_games[c], last_games[c],
                                  sorted);
          }
          std::vector<std::vector<store::Posting>> by_partition(store::kKeyPartitions);
          sorter.merge_partitions(threads, {[](unsigned) {}, [&](unsigned p, std::span<const store::Posting> batch) {
                                              by_partition[p].insert(by_partition[p].end(), batch.begin(), batch.end());
                                            }, [](unsigned) {}});
          std::vector<store::Posting> merged;
          for (const auto& part : by_partition) merged.insert(merged.end(), part.begin(), part.end());
          ASSERT_EQ(merged, expected) << (ascending ? "ascending" : "descending") << ", form " << form << ", " << threads
                                      << " threads, " << sorter.runs_spilled() << " runs spilled";
          EXPECT_EQ(sorter.runs_spilled() > 0, budget < (size_t{1} << 30));
        }
      }
    }
  }
  // One run alone, in key partition order: no merge at all, yet sorted.
  PostingSorter sorter(size_t{1} << 30, dir_);
  sorter.add_sorted_run(partition_ordered[0], 0, 0, last_games[0], false);
  std::vector<store::Posting> merged, expected_first(expected);
  sorter.merge([&](std::span<const store::Posting> batch) { merged.insert(merged.end(), batch.begin(), batch.end()); });
  std::erase_if(expected_first, [&](const store::Posting& p) { return p.game_id > last_games[0]; });
  EXPECT_EQ(merged, expected_first);
}

}  // namespace
}  // namespace pgnbase::indexer
