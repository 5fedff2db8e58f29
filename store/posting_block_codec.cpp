#include "store/posting_block_codec.h"

#include <zstd.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <string>

#include "store/bit_stream.h"
#include "store/varint.h"
#include "store/zstd_frame_limit.h"

namespace pgnbase::store {

namespace {

enum Section { kFingerprintGaps, kGroupSizes, kFirstGames, kGameGaps, kPlies, kMoveFrom, kMoveDistance, kResults, kExtraKeyBits };
enum Codec : uint8_t { kRaw = 0, kZstd = 1 };

uint64_t fingerprint_of(uint64_t key, int key_bits) { return key_bits >= 64 ? key : key >> (64 - key_bits); }

size_t varint_length(uint64_t value) {
  size_t length = 1;
  while (value >= 0x80) {
    value >>= 7;
    ++length;
  }
  return length;
}

void put_u64(std::vector<uint8_t>& out, uint64_t value) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<uint8_t>(value >> (8 * i)));
}

// The two move planes. Squares are mirrored (a1 <-> a8) at odd plies, so that both
// sides' moves look alike when the game starts with White to move, and the
// to-square is coded as its distance from the from-square: the planes then hold
// about 10 bits of information per move instead of about 11.7 (measured on lichess
// games). Plane a: from' | promotion bits 0-1 << 6. Plane b: (to' - from') mod 64 |
// promotion bit 2 << 6 | bit 15 << 7. Lossless for any 16-bit value and any ply.
struct MovePlanes {
  uint8_t a, b;
};

MovePlanes split_move(uint16_t move, uint16_t ply) {
  unsigned mirror = (ply & 1) ? 56 : 0;
  unsigned from = (move & 0x3f) ^ mirror;
  unsigned to = ((move >> 6) & 0x3f) ^ mirror;
  return {static_cast<uint8_t>(from | (((move >> 12) & 3) << 6)),
          static_cast<uint8_t>(((to - from) & 0x3f) | (((move >> 14) & 1) << 6) | ((move >> 15) << 7))};
}

uint16_t join_move(uint8_t a, uint8_t b, uint16_t ply) {
  unsigned mirror = (ply & 1) ? 56 : 0;
  unsigned from = a & 0x3f;
  unsigned to = (from + b) & 0x3f;
  return static_cast<uint16_t>((from ^ mirror) | ((to ^ mirror) << 6) | (((a >> 6) & 3u) << 12) |
                               (((b >> 6) & 1u) << 14) | ((b >> 7) << 15));
}

// The Rice parameter that codes these gaps in the fewest bits (tries a few near log2 of
// the mean). sum: the gaps' sum, which fits 64 bits (they are the steps between a
// block's ascending fingerprints), so the mean is exact. The candidates' lengths are
// summed in one pass over the gaps.
int choose_rice_parameter(const std::vector<uint64_t>& gaps, uint64_t sum) {
  if (gaps.empty()) return 0;
  const uint64_t mean = sum / gaps.size();
  const int guess = mean == 0 ? 0 : static_cast<int>(std::bit_width(mean)) - 1;
  const int first = std::max(0, guess - 2), last = std::min(63, guess + 1);
  uint64_t bits[4] = {0, 0, 0, 0};
  for (uint64_t gap : gaps)
    for (int k = first; k <= last; ++k) bits[k - first] += rice_length(gap, k);
  int best = 0;
  uint64_t best_bits = ~uint64_t{0};
  for (int k = first; k <= last; ++k) {
    if (bits[k - first] < best_bits) {
      best_bits = bits[k - first];
      best = k;
    }
  }
  return best;
}

// The calling thread's compression context, made on its first use. Encoders share it:
// a segment makes one encoder per key partition, and a context each cost a small
// segment (one short game) more than all its encoding.
ZSTD_CCtx* thread_compression_context() {
  struct Context {
    ZSTD_CCtx* context = ZSTD_createCCtx();
    ~Context() { ZSTD_freeCCtx(context); }
  };
  thread_local Context tl;
  if (!tl.context) throw PositionIndexError("cannot create a zstd compression context");
  return tl.context;
}

}  // namespace

