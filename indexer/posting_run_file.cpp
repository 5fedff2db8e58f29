#include "indexer/posting_run_file.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
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

PostingRunFile::PostingRunFile(PostingRunFile&& other) noexcept
    : path_(std::exchange(other.path_, {})), postings_(other.postings_), partitions_(std::move(other.partitions_)) {}

PostingRunFile& PostingRunFile::operator=(PostingRunFile&& other) noexcept {
  if (this != &other) {
    remove();
    path_ = std::exchange(other.path_, {});
    postings_ = other.postings_;
    partitions_ = std::move(other.partitions_);
  }
  return *this;
}

void PostingRunFile::remove() noexcept {
  if (path_.empty()) return;
  std::error_code ignored;
  std::filesystem::remove(path_, ignored);
  path_.clear();
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
    : path_(run.path()), remaining_(run.postings()), buffer_(std::max(buffer_bytes, 4 * kMaxRecordBytes)) {
  file_ = std::fopen(path_.c_str(), "rb");
  if (!file_) fail("cannot open");
  restarts_ = run.partitions().firsts;
}

PostingRunReader::PostingRunReader(const PostingRunFile& run, size_t buffer_bytes, unsigned partition)
    : PostingRunReader(run, buffer_bytes) {
  const PostingRunFile::Partitions& parts = run.partitions();
  if (partition >= store::kKeyPartitions || parts.offsets.size() != store::kKeyPartitions + 1) {
    errno = 0;
    fail("no partition table for");
  }
  remaining_ = parts.firsts[partition + 1] - parts.firsts[partition];
  restarts_.clear();  // one partition: its deltas start at zero
  if (std::fseek(file_, static_cast<long>(parts.offsets[partition]), SEEK_SET) != 0) fail("cannot seek in");
}

PostingRunReader::~PostingRunReader() {
  if (file_) std::fclose(file_);
}

PostingRunReader::PostingRunReader(PostingRunReader&& other) noexcept
    : file_(std::exchange(other.file_, nullptr)),
      path_(std::move(other.path_)),
      remaining_(other.remaining_),
      buffer_(std::move(other.buffer_)),
      begin_(other.begin_),
      end_(other.end_),
      at_eof_(other.at_eof_),
      previous_(other.previous_),
      read_(other.read_),
      restarts_(std::move(other.restarts_)),
      next_restart_(other.next_restart_) {}

void PostingRunReader::fail(const char* what) const {
  int error = errno;
  throw store::PositionIndexError(std::string(what) + " position index run file '" + path_.string() + "': " +
                           describe_errno(error));
}

void PostingRunReader::refill() {
  std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
  end_ -= begin_;
  begin_ = 0;
  while (!at_eof_ && end_ < buffer_.size()) {
    size_t got = std::fread(buffer_.data() + end_, 1, buffer_.size() - end_, file_);
    end_ += got;
    if (got == 0) {
      if (std::ferror(file_)) fail("cannot read");
      at_eof_ = true;
    }
  }
}

bool PostingRunReader::next(store::Posting& out) {
  if (remaining_ == 0) return false;
  while (next_restart_ < restarts_.size() && restarts_[next_restart_] <= read_) {
    if (restarts_[next_restart_++] == read_) previous_ = store::Posting{};
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
  ++read_;
  return true;
}

}  // namespace pgnbase::indexer
