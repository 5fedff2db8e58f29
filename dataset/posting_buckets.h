// The postings of an export, spread over 2^bucket_bits buckets by the key's top bits
// while the games are replayed, then read back one bucket at a time: memory holds one
// bucket (16 bytes per posting) and a fixed buffer, not the whole export.
//
// Postings gather in one buffer (pending_limit postings, 16 bytes each); when it is full
// they are grouped by bucket and appended to one spill file per bucket, each opened,
// written and closed in turn. So the export holds one file open at a time whatever the
// number of buckets (4,096 at 12 bits): no open-file limit to meet. An export whose
// postings fit the buffer writes no spill file at all.
//
// The spill files are made in a folder the caller owns; each is removed once its bucket
// is read, and the destructor removes any left. One thread.
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

namespace pgnbase::dataset {

struct DatasetPosting {
  uint64_t key = 0;        // Polyglot key
  uint32_t game_id = 0;
  uint16_t ply = 0;        // plies played before the position
  uint16_t next_move = 0;  // MoveCode played from it; 0 at the end of the game (or a null move)

  friend bool operator<(const DatasetPosting& a, const DatasetPosting& b) {
    if (a.key != b.key) return a.key < b.key;
    return a.game_id != b.game_id ? a.game_id < b.game_id : a.ply < b.ply;
  }
};
static_assert(sizeof(DatasetPosting) == 16);

class PostingBuckets {
 public:
  static constexpr size_t kDefaultPendingLimit = size_t{1} << 18;  // 4 MiB of postings

  PostingBuckets(std::filesystem::path folder, int bucket_bits, size_t pending_limit = kDefaultPendingLimit);
  ~PostingBuckets();
  PostingBuckets(const PostingBuckets&) = delete;
  PostingBuckets& operator=(const PostingBuckets&) = delete;

  void add(const DatasetPosting& p);
  uint32_t buckets() const { return uint32_t(spilled_.size()); }
  uint64_t postings() const { return postings_; }
  // Spill files written so far (for tests: 0 while every posting fits the buffer).
  uint64_t spill_writes() const { return spill_writes_; }
  // The bucket's postings sorted by key, game id and ply, its spill file removed. Call
  // after the last add; each bucket once.
  std::vector<DatasetPosting> read_sorted(uint32_t bucket);

 private:
  std::filesystem::path bucket_path(uint32_t bucket) const;
  // Groups the buffer by bucket into grouped_ (bucket b at [starts_[b], starts_[b + 1])).
  void group_pending();
  void spill_pending();

  std::filesystem::path folder_;
  int bucket_bits_;
  size_t pending_limit_;
  std::vector<DatasetPosting> pending_, grouped_;
  std::vector<size_t> starts_;     // of each bucket in grouped_, and the end
  std::vector<uint64_t> spilled_;  // postings in each bucket's spill file
  bool reading_ = false;           // read_sorted was called: grouped_ holds the last postings
  uint64_t postings_ = 0, spill_writes_ = 0;
};

}  // namespace pgnbase::dataset