struct PostingBlockDecoder::ZstdContext {
  ZSTD_DCtx* context = ZSTD_createDCtx();
  ~ZstdContext() { ZSTD_freeDCtx(context); }
};

PostingBlockEncoder::PostingBlockEncoder(int key_bits, int compression_level, bool lean, int extra_bits)
    : key_bits_(key_bits), extra_bits_(extra_bits), compression_level_(compression_level), lean_(lean) {
  if (key_bits < 1 || key_bits > 64) throw PositionIndexError("position index key_bits must be 1..64");
  if (extra_bits < 0 || extra_bits > 64 - key_bits)
    throw PositionIndexError("position index extra key bits must be 0..64 - key_bits");
}

PostingBlockEncoder::~PostingBlockEncoder() = default;

void PostingBlockEncoder::append_section(int index, const std::vector<uint8_t>& raw, PostingBlockSizes* sizes) {
  size_t before = out_.size();
  bool compressed = false;
  // The bit-packed sections are dense already: zstd would only spend time on them.
  bool dense = index == kFingerprintGaps || index == kFirstGames || index == kExtraKeyBits;
  if (raw.size() > 16 && !dense) {
    compressed_.resize(ZSTD_compressBound(raw.size()));
    size_t size = ZSTD_compressCCtx(thread_compression_context(), compressed_.data(), compressed_.size(), raw.data(),
                                    raw.size(), compression_level_);
    if (ZSTD_isError(size)) throw PositionIndexError(std::string("zstd compression failed: ") + ZSTD_getErrorName(size));
    if (size + varint_length(raw.size()) < raw.size()) {
      out_.push_back(kZstd);
      put_varint(out_, size);
      put_varint(out_, raw.size());
      out_.insert(out_.end(), compressed_.begin(), compressed_.begin() + static_cast<std::ptrdiff_t>(size));
      compressed = true;
    }
  }
  if (!compressed) {
    out_.push_back(kRaw);
    put_varint(out_, raw.size());
    out_.insert(out_.end(), raw.begin(), raw.end());
  }
  if (sizes) {
    sizes->stored[index] = out_.size() - before;
    sizes->raw[index] = raw.size();
  }
}

std::span<const uint8_t> PostingBlockEncoder::encode(std::span<const Posting> postings, PostingBlockSizes* sizes,
                                                     bool every_group_extra) {
  // Group keys; two keys with one group key form one group, re-sorted by game and ply.
  // Masking keeps the key order, so only a run of postings whose keys share a group key
  // needs sorting again, and only when the run holds two keys (a few runs in a block).
  const int group_bits = key_bits_ + extra_bits_;
  masked_.assign(postings.begin(), postings.end());
  for (Posting& posting : masked_) posting.key = mask_key(posting.key, group_bits);
  group_sizes_.clear();
  for (size_t run = 0, end; run < masked_.size(); run = end) {
    bool two_keys = false;
    for (end = run + 1; end < masked_.size() && masked_[end].key == masked_[run].key; ++end)
      two_keys |= postings[end].key != postings[end - 1].key;
    if (two_keys) std::sort(masked_.begin() + std::ptrdiff_t(run), masked_.begin() + std::ptrdiff_t(end), posting_less);
    group_sizes_.push_back(static_cast<uint32_t>(end - run));
  }
  return encode_masked(sizes, every_group_extra);
}

