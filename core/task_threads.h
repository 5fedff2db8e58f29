// Threads kept from one batch of tasks to the next. Starting a thread costs the thread
// that starts it a clone, the new stack's mapping and, later, its unmapping: the import's
// writer started each chunk's row-staging parts on fresh threads (about 11 a chunk with
// 16 cores), a tenth of its samples (bench/README.md). A batch's tasks each run on a
// thread of their own, all at once, as ThreadGroup's do; the threads wait for the next
// batch in between and end with the TaskThreads.
//
// Thread safety: run(), wait() and abandon() from the owning thread, one batch at a time.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <string>

#include "core/thread_cpu.h"
#include "core/thread_group.h"

namespace pgnbase {

class TaskThreads {
 public:
  // what: how a start failure names a thread ("row staging thread" + " 3"). A thread with
  // a role adds its CPU time to thread_cpu_totals() when the TaskThreads ends.
  TaskThreads(ThreadRole role, std::string what) : role_(role), what_(std::move(what)) {}
  ~TaskThreads();
  TaskThreads(const TaskThreads&) = delete;
  TaskThreads& operator=(const TaskThreads&) = delete;

  // Runs task(0) ... task(count - 1) at once, each on a thread of its own (threads are
  // started when no batch before had this many), and returns. The previous batch must
  // have been waited for. Throws ThreadStartError when the system refuses a thread: the
  // tasks whose threads exist run on, and wait() or abandon() must still follow.
  void run(size_t count, std::function<void(size_t)> task);
  // Waits for the batch, then rethrows the first exception one of its tasks threw.
  void wait();
  // Waits for the batch without rethrowing. Never throws.
  void abandon() noexcept;
  bool running() const { return running_; }

 private:
  void serve(size_t slot);  // a thread's loop: slot's task of each batch that has one
  void wait_for_batch();

  const ThreadRole role_;
  const std::string what_;
  std::mutex mutex_;
  std::condition_variable work_, done_;
  std::function<void(size_t)> task_;  // set before a batch's number changes
  size_t count_ = 0;                  // the batch's tasks
  size_t unfinished_ = 0;
  uint64_t batch_ = 0;  // the batch's number, from 1
  std::exception_ptr error_;
  bool stopping_ = false;
  bool running_ = false;  // the owner's: a batch not yet waited for
  size_t threads_started_ = 0;
  ThreadGroup threads_;  // last: its destructor joins before the state above goes
};

}  // namespace pgnbase
