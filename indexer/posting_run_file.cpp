#include "indexer/posting_run_file.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>

#include "indexer/run_file_cleanup.h"
#include "store/varint.h"

namespace pgnbase::indexer {

namespace {

constexpr size_t kMaxRecordBytes = 21;          // 10 + 5 + 3 + 3 varint bytes
constexpr size_t kWriteBufferBytes = 1 << 20;

std::string describe_errno(int error) { return error ? std::strerror(error) : "unexpected end of file"; }

[[noreturn]] void fail_write(const std::filesystem::path& path, int error) {
  throw store::PositionIndexError("cannot write position index run file '" + path.string() + "': " + describe_errno(error));
}

// Creates a new file with an unpredictable name (mkstemps: O_EXCL, random suffix), so two
// builders or processes sharing a temp directory never collide and another local user
// cannot make creation fail by guessing names. The pid in the name tells the cleanups
// of run_file_cleanup.h whose file it is.
std::FILE* create_unique_file(const std::filesystem::path& directory, std::filesystem::path& path) {
  remove_run_files_on_signal(directory);
  std::string name = run_file_template(directory);
  int fd = ::mkstemps(name.data(), 4);
  if (fd < 0) {
    int error = errno;
    throw store::PositionIndexError("cannot create position index run file in '" + directory.string() + "': " +
                             describe_errno(error));
  }
  path = name;
  std::FILE* file = ::fdopen(fd, "wb");
  if (!file) {
    int error = errno;
    ::close(fd);
    std::error_code ignored;
    std::filesystem::remove(path, ignored);
    throw store::PositionIndexError("cannot open position index run file '" + path.string() + "': " + describe_errno(error));
  }
  return file;
}

}  // namespace

PostingRunFile::PostingRunFile(std::filesystem::path path, uint64_t postings, Partitions partitions)
    : postings_(postings) {
  files_.push_back({std::move(path), std::move(partitions)});
}

PostingRunFile PostingRunFile::join(std::vector<PostingRunFile> runs) {
  PostingRunFile joined;
  for (PostingRunFile& run : runs) {
    if (!run.has_partitions()) throw std::logic_error("PostingRunFile::join: a run file without a partition table");
    for (File& file : run.files_) {
      if (file.partitions.firsts.back() == 0) {
        std::error_code ignored;
        std::filesystem::remove(file.path, ignored);
      } else {
        joined.files_.push_back(std::move(file));
      }
    }
    joined.postings_ += run.postings_;
    run.files_.clear();
  }
  return joined;
}

PostingRunFile::PostingRunFile(PostingRunFile&& other) noexcept
    : files_(std::exchange(other.files_, {})), postings_(other.postings_) {}

PostingRunFile& PostingRunFile::operator=(PostingRunFile&& other) noexcept {
  if (this != &other) {
    remove();
    files_ = std::exchange(other.files_, {});
    postings_ = other.postings_;
  }
  return *this;
}

std::vector<std::filesystem::path> PostingRunFile::paths() const {
  std::vector<std::filesystem::path> paths;
  for (const File& file : files_) paths.push_back(file.path);
  return paths;
}

bool PostingRunFile::has_partitions() const {
  return std::all_of(files_.begin(), files_.end(),
                     [](const File& f) { return f.partitions.offsets.size() == store::kKeyPartitions + 1; });
}

std::vector<PostingRunFile::Extent> PostingRunFile::extents(unsigned partition) const {
  std::vector<Extent> extents;
  if (!has_partitions()) {  // one file (join takes none such), no partition starts
    if (!files_.empty()) extents.push_back({&files_.front().path, 0, postings_});
    return extents;
  }
  const unsigned first = partition < store::kKeyPartitions ? partition : 0;
  const unsigned last = partition < store::kKeyPartitions ? partition + 1 : store::kKeyPartitions;
  for (unsigned p = first; p < last; ++p) {
    Extent extent{nullptr, 0, 0};
    for (const File& file : files_) {
      const uint64_t postings = file.partitions.firsts[p + 1] - file.partitions.firsts[p];
      if (postings > 0) extent = {&file.path, file.partitions.offsets[p], postings};
    }
    if (extent.postings > 0 || partition < store::kKeyPartitions) extents.push_back(extent);
  }
  return extents;
}

void PostingRunFile::remove() noexcept {
  for (const File& file : files_) {
    std::error_code ignored;
    std::filesystem::remove(file.path, ignored);
  }
  files_.clear();
}

PostingRunWriter::PostingRunWriter(const std::filesystem::path& directory, uint64_t expected_postings)
    : buffer_(std::min<uint64_t>(kWriteBufferBytes,
                                 2 * kMaxRecordBytes * std::clamp<uint64_t>(expected_postings, 4, kWriteBufferBytes))) {
  file_ = create_unique_file(directory, path_);
  out_ = buffer_.data();
  flush_at_ = buffer_.data() + buffer_.size() - kMaxRecordBytes;
}

PostingRunWriter::~PostingRunWriter() {
  if (file_) {
    std::fclose(file_);
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
  }
}

uint8_t* PostingRunWriter::encode(uint8_t* out, const store::Posting& posting) const {
  bool same_key = posting.key == previous_.key;
  out = store::put_varint(out, posting.key - previous_.key);
  out = store::put_varint(out, same_key ? posting.game_id - previous_.game_id : posting.game_id);
  out = store::put_varint(out, posting.ply);
  return store::put_varint(out, (uint32_t{posting.next_move} << 2) | (static_cast<uint32_t>(posting.result) & 3));
}

void PostingRunWriter::start_partition(unsigned partition) {
  const uint64_t here = bytes_flushed_ + static_cast<uint64_t>(out_ - buffer_.data());
  for (; next_partition_ <= partition; ++next_partition_) {
    partitions_.offsets.push_back(here);
    partitions_.firsts.push_back(postings_);
  }
  previous_ = store::Posting{};
}

void PostingRunWriter::fail(int error) {
  if (file_) std::fclose(file_);
  file_ = nullptr;
  std::error_code ignored;
  std::filesystem::remove(path_, ignored);
  fail_write(path_, error);
}

void PostingRunWriter::flush() {
  size_t size = static_cast<size_t>(out_ - buffer_.data());
  if (std::fwrite(buffer_.data(), 1, size, file_) != size) fail(errno);
  bytes_flushed_ += size;
  out_ = buffer_.data();
}

PostingRunFile PostingRunWriter::finish() {
  flush();
  start_partition(store::kKeyPartitions);  // the end of the last partition
  std::FILE* file = std::exchange(file_, nullptr);
  if (std::fclose(file) != 0) {
    int error = errno;
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
    fail_write(path_, error);
  }
  return PostingRunFile(path_, postings_, std::move(partitions_));
}

PostingRunFile write_posting_run(const std::filesystem::path& directory, std::span<const store::Posting> sorted) {
  PostingRunWriter writer(directory, sorted.size());
  for (const store::Posting& posting : sorted) writer.add(posting);
  return writer.finish();
}

PostingRunReader::PostingRunReader(const PostingRunFile& run, size_t buffer_bytes)
    : extents_(run.extents(store::kKeyPartitions)), buffer_(std::max(buffer_bytes, 4 * kMaxRecordBytes)) {}

PostingRunReader::PostingRunReader(const PostingRunFile& run, size_t buffer_bytes, unsigned partition)
    : buffer_(std::max(buffer_bytes, 4 * kMaxRecordBytes)) {
  if (partition >= store::kKeyPartitions || !run.has_partitions()) {
    const std::vector<std::filesystem::path> paths = run.paths();
    throw store::PositionIndexError("no partition table for position index run file '" +
                                    (paths.empty() ? std::string() : paths.front().string()) + "'");
  }
  extents_ = run.extents(partition);
}

PostingRunReader::~PostingRunReader() {
  if (file_) std::fclose(file_);
}

PostingRunReader::PostingRunReader(PostingRunReader&& other) noexcept
    : file_(std::exchange(other.file_, nullptr)),
      path_(other.path_),
      extents_(std::move(other.extents_)),
      next_extent_(other.next_extent_),
      remaining_(other.remaining_),
      buffer_(std::move(other.buffer_)),
      begin_(other.begin_),
      end_(other.end_),
      buffer_end_offset_(other.buffer_end_offset_),
      at_eof_(other.at_eof_),
      previous_(other.previous_) {}

void PostingRunReader::fail(const char* what) const {
  int error = errno;
  const std::string path = path_ ? path_->string() : std::string("(removed)");
  throw store::PositionIndexError(std::string(what) + " position index run file '" + path + "': " + describe_errno(error));
}

void PostingRunReader::start_extent(const PostingRunFile::Extent& extent) {
  previous_ = store::Posting{};
  remaining_ = extent.postings;
  if (extent.postings == 0) return;
  const uint64_t unread_offset = buffer_end_offset_ - (end_ - begin_);
  if (file_ && path_ == extent.path && unread_offset == extent.offset) return;  // read on
  if (path_ != extent.path) {
    if (file_) std::fclose(file_);
    path_ = extent.path;
    file_ = std::fopen(path_->c_str(), "rb");
    if (!file_) fail("cannot open");
  }
  if (std::fseek(file_, static_cast<long>(extent.offset), SEEK_SET) != 0) fail("cannot seek in");
  begin_ = end_ = 0;
  buffer_end_offset_ = extent.offset;
  at_eof_ = false;
}

void PostingRunReader::refill() {
  std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
  end_ -= begin_;
  begin_ = 0;
  while (!at_eof_ && end_ < buffer_.size()) {
    size_t got = std::fread(buffer_.data() + end_, 1, buffer_.size() - end_, file_);
    end_ += got;
    buffer_end_offset_ += got;
    if (got == 0) {
      if (std::ferror(file_)) fail("cannot read");
      at_eof_ = true;
    }
  }
}

bool PostingRunReader::next(store::Posting& out) {
  while (remaining_ == 0) {
    if (next_extent_ == extents_.size()) return false;
    start_extent(extents_[next_extent_++]);
  }
  if (end_ - begin_ < kMaxRecordBytes && !at_eof_) refill();
  const uint8_t* p = buffer_.data() + begin_;
  const uint8_t* end = buffer_.data() + end_;
  uint64_t key_delta, game, ply, move_and_result;
  if (!store::get_varint(p, end, key_delta) || !store::get_varint(p, end, game) || !store::get_varint(p, end, ply) ||
      !store::get_varint(p, end, move_and_result)) {
    errno = 0;
    fail("truncated");
  }
  begin_ = static_cast<size_t>(p - buffer_.data());
  out.key = previous_.key + key_delta;
  out.game_id = static_cast<uint32_t>(key_delta == 0 ? previous_.game_id + game : game);
  out.ply = static_cast<uint16_t>(ply);
  out.next_move = static_cast<uint16_t>(move_and_result >> 2);
  out.result = static_cast<store::GameResult>(move_and_result & 3);
  previous_ = out;
  --remaining_;
  return true;
}

}  // namespace pgnbase::indexer
