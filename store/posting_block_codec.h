// The byte layout of one position index block: postings sorted by key, then game id,
// then ply, stored column by column so that each column compresses on its own.
//
// A key may be stored whole (key_bits = 64) or as its top key_bits bits, a
// fingerprint (then two positions can share a stored key and lookups return
// candidates that the caller must verify). Below, "fingerprint" is key >> (64 - key_bits).
// A group is the run of postings that share a group key: the fingerprint and, in
// format 3, the extra_bits key bits below it. A group whose postings carry their moves
// (flag bit 1, or two or more postings) stores its extra bits, and so does every group
// of a block with flag bit 2; any other group stores its fingerprint only: a lookup
// matches it by fingerprint, and every reader replays the games of postings without
// moves anyway. Groups may then share a fingerprint. (The import sets flag bit 2 on the
// blocks of a fingerprint whose postings fill blocks of their own, such as the start
// position's, so that another key's posting never comes in the middle of them out of
// game order.)
//
// Header (all integers little-endian; varint = LEB128, store/varint.h):
// | u8     | format version (3; 2 and 1 are read too: 2 has no extra_bits   |
// |        | byte and codes fingerprint gaps minus one, 1 has no flags byte |
// |        | either and stores everything)                                  |
// | u8     | key_bits, 1..64                                               |
// | u8     | flags: bit 0 plies stored, bit 1 moves and results stored for |
// |        | every posting (else only for groups of 2 or more postings),   |
// |        | bit 2 extra key bits stored for every group (format 3)        |
// | u8     | extra_bits, 0..64 - key_bits (format 3)                       |
// | varint | P, postings in the block (1..kMaxBlockPostings)               |
// | varint | G, groups in the block (1..P)                                 |
// | u64    | fingerprint of the first group                                |
// | u8     | rice_k: Rice parameter of the fingerprint gaps                |
// | varint | game_base: the smallest first game id of any group            |
// | u8     | game_bits: width of a group's first game id minus game_base    |
// Then nine sections (eight before format 3), each: u8 codec (0 raw, 1 zstd), varint
// stored size, for zstd a varint raw size, then the stored bytes. Their raw contents:
// | 0 fingerprint gaps | G-1 Rice codes (rice_k) of fingerprint - previous (format 2: - 1), bit stream |
// | 1 group sizes      | G varints: size - 1                                          |
// | 2 first games      | G fields of game_bits bits: first game id - game_base          |
// | 3 game gaps        | P-G varints: game id - previous game id in the group (>= 0)   |
// | 4 plies            | P varints (empty unless flag bit 0)                           |
// | 5 move from        | M bytes: from' | promotion bits 0-1 << 6                      |
// | 6 move distance    | M bytes: (to' - from') mod 64 | promotion bit 2 << 6 | bit 15 << 7 |
// |                    | (from', to': the move's squares, mirrored a1<->a8 at odd plies  |
// |                    | when plies are stored)                                          |
// | 7 results          | 2 bits per posting of the M (GameResult), four to a byte       |
// | 8 extra key bits   | extra_bits bits per group with moves (flag bit 2: per group):   |
// |                    | the key's bits just below its fingerprint, bit stream           |
// M is P with flag bit 1, else the postings of groups of two or more; the others come
// back with kUnknownNextMove (and kUnknownPly without flag bit 0).
// Bit streams are least significant bit first; a section is stored zstd-compressed
// only when that makes it smaller.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "store/position_posting.h"

