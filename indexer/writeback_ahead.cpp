#include "indexer/writeback_ahead.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>

#include "core/thread_cpu.h"

namespace pgnbase::indexer {

WritebackAhead::WritebackAhead(int fd) : fd_(fd), thread_([this] { run(); }) {}

WritebackAhead::~WritebackAhead() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  stop_.notify_one();
  thread_.join();
}

void WritebackAhead::run() {
  name_this_thread("db writeback");
  off_t from = 0;  // where the next hint starts: the writeback before it has been asked for
  std::unique_lock lock(mutex_);
  while (!stop_.wait_for(lock, std::chrono::milliseconds(kPollMilliseconds), [&] { return stopping_; })) {
    lock.unlock();
    struct stat info;
    if (::fstat(fd_, &info) == 0) {
      from = std::min(from, info.st_size);  // truncated meanwhile
      const off_t until = info.st_size - kLagBytes;
      if (until - from >= kStepBytes) {
        ::sync_file_range(fd_, from, until - from, SYNC_FILE_RANGE_WRITE);
        from = until;
      }
    }
    lock.lock();
  }
  add_thread_cpu(ThreadRole::Writes, this_thread_cpu_seconds());
}

}  // namespace pgnbase::indexer