std::span<const uint8_t> PostingBlockEncoder::encode_groups(std::span<const Posting> postings,
                                                            std::span<const uint32_t> group_sizes,
                                                            bool every_group_extra, PostingBlockSizes* sizes) {
  uint64_t total = 0;
  for (uint32_t size : group_sizes) {
    if (size == 0) throw PositionIndexError("an empty group in a position index block");
    total += size;
  }
  if (total != postings.size()) throw PositionIndexError("group sizes do not add up to the postings");
  masked_.assign(postings.begin(), postings.end());
  for (Posting& posting : masked_) posting.key = mask_key(posting.key, key_bits_ + extra_bits_);
  group_sizes_.assign(group_sizes.begin(), group_sizes.end());
  return encode_masked(sizes, every_group_extra);
}

std::span<const uint8_t> PostingBlockEncoder::encode_masked(PostingBlockSizes* sizes, bool every_group_extra) {
  if (masked_.empty()) throw PositionIndexError("cannot encode an empty position index block");
  if (masked_.size() > kMaxBlockPostings) throw PositionIndexError("too many postings for one position index block");
  every_group_extra &= extra_bits_ > 0;
  for (auto& section : sections_) section.clear();
  std::vector<uint64_t>& gaps = gaps_;
  std::vector<uint32_t>& first_games = first_games_;
  gaps.clear();
  first_games.clear();
  const uint64_t first_fingerprint = fingerprint_of(masked_[0].key, key_bits_);
  uint64_t previous_fingerprint = first_fingerprint;
  BitWriter extra(sections_[kExtraKeyBits]);
  VarintAppender<std::vector<uint8_t>> group_sizes(sections_[kGroupSizes], group_sizes_.size());
  VarintAppender<std::vector<uint8_t>> game_gaps(sections_[kGameGaps], masked_.size());
  VarintAppender<std::vector<uint8_t>> plies(sections_[kPlies], lean_ ? 0 : masked_.size());
  size_t begin = 0;
  for (uint32_t size : group_sizes_) {
    const Posting& first = masked_[begin];
    const uint64_t fingerprint = fingerprint_of(first.key, key_bits_);
    if (fingerprint < previous_fingerprint) throw PositionIndexError("position index groups out of key order");
    if (begin > 0) gaps.push_back(fingerprint - previous_fingerprint);
    previous_fingerprint = fingerprint;
    group_sizes.put(size - 1);
    first_games.push_back(first.game_id);
    for (size_t i = begin + 1; i < begin + size; ++i) game_gaps.put(masked_[i].game_id - masked_[i - 1].game_id);
    if (!lean_)
      for (size_t i = begin; i < begin + size; ++i) plies.put(masked_[i].ply);
    if (extra_bits_ > 0 && (every_group_extra || !lean_ || size >= 2)) extra.write(first.key >> (64 - key_bits_ - extra_bits_), extra_bits_);
    begin += size;
  }
  group_sizes.done();
  game_gaps.done();
  plies.done();
  extra.finish();

  int rice_k = choose_rice_parameter(gaps, previous_fingerprint - first_fingerprint);
  {
    BitWriter writer(sections_[kFingerprintGaps]);
    for (uint64_t gap : gaps) writer.write_rice(gap, rice_k);
    writer.finish();
  }
  uint32_t game_base = *std::min_element(first_games.begin(), first_games.end());
  uint32_t game_span = *std::max_element(first_games.begin(), first_games.end()) - game_base;
  int game_bits = static_cast<int>(std::bit_width(game_span));
  {
    BitWriter writer(sections_[kFirstGames]);
    for (uint32_t game : first_games) writer.write(game - game_base, game_bits);
    writer.finish();
  }
  auto& move_from = sections_[kMoveFrom];
  auto& move_distance = sections_[kMoveDistance];
  auto& results = sections_[kResults];
  size_t entry = 0, posting_index = 0;
  for (uint32_t size : group_sizes_) {
    const bool stored = !lean_ || size >= 2;
    for (uint32_t j = 0; j < size; ++j, ++posting_index) {
      if (!stored) continue;
      const Posting& posting = masked_[posting_index];
      MovePlanes planes = split_move(posting.next_move, lean_ ? 0 : posting.ply);
      move_from.push_back(planes.a);
      move_distance.push_back(planes.b);
      if (entry % 4 == 0) results.push_back(0);
      results.back() |= static_cast<uint8_t>((static_cast<unsigned>(posting.result) & 3) << (2 * (entry % 4)));
      ++entry;
    }
  }

  out_.clear();
  out_.push_back(kPostingBlockFormat);
  out_.push_back(static_cast<uint8_t>(key_bits_));
  out_.push_back(static_cast<uint8_t>((lean_ ? 0 : kBlockStoresPlies | kBlockStoresAllMoves) |
                                      (every_group_extra ? kBlockStoresAllExtraBits : 0)));
  out_.push_back(static_cast<uint8_t>(extra_bits_));
  put_varint(out_, masked_.size());
  put_varint(out_, first_games.size());
  put_u64(out_, first_fingerprint);
  out_.push_back(static_cast<uint8_t>(rice_k));
  put_varint(out_, game_base);
  out_.push_back(static_cast<uint8_t>(game_bits));
  if (sizes) sizes->header = out_.size();
  for (int i = 0; i < kPostingBlockSections; ++i) append_section(i, sections_[i], sizes);
  return out_;
}

