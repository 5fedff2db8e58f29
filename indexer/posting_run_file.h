// Sorted runs of postings spilled to temporary files while an index is built.
//
// File format (no header; the writer keeps the counts), one record per posting in
// posting_less order, every field a varint (store/varint.h):
//   key - previous key (the previous posting counts as zero at each partition's start)
//   game_id - previous game_id when the key repeats, else game_id
//   ply
//   next_move << 2 | result
// A record takes at most 21 bytes; typically 6 to 12. The postings of each key partition
// (key_partition(), the key's top bits) start afresh at a byte offset the file object
// remembers, so that the partitions of a run can be merged independently, in parallel.
//
// Errors (cannot create, short write, disk full, truncated file) throw
// PositionIndexError naming the file. Not thread-safe; one thread per object.
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <span>
#include <vector>

#include "store/position_posting.h"

namespace pgnbase::indexer {

// A run file on disk. Owns the file: removes it on destruction (or remove()).
// Movable, not copyable.
class PostingRunFile {
 public:
  // Where each partition starts: partition p is bytes [offsets[p], offsets[p + 1]) and
  // postings [firsts[p], firsts[p + 1]) of the file (kKeyPartitions + 1 entries each).
  struct Partitions {
    std::vector<uint64_t> offsets, firsts;
  };
  PostingRunFile(std::filesystem::path path, uint64_t postings, Partitions partitions = {})
      : path_(std::move(path)), postings_(postings), partitions_(std::move(partitions)) {}
  ~PostingRunFile() { remove(); }
  PostingRunFile(PostingRunFile&& other) noexcept;
  PostingRunFile& operator=(PostingRunFile&& other) noexcept;
  PostingRunFile(const PostingRunFile&) = delete;
  PostingRunFile& operator=(const PostingRunFile&) = delete;

  const std::filesystem::path& path() const { return path_; }
  uint64_t postings() const { return postings_; }
  const Partitions& partitions() const { return partitions_; }
  // Deletes the file now; errors are ignored (it is a temporary file).
  void remove() noexcept;

 private:
  std::filesystem::path path_;  // empty once removed or moved from
  uint64_t postings_;
  Partitions partitions_;
};

// Writes postings, added in posting_less order, to a new, uniquely named file in a
// directory. Removes the file if destroyed before finish().
class PostingRunWriter {
 public:
  // expected_postings, when known, keeps the write buffer small for small runs.
  explicit PostingRunWriter(const std::filesystem::path& directory, uint64_t expected_postings = UINT64_MAX);
  ~PostingRunWriter();
  PostingRunWriter(const PostingRunWriter&) = delete;
  PostingRunWriter& operator=(const PostingRunWriter&) = delete;

  void add(const store::Posting& posting) {
    if (out_ >= flush_at_) flush();
    if (store::key_partition(posting.key) >= next_partition_) start_partition(store::key_partition(posting.key));
    out_ = encode(out_, posting);
    previous_ = posting;
    ++postings_;
  }
  // Flushes and closes the file and hands it over.
  PostingRunFile finish();

 private:
  uint8_t* encode(uint8_t* out, const store::Posting& posting) const;
  // Records where partitions next_partition_ .. partition start (here) and resets the deltas.
  void start_partition(unsigned partition);
  void flush();
  [[noreturn]] void fail(int error);

  std::FILE* file_ = nullptr;
  std::filesystem::path path_;
  std::vector<uint8_t> buffer_;
  uint8_t* out_;
  uint8_t* flush_at_;
  store::Posting previous_{};
  uint64_t postings_ = 0;
  uint64_t bytes_flushed_ = 0;
  unsigned next_partition_ = 0;
  PostingRunFile::Partitions partitions_;
};

// Writes postings already sorted by posting_less to a new run file.
PostingRunFile write_posting_run(const std::filesystem::path& directory, std::span<const store::Posting> sorted);

// Reads a run file from start to end. The run file must outlive the reader.
class PostingRunReader {
 public:
  PostingRunReader(const PostingRunFile& run, size_t buffer_bytes);
  // Reads only the postings of one key partition.
  PostingRunReader(const PostingRunFile& run, size_t buffer_bytes, unsigned partition);
  ~PostingRunReader();
  PostingRunReader(PostingRunReader&& other) noexcept;
  PostingRunReader& operator=(PostingRunReader&&) = delete;
  PostingRunReader(const PostingRunReader&) = delete;
  PostingRunReader& operator=(const PostingRunReader&) = delete;

  // Reads the next posting; false once all of the run's postings have been read.
  bool next(store::Posting& out);

 private:
  void refill();
  [[noreturn]] void fail(const char* what) const;

  std::FILE* file_ = nullptr;
  std::filesystem::path path_;
  uint64_t remaining_;
  std::vector<uint8_t> buffer_;
  size_t begin_ = 0;  // unread bytes are buffer_[begin_, end_)
  size_t end_ = 0;
  bool at_eof_ = false;
  store::Posting previous_{};
  // Postings read so far, and the partition starts still ahead (deltas restart there).
  uint64_t read_ = 0;
  std::vector<uint64_t> restarts_;
  size_t next_restart_ = 0;
};

}  // namespace pgnbase::indexer
