#include "dataset/posting_buckets.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "dataset/dataset_key.h"
#include "dataset/parquet_writer.h"

namespace pgnbase::dataset {

namespace {

constexpr size_t kPendingPostings = 4096;

std::filesystem::path bucket_path(const std::filesystem::path& folder, uint32_t bucket) {
  return folder / ("bucket-" + std::to_string(bucket) + ".postings");
}

}  // namespace

PostingBuckets::PostingBuckets(std::filesystem::path folder, int bucket_bits)
    : folder_(std::move(folder)), bucket_bits_(bucket_bits), pending_(size_t(1) << bucket_bits) {
  for (uint32_t b = 0; b < pending_.size(); ++b) {
    std::FILE* f = std::fopen(bucket_path(folder_, b).c_str(), "w+b");
    if (!f) throw DatasetError(bucket_path(folder_, b).string() + ": " + std::strerror(errno));
    files_.push_back(f);
  }
}

PostingBuckets::~PostingBuckets() {
  for (uint32_t b = 0; b < files_.size(); ++b) {
    std::fclose(files_[b]);
    std::error_code ignored;
    std::filesystem::remove(bucket_path(folder_, b), ignored);
  }
}

void PostingBuckets::add(const DatasetPosting& p) {
  const uint32_t b = key_bucket(p.key, bucket_bits_);
  pending_[b].push_back(p);
  ++postings_;
  if (pending_[b].size() == kPendingPostings) flush(b);
}

void PostingBuckets::flush(uint32_t b) {
  std::vector<DatasetPosting>& v = pending_[b];
  if (!v.empty() && std::fwrite(v.data(), sizeof(DatasetPosting), v.size(), files_[b]) != v.size())
    throw DatasetError(bucket_path(folder_, b).string() + ": write failed: " + std::strerror(errno));
  v.clear();
}

std::vector<DatasetPosting> PostingBuckets::read_sorted(uint32_t b) {
  flush(b);
  std::FILE* f = files_[b];
  if (std::fflush(f) != 0 || std::fseek(f, 0, SEEK_END) != 0)
    throw DatasetError(bucket_path(folder_, b).string() + ": " + std::strerror(errno));
  const long bytes = std::ftell(f);
  std::vector<DatasetPosting> out(size_t(bytes) / sizeof(DatasetPosting));
  std::rewind(f);
  if (std::fread(out.data(), sizeof(DatasetPosting), out.size(), f) != out.size())
    throw DatasetError(bucket_path(folder_, b).string() + ": read failed");
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace pgnbase::dataset