PostingBlockDecoder::PostingBlockDecoder() : zstd_(std::make_unique<ZstdContext>()) {
  if (!zstd_->context) throw PositionIndexError("cannot create a zstd decompression context");
}

PostingBlockDecoder::~PostingBlockDecoder() = default;

void PostingBlockDecoder::fail(const char* what) const {
  throw PositionIndexError(std::string("corrupt position index block: ") + what);
}

void PostingBlockDecoder::open(std::span<const uint8_t> block) {
  const uint8_t* p = block.data();
  const uint8_t* end = p + block.size();
  auto need = [&](size_t bytes) {
    if (static_cast<size_t>(end - p) < bytes) fail("truncated header");
  };
  auto varint = [&]() {
    uint64_t value;
    if (!get_varint(p, end, value)) fail("truncated header");
    return value;
  };
  need(2);
  format_ = p[0];
  if (format_ < 1 || format_ > kPostingBlockFormat) fail("unknown format version");
  key_bits_ = p[1];
  if (key_bits_ < 1 || key_bits_ > 64) fail("key_bits out of range");
  p += 2;
  flags_ = kBlockStoresPlies | kBlockStoresAllMoves;
  if (format_ >= 2) {
    need(1);
    flags_ = *p++;
    if (flags_ > (format_ >= 3 ? 7 : 3)) fail("unknown flags");
  }
  extra_bits_ = 0;
  if (format_ >= 3) {
    need(1);
    extra_bits_ = *p++;
    if (extra_bits_ > 64 - key_bits_) fail("extra key bits out of range");
  }
  uint64_t postings = varint();
  uint64_t groups = varint();
  if (postings == 0 || postings > kMaxBlockPostings || groups == 0 || groups > postings) fail("bad counts");
  postings_ = static_cast<uint32_t>(postings);
  groups_ = static_cast<uint32_t>(groups);
  need(9);
  first_fingerprint_ = 0;
  for (int i = 0; i < 8; ++i) first_fingerprint_ |= uint64_t{p[i]} << (8 * i);
  rice_k_ = p[8];
  p += 9;
  if (rice_k_ > 63) fail("bad Rice parameter");
  game_base_ = varint();
  need(1);
  game_bits_ = *p++;
  if (game_bits_ > 32) fail("bad game id width");
  const int section_count = format_ >= 3 ? kPostingBlockSections : kPostingBlockSections - 1;
  sections_[kExtraKeyBits] = {};
  for (int i = 0; i < section_count; ++i) {
    SectionRef& section = sections_[i];
    need(1);
    section.codec = *p++;
    uint64_t stored = varint();
    section.raw_size = stored;
    if (section.codec == kZstd) {
      section.raw_size = varint();
    } else if (section.codec != kRaw) {
      fail("unknown section codec");
    }
    if (stored > static_cast<uint64_t>(end - p)) fail("truncated section");
    // No section may claim more than 10 bytes (a maximal varint) per posting.
    if (section.raw_size > 10 * postings + 16) fail("section too large");
    section.stored = {p, static_cast<size_t>(stored)};
    section.decoded = false;
    p += stored;
    if (section.codec == kZstd) check_zstd_size(section);
  }
  // Each posting is one varint of the group sizes (the first of its group) or of the
  // game gaps (the others), so the counts are bounded by bytes really present.
  if (groups > sections_[kGroupSizes].raw_size || postings - groups > sections_[kGameGaps].raw_size)
    fail("more postings than the block's bytes can hold");
}

