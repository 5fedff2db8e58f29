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
// remembers, so that the partitions of a run can be merged independently, in parallel,
// and written so: the threads of one spill each write the partitions they merge to a
// file of their own, and the run is those files (PostingRunFile::join).
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

// A run on disk: one file, or several written at once by the threads of one spill, each
// file holding whole key partitions and the others empty. Owns its files: removes them on
// destruction (or remove()). Movable, not copyable.
class PostingRunFile {
 public:
  // Where each partition starts in one file: partition p is bytes [offsets[p],
  // offsets[p + 1]) and postings [firsts[p], firsts[p + 1]) of it (kKeyPartitions + 1
  // entries each; none for a file written without a partition table).
  struct Partitions {
    std::vector<uint64_t> offsets, firsts;
  };
  // Where postings lie: which file, from which byte, how many.
  struct Extent {
    const std::filesystem::path* path;
    uint64_t offset;
    uint64_t postings;
  };
  PostingRunFile(std::filesystem::path path, uint64_t postings, Partitions partitions = {});
  // One run of the files given, whose partitions do not overlap (each partition's postings
  // in one file at most; files without postings are removed).
  static PostingRunFile join(std::vector<PostingRunFile> files);
  ~PostingRunFile() { remove(); }
  PostingRunFile(PostingRunFile&& other) noexcept;
  PostingRunFile& operator=(PostingRunFile&& other) noexcept;
  PostingRunFile(const PostingRunFile&) = delete;
  PostingRunFile& operator=(const PostingRunFile&) = delete;

  uint64_t postings() const { return postings_; }
  // Its files (empty once removed or moved from).
  std::vector<std::filesystem::path> paths() const;
  // Whether each file has a partition table (a run written by PostingRunWriter).
  bool has_partitions() const;
  // The postings of partition p (postings 0 where it has none), or, for kKeyPartitions,
  // of the whole run: every partition in order, each starting its deltas afresh.
  std::vector<Extent> extents(unsigned partition) const;
  // Deletes the files now; errors are ignored (they are temporary files).
  void remove() noexcept;

 private:
  PostingRunFile() = default;
  struct File {
    std::filesystem::path path;
    Partitions partitions;
  };
  std::vector<File> files_;
  uint64_t postings_ = 0;
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

// Reads a run from start to end, or one key partition of it. The run must outlive the
// reader.
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
  // Moves on to the next extent: its deltas start at zero; the file is opened or sought
  // only where the extent does not follow the bytes already read.
  void start_extent(const PostingRunFile::Extent& extent);
  void refill();
  [[noreturn]] void fail(const char* what) const;

  std::FILE* file_ = nullptr;
  const std::filesystem::path* path_ = nullptr;  // of file_
  std::vector<PostingRunFile::Extent> extents_;
  size_t next_extent_ = 0;
  uint64_t remaining_ = 0;  // of the current extent
  std::vector<uint8_t> buffer_;
  size_t begin_ = 0;  // unread bytes are buffer_[begin_, end_)
  size_t end_ = 0;
  uint64_t buffer_end_offset_ = 0;  // the file offset of buffer_[end_]
  bool at_eof_ = false;
  store::Posting previous_{};
};

}  // namespace pgnbase::indexer
