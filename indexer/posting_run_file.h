// Sorted runs of postings spilled to temporary files while an index is built.
//
// File format (no header; the writer keeps the count), one record per posting in
// posting_less order, every field a varint (indexer/varint.h):
//   key - previous key
//   game_id - previous game_id when the key repeats, else game_id
//   ply
//   next_move << 2 | result
// A record takes at most 21 bytes; typically 6 to 12.
//
// Errors (cannot create, short write, disk full, truncated file) throw
// PositionIndexError naming the file. Not thread-safe; one thread per object.
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <span>
#include <vector>

#include "indexer/position_posting.h"

namespace pgnbase::indexer {

// A run file on disk. Owns the file: removes it on destruction (or remove()).
// Movable, not copyable.
class PostingRunFile {
 public:
  PostingRunFile(std::filesystem::path path, uint64_t postings) : path_(std::move(path)), postings_(postings) {}
  ~PostingRunFile() { remove(); }
  PostingRunFile(PostingRunFile&& other) noexcept;
  PostingRunFile& operator=(PostingRunFile&& other) noexcept;
  PostingRunFile(const PostingRunFile&) = delete;
  PostingRunFile& operator=(const PostingRunFile&) = delete;

  const std::filesystem::path& path() const { return path_; }
  uint64_t postings() const { return postings_; }
  // Deletes the file now; errors are ignored (it is a temporary file).
  void remove() noexcept;

 private:
  std::filesystem::path path_;  // empty once removed or moved from
  uint64_t postings_;
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

  void add(const Posting& posting) {
    if (out_ >= flush_at_) flush();
    out_ = encode(out_, posting);
    previous_ = posting;
    ++postings_;
  }
  // Flushes and closes the file and hands it over.
  PostingRunFile finish();

 private:
  uint8_t* encode(uint8_t* out, const Posting& posting) const;
  void flush();
  [[noreturn]] void fail(int error);

  std::FILE* file_ = nullptr;
  std::filesystem::path path_;
  std::vector<uint8_t> buffer_;
  uint8_t* out_;
  uint8_t* flush_at_;
  Posting previous_{};
  uint64_t postings_ = 0;
};

// Writes postings already sorted by posting_less to a new run file.
PostingRunFile write_posting_run(const std::filesystem::path& directory, std::span<const Posting> sorted);

// Reads a run file from start to end. The run file must outlive the reader.
class PostingRunReader {
 public:
  PostingRunReader(const PostingRunFile& run, size_t buffer_bytes);
  ~PostingRunReader();
  PostingRunReader(PostingRunReader&& other) noexcept;
  PostingRunReader& operator=(PostingRunReader&&) = delete;
  PostingRunReader(const PostingRunReader&) = delete;
  PostingRunReader& operator=(const PostingRunReader&) = delete;

  // Reads the next posting; false once all of the run's postings have been read.
  bool next(Posting& out);

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
  Posting previous_{};
};

}  // namespace pgnbase::indexer