void PostingBlockDecoder::check_zstd_size(const SectionRef& section) const {
  // The size is checked before anything is allocated for it (zstd_frame_limit.h).
  if (section.raw_size > zstd_max_output(section.stored.size())) fail("section larger than its bytes can hold");
  const unsigned long long content = ZSTD_getFrameContentSize(section.stored.data(), section.stored.size());
  if (content != section.raw_size) fail("section size differs from its zstd frame's");
}

std::span<const uint8_t> PostingBlockDecoder::section(int index) {
  SectionRef& section = sections_[index];
  if (section.codec == kRaw) return section.stored;
  std::vector<uint8_t>& decoded = decoded_[index];
  if (!section.decoded) {
    decoded.resize(section.raw_size);
    size_t size = ZSTD_decompressDCtx(zstd_->context, decoded.data(), decoded.size(), section.stored.data(),
                                      section.stored.size());
    if (ZSTD_isError(size) || size != section.raw_size) fail("bad zstd section");
    section.decoded = true;
  }
  return decoded;
}

uint64_t PostingBlockDecoder::next_fingerprint(uint64_t previous, uint64_t gap) const {
  // Format 3 lets groups share a fingerprint (gap 0); format 2 codes gap - 1.
  const uint64_t next = previous + gap + (format_ >= 3 ? 0 : 1);
  if (next < previous || (format_ < 3 && next == previous)) fail("fingerprints out of order");
  if (key_bits_ < 64 && next >> key_bits_) fail("fingerprint out of range");
  return next;
}

void PostingBlockDecoder::locate(uint64_t key) {
  locations_.clear();
  const uint64_t target = fingerprint_of(key, key_bits_);
  if (target < first_fingerprint_) return;
  const int shift = 64 - key_bits_ - extra_bits_;
  const uint64_t target_extra = extra_bits_ > 0 ? (key >> shift) & low_bits_mask(extra_bits_) : 0;
  uint64_t first_move = 0, extra_index = 0;
  BitReader gaps(section(kFingerprintGaps));
  std::span<const uint8_t> sizes = section(kGroupSizes);
  const uint8_t* p = sizes.data();
  const uint8_t* end = p + sizes.size();
  uint64_t fingerprint = first_fingerprint_;
  uint64_t first_posting = 0;
  for (uint32_t group = 0; group < groups_; ++group) {
    uint64_t size_minus_one;
    if (!get_varint(p, end, size_minus_one)) fail("truncated group sizes");
    uint64_t size = size_minus_one + 1;
    if (first_posting + size > postings_) fail("group sizes exceed the posting count");
    const bool has_moves = group_has_moves(size), has_extra = group_has_extra(size);
    if (fingerprint == target) {
      bool match = true;
      if (has_extra) {
        BitReader extra(section(kExtraKeyBits));
        extra.seek(static_cast<size_t>(extra_index) * static_cast<size_t>(extra_bits_));
        match = extra.read(extra_bits_) == target_extra;
        if (extra.failed()) fail("truncated extra key bits");
      }
      locations_.push_back({group, static_cast<uint32_t>(first_posting), static_cast<uint32_t>(first_move),
                            static_cast<uint32_t>(size), match});
      // Before format 3 a fingerprint is one group.
      if (format_ < 3) return;
    }
    if (fingerprint > target) return;
    first_posting += size;
    if (has_moves) first_move += size;
    if (has_extra) ++extra_index;
    if (group + 1 < groups_) {
      uint64_t gap = gaps.read_rice(rice_k_);
      if (gaps.failed()) fail("truncated fingerprint gaps");
      fingerprint = next_fingerprint(fingerprint, gap);
    }
  }
}

