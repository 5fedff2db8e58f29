// Starts the kernel's writeback of a file while another thread still writes it, a few
// MiB behind its growing end, so that the one fsync at the end finds little left: a new
// database (indexer/fresh_build.h) is written with no syncs, and on 423,800
// master-style games closing and syncing its 171 MB took 0.39-0.51 s of the import's
// last wall time, where every thread but the writer had ended (bench/README.md).
//
// Only hints (sync_file_range's SYNC_FILE_RANGE_WRITE, asynchronous): they make nothing
// durable and a failure is no error. Pages written again after their writeback started
// are simply written again; the lag keeps away from the pages that SQLite is still
// filling at the file's end.
#pragma once

#include <sys/types.h>

#include <condition_variable>
#include <mutex>
#include <thread>

namespace pgnbase::indexer {

class WritebackAhead {
 public:
  // fd: the file, borrowed: it must stay open until this object is destroyed.
  explicit WritebackAhead(int fd);
  WritebackAhead(const WritebackAhead&) = delete;
  WritebackAhead& operator=(const WritebackAhead&) = delete;
  // Stops the thread (a hint under way ends first) and adds its CPU to ThreadRole::Writes.
  ~WritebackAhead();

  // How often the thread looks at the file's size, how far behind its end the hints
  // stay, and the least a hint covers.
  static constexpr int kPollMilliseconds = 50;
  static constexpr off_t kLagBytes = off_t{4} << 20;
  static constexpr off_t kStepBytes = off_t{8} << 20;

 private:
  void run();

  const int fd_;
  std::mutex mutex_;
  std::condition_variable stop_;
  bool stopping_ = false;
  std::thread thread_;  // last: it starts once the rest is built
};

}  // namespace pgnbase::indexer
