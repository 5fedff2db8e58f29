#include "dataset/posting_buckets.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "dataset/dataset_key.h"
#include "dataset/parquet_writer.h"
#include "io/file_io.h"

namespace pgnbase::dataset {

PostingBuckets::PostingBuckets(std::filesystem::path folder, int bucket_bits, size_t pending_limit)
    : folder_(std::move(folder)),
      bucket_bits_(bucket_bits),
      pending_limit_(std::max<size_t>(pending_limit, 1)),
      starts_(bucket_bits >= 0 && bucket_bits <= 16 ? (size_t(1) << bucket_bits) + 1 : 0),
      spilled_(starts_.empty() ? 0 : starts_.size() - 1) {
  if (bucket_bits < 0 || bucket_bits > 16)
    throw DatasetError("bucket bits " + std::to_string(bucket_bits) + " are not 0..16");
}

PostingBuckets::~PostingBuckets() {
  for (uint32_t b = 0; b < spilled_.size(); ++b)
    if (spilled_[b] > 0) ::unlink(bucket_path(b).c_str());
}

std::filesystem::path PostingBuckets::bucket_path(uint32_t bucket) const {
  return folder_ / ("bucket-" + std::to_string(bucket) + ".postings");
}

void PostingBuckets::add(const DatasetPosting& p) {
  if (pending_.empty()) pending_.reserve(pending_limit_);
  pending_.push_back(p);
  ++postings_;
  if (pending_.size() >= pending_limit_) spill_pending();
}

void PostingBuckets::group_pending() {
  std::fill(starts_.begin(), starts_.end(), 0);
  for (const DatasetPosting& p : pending_) ++starts_[key_bucket(p.key, bucket_bits_) + 1];
  for (size_t b = 1; b < starts_.size(); ++b) starts_[b] += starts_[b - 1];
  std::vector<size_t> next(starts_.begin(), starts_.end() - 1);
  grouped_.resize(pending_.size());
  for (const DatasetPosting& p : pending_) grouped_[next[key_bucket(p.key, bucket_bits_)]++] = p;
  pending_.clear();
}

void PostingBuckets::spill_pending() {
  group_pending();
  for (uint32_t b = 0; b < spilled_.size(); ++b) {
    const size_t n = starts_[b + 1] - starts_[b];
    if (n == 0) continue;
    const std::filesystem::path path = bucket_path(b);
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (fd < 0) throw DatasetError(path.string() + ": cannot create: " + std::strerror(errno));
    if (const int error = io::write_all(fd, grouped_.data() + starts_[b], n * sizeof(DatasetPosting))) {
      ::close(fd);
      throw DatasetError(path.string() + ": write failed: " + std::strerror(error));
    }
    if (::close(fd) != 0) throw DatasetError(path.string() + ": write failed: " + std::strerror(errno));
    spilled_[b] += n;
    ++spill_writes_;
  }
  grouped_.clear();
}

std::vector<DatasetPosting> PostingBuckets::read_sorted(uint32_t b) {
  if (!reading_) {  // the postings still in the buffer stay there, grouped by bucket
    group_pending();
    pending_.shrink_to_fit();
    reading_ = true;
  }
  const size_t in_memory = starts_[b + 1] - starts_[b];
  std::vector<DatasetPosting> out(size_t(spilled_[b]) + in_memory);
  if (spilled_[b] > 0) {
    const std::filesystem::path path = bucket_path(b);
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw DatasetError(path.string() + ": cannot open: " + std::strerror(errno));
    if (const int error = io::read_exactly(fd, out.data(), size_t(spilled_[b]) * sizeof(DatasetPosting))) {
      ::close(fd);
      throw DatasetError(path.string() + ": read failed: " + std::strerror(error));
    }
    ::close(fd);
    ::unlink(path.c_str());
    spilled_[b] = 0;
  }
  std::copy(grouped_.begin() + std::ptrdiff_t(starts_[b]), grouped_.begin() + std::ptrdiff_t(starts_[b + 1]),
            out.end() - std::ptrdiff_t(in_memory));
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace pgnbase::dataset