namespace pgnbase::store {

constexpr int kPostingBlockFormat = 3;
// No block holds more postings (the import writes 16,384 at most; a reader refuses a
// block that states more, so that one block costs it at most about 100 MB).
constexpr uint64_t kMaxBlockPostings = uint64_t{1} << 20;
constexpr uint8_t kBlockStoresPlies = 1, kBlockStoresAllMoves = 2, kBlockStoresAllExtraBits = 4;
constexpr int kPostingBlockSections = 9;

// The key with all but its top key_bits bits cleared: what a block stores of it.
inline uint64_t mask_key(uint64_t key, int key_bits) {
  return key_bits >= 64 ? key : key & ~(~uint64_t{0} >> key_bits);
}

// Sizes of one encoded block, per section, for measurements.
struct PostingBlockSizes {
  size_t header = 0;
  std::array<size_t, kPostingBlockSections> stored{};  // bytes per section as stored (with its small prefix)
  std::array<size_t, kPostingBlockSections> raw{};     // bytes per section before compression
  size_t total() const {
    size_t sum = header;
    for (size_t s : stored) sum += s;
    return sum;
  }
};

// Encodes blocks. Keeps scratch between calls (zstd state: one per thread, shared by the
// thread's encoders); one thread at a time.
class PostingBlockEncoder {
 public:
  // lean: no plies, and moves and results only for groups of two or more postings.
  // extra_bits: the key bits below key_bits that groups with moves store as well (the
  // group key is the top key_bits + extra_bits bits).
  PostingBlockEncoder(int key_bits, int compression_level, bool lean = false, int extra_bits = 0);
  ~PostingBlockEncoder();
  PostingBlockEncoder(const PostingBlockEncoder&) = delete;
  PostingBlockEncoder& operator=(const PostingBlockEncoder&) = delete;

  // Encodes postings sorted by posting_less (at least one). Returns the block's bytes,
  // valid until the next call. sizes, when given, receives the per-section sizes.
  // every_group_extra: every group stores its extra key bits (flag bit 2).
  std::span<const uint8_t> encode(std::span<const Posting> postings, PostingBlockSizes* sizes = nullptr,
                                  bool every_group_extra = false);
  // Encodes postings in groups of the given sizes, as PostingBlockDecoder::decode_all
  // gives them back (the keys of a group equal, its postings in game and ply order, the
  // fingerprints of the groups in order): a decoded block with postings left out
  // (groups only shrink) encodes again without its groups merging or reordering.
  std::span<const uint8_t> encode_groups(std::span<const Posting> postings, std::span<const uint32_t> group_sizes,
                                         bool every_group_extra, PostingBlockSizes* sizes = nullptr);

  int key_bits() const { return key_bits_; }
  int extra_bits() const { return extra_bits_; }

 private:
  void append_section(int index, const std::vector<uint8_t>& raw, PostingBlockSizes* sizes);
  // Encodes masked_ in the groups of group_sizes_.
  std::span<const uint8_t> encode_masked(PostingBlockSizes* sizes, bool every_group_extra);

  int key_bits_;
  int extra_bits_;
  int compression_level_;
  bool lean_;
  std::vector<Posting> masked_;
  std::vector<uint64_t> gaps_;        // fingerprint gaps of the block being encoded
  std::vector<uint32_t> first_games_; // first game id of each group
  std::vector<uint32_t> group_sizes_;
  std::array<std::vector<uint8_t>, kPostingBlockSections> sections_;
  std::vector<uint8_t> compressed_;
  std::vector<uint8_t> out_;
};

// Decodes blocks. open() reads the header; find() touches the other sections only when
// the key is present. Corrupt bytes throw PositionIndexError. One thread at a time;
// the block's bytes must stay alive and unchanged until the next open().
class PostingBlockDecoder {
 public:
  PostingBlockDecoder();
  ~PostingBlockDecoder();
  PostingBlockDecoder(const PostingBlockDecoder&) = delete;
  PostingBlockDecoder& operator=(const PostingBlockDecoder&) = delete;

  void open(std::span<const uint8_t> block);

  uint32_t postings() const { return postings_; }
  uint32_t groups() const { return groups_; }
  int format() const { return format_; }
  int key_bits() const { return key_bits_; }
  int extra_bits() const { return extra_bits_; }
  uint8_t flags() const { return flags_; }
  // The smallest first game id of any group: every game id of the block is at least this.
  uint64_t game_base() const { return game_base_; }
  // The first posting's fingerprint, as a key (mask_key of its key to key_bits()).
  uint64_t first_key() const { return first_fingerprint_ << (64 - key_bits_); }