size_t PostingBlockDecoder::find(uint64_t key, std::vector<Posting>& out) {
  locate(key);
  size_t matches = 0;
  for (const Location& location : locations_) matches += location.match;
  if (matches == 0) return 0;
  // The fingerprint's groups are consecutive: decoded in one pass (a block of many groups
  // sharing one fingerprint costs one pass, not one per group), the others' dropped.
  run_groups_.clear();
  for (const Location& location : locations_) run_groups_.emplace_back(key, location.size);
  const size_t before = out.size();
  const Location& first = locations_.front();
  decode_range(first.group, run_groups_, first.first_posting, first.first_move, out);
  if (matches < locations_.size()) {
    size_t kept = before, at = before;
    for (const Location& location : locations_) {
      if (location.match) std::move(out.begin() + std::ptrdiff_t(at), out.begin() + std::ptrdiff_t(at + location.size),
                                    out.begin() + std::ptrdiff_t(kept));
      kept += location.match ? location.size : 0;
      at += location.size;
    }
    out.resize(kept);
  }
  // Groups sharing the fingerprint each come in game order; together they must too.
  if (matches > 1)
    std::stable_sort(out.begin() + std::ptrdiff_t(before), out.end(), [](const Posting& a, const Posting& b) {
      return a.game_id != b.game_id ? a.game_id < b.game_id : a.ply < b.ply;
    });
  return out.size() - before;
}

size_t PostingBlockDecoder::count(uint64_t key) {
  locate(key);
  size_t total = 0;
  for (const Location& location : locations_) total += location.match ? location.size : 0;
  return total;
}

void PostingBlockDecoder::decode_all(std::vector<Posting>& out, std::vector<uint32_t>* group_sizes) {
  BitReader gaps(section(kFingerprintGaps));
  BitReader extra(section(kExtraKeyBits));
  std::span<const uint8_t> sizes = section(kGroupSizes);
  const uint8_t* p = sizes.data();
  const uint8_t* end = p + sizes.size();
  std::vector<std::pair<uint64_t, uint32_t>> groups(groups_);
  uint64_t fingerprint = first_fingerprint_;
  uint64_t total = 0;
  const int shift = 64 - key_bits_;
  const int extra_shift = shift - extra_bits_;
  if (group_sizes) group_sizes->clear();
  for (uint32_t group = 0; group < groups_; ++group) {
    uint64_t size_minus_one;
    if (!get_varint(p, end, size_minus_one)) fail("truncated group sizes");
    const uint64_t size = size_minus_one + 1;
    total += size;
    if (total > postings_) fail("group sizes exceed posting count");
    uint64_t key = fingerprint << shift;
    if (group_has_extra(size)) key |= extra.read(extra_bits_) << extra_shift;
    groups[group] = {key, static_cast<uint32_t>(size)};
    if (group_sizes) group_sizes->push_back(static_cast<uint32_t>(size));
    if (group + 1 < groups_) {
      uint64_t gap = gaps.read_rice(rice_k_);
      if (gaps.failed()) fail("truncated fingerprint gaps");
      fingerprint = next_fingerprint(fingerprint, gap);
    }
  }
  if (extra.failed()) fail("truncated extra key bits");
  if (total != postings_) fail("group sizes do not add up to the posting count");
  decode_range(0, groups, 0, 0, out);
}

