// The postings of an export, spread over 2^bucket_bits spill files by the key's top
// bits while the games are replayed, then read back one bucket at a time: memory holds
// one bucket (16 bytes per posting), not the whole export.
//
// The files are created in a folder the caller owns and removed by the destructor.
// One thread.
#pragma once

#include <cstdint>
#include <cstdio>
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
  PostingBuckets(std::filesystem::path folder, int bucket_bits);
  ~PostingBuckets();
  PostingBuckets(const PostingBuckets&) = delete;
  PostingBuckets& operator=(const PostingBuckets&) = delete;

  void add(const DatasetPosting& p);
  uint32_t buckets() const { return uint32_t(files_.size()); }
  uint64_t postings() const { return postings_; }
  // The bucket's postings sorted by key, game id and ply; call after the last add.
  std::vector<DatasetPosting> read_sorted(uint32_t bucket);

 private:
  void flush(uint32_t bucket);

  std::filesystem::path folder_;
  int bucket_bits_;
  std::vector<std::FILE*> files_;
  std::vector<std::vector<DatasetPosting>> pending_;  // buffered writes per bucket
  uint64_t postings_ = 0;
};

}  // namespace pgnbase::dataset