  // Appends the postings of the groups that may hold key to out: those whose fingerprint
  // is key's and, for a group that stores extra key bits, whose extra bits are key's too.
  // In (game_id, ply) order, with Posting::key set to key. Returns how many.
  size_t find(uint64_t key, std::vector<Posting>& out);
  // How many postings find would append (reads only the key sections).
  size_t count(uint64_t key);
  // Appends every posting of the block, in block order, keys as stored (the group key,
  // or the fingerprint alone for a group without extra bits). group_sizes, when given,
  // receives the size of each group (encode_groups takes them back).
  void decode_all(std::vector<Posting>& out, std::vector<uint32_t>* group_sizes = nullptr);

 private:
  struct Location {
    uint32_t group = 0;
    uint32_t first_posting = 0;
    uint32_t first_move = 0;  // index of the group's first entry in the move sections
    uint32_t size = 0;
    bool match = false;       // its extra bits, where stored, are the key's too
  };
  // Whether the move sections hold an entry for a group of this size.
  bool group_has_moves(uint64_t size) const { return (flags_ & kBlockStoresAllMoves) || size >= 2; }
  // Whether the extra key bits section holds an entry for a group of this size.
  bool group_has_extra(uint64_t size) const {
    return extra_bits_ > 0 && ((flags_ & kBlockStoresAllExtraBits) || group_has_moves(size));
  }
  // Fills locations_ with the groups of key's fingerprint (consecutive), each marked
  // whether find() takes it.
  void locate(uint64_t key);
  // The fingerprint after previous, given the next gap read.
  uint64_t next_fingerprint(uint64_t previous, uint64_t gap) const;
  std::span<const uint8_t> section(int index);
  [[noreturn]] void fail(const char* what) const;
  // Decodes consecutive groups, given as (key to report, size), starting at first_group
  // whose first posting is first_posting and first move entry first_move.
  void decode_range(uint32_t first_group, std::span<const std::pair<uint64_t, uint32_t>> groups,
                    uint32_t first_posting, uint32_t first_move, std::vector<Posting>& out);

  struct SectionRef {
    uint8_t codec = 0;
    std::span<const uint8_t> stored;
    size_t raw_size = 0;
    bool decoded = false;
  };

  // Fails unless a zstd section's raw size is its frame's and fits its stored bytes.
  void check_zstd_size(const SectionRef& section) const;

  struct ZstdContext;
  std::unique_ptr<ZstdContext> zstd_;
  uint32_t postings_ = 0;
  uint32_t groups_ = 0;
  int key_bits_ = 64;
  uint8_t flags_ = kBlockStoresPlies | kBlockStoresAllMoves;
  int format_ = kPostingBlockFormat;
  int extra_bits_ = 0;
  uint64_t first_fingerprint_ = 0;
  int rice_k_ = 0;
  uint64_t game_base_ = 0;
  int game_bits_ = 0;
  std::array<SectionRef, kPostingBlockSections> sections_{};
  std::array<std::vector<uint8_t>, kPostingBlockSections> decoded_;
  std::vector<Location> locations_;
  std::vector<std::pair<uint64_t, uint32_t>> run_groups_;  // find's scratch
};

// Writes to out the block of format 3 with every game id moved by delta (game_base +
// delta): the same bytes but for the header's game_base varint, which is what encoding
// the same postings with their ids moved gives. False, out unspecified, when the block's
// header does not parse or the moved game_base would leave 0..2^32-1. Checks nothing
// past the header: the caller decodes the block first and knows its largest id.
bool rebase_posting_block(std::span<const uint8_t> block, int64_t delta, std::vector<uint8_t>& out);

}  // namespace pgnbase::store