void PostingBlockDecoder::decode_range(uint32_t first_group, std::span<const std::pair<uint64_t, uint32_t>> groups,
                                       uint32_t first_posting, uint32_t first_move, std::vector<Posting>& out) {
  const bool plies_stored = flags_ & kBlockStoresPlies;
  BitReader first_games(section(kFirstGames));
  first_games.seek(static_cast<size_t>(first_group) * static_cast<size_t>(game_bits_));
  std::span<const uint8_t> game_gaps = section(kGameGaps);
  const uint8_t* gap = game_gaps.data();
  const uint8_t* gap_end = gap + game_gaps.size();
  if (!skip_varints(gap, gap_end, first_posting - first_group) && first_posting > first_group)
    fail("truncated game gaps");
  std::span<const uint8_t> plies = section(kPlies);
  const uint8_t* ply = plies.data();
  const uint8_t* ply_end = ply + plies.size();
  if (plies_stored && !skip_varints(ply, ply_end, first_posting) && first_posting > 0) fail("truncated plies");
  if (!plies_stored && !plies.empty()) fail("plies stored in a block that says none are");
  std::span<const uint8_t> move_from = section(kMoveFrom);
  std::span<const uint8_t> move_distance = section(kMoveDistance);
  std::span<const uint8_t> results = section(kResults);
  if (move_distance.size() != move_from.size() || move_from.size() > postings_)
    fail("move sections have the wrong size");
  if (results.size() != (move_from.size() + 3) / 4) fail("result section has the wrong size");

  size_t move = first_move;
  for (const auto& [key, size] : groups) {
    uint64_t game = game_base_ + first_games.read(game_bits_);
    const bool has_moves = group_has_moves(size);
    for (uint32_t j = 0; j < size; ++j) {
      uint64_t value = kUnknownPly;
      if (j > 0) {
        if (!get_varint(gap, gap_end, value)) fail("truncated game gaps");
        game += value;
        value = kUnknownPly;
      }
      if (plies_stored && !get_varint(ply, ply_end, value)) fail("truncated plies");
      if (game > UINT32_MAX || value > UINT16_MAX) fail("value out of range");
      auto ply_value = static_cast<uint16_t>(value);
      uint16_t next_move = kUnknownNextMove;
      GameResult result = GameResult::Unknown;
      if (has_moves) {
        if (move >= move_from.size()) fail("move sections too short");
        next_move = join_move(move_from[move], move_distance[move], plies_stored ? ply_value : 0);
        result = static_cast<GameResult>((results[move / 4] >> (2 * (move % 4))) & 3);
        ++move;
      }
      // Field by field into the vector: a posting built on the stack and copied whole was
      // read back before its narrow stores had landed (a stalled store forwarding).
      Posting& posting = out.emplace_back();
      posting.key = key;
      posting.game_id = static_cast<uint32_t>(game);
      posting.ply = ply_value;
      posting.next_move = next_move;
      posting.result = result;
    }
  }
  if (first_games.failed()) fail("truncated first games");
}

bool rebase_posting_block(std::span<const uint8_t> block, int64_t delta, std::vector<uint8_t>& out) {
  const uint8_t* p = block.data();
  const uint8_t* end = p + block.size();
  uint64_t value;
  // format, key_bits, flags, extra_bits; P and G; the first fingerprint and rice_k; then
  // game_base.
  if (block.size() < 4 || p[0] != kPostingBlockFormat) return false;
  p += 4;
  if (!get_varint(p, end, value) || !get_varint(p, end, value) || end - p < 9) return false;
  p += 9;
  const uint8_t* base_at = p;
  uint64_t base;
  if (!get_varint(p, end, base) || base > UINT32_MAX) return false;
  const int64_t moved = int64_t(base) + delta;
  if (moved < 0 || moved > int64_t{UINT32_MAX}) return false;
  out.assign(block.data(), base_at);
  put_varint(out, uint64_t(moved));
  out.insert(out.end(), p, end);
  return true;
}

}  // namespace pgnbase::store
