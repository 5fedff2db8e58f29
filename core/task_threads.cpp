#include "core/task_threads.h"

#include <utility>

namespace pgnbase {

TaskThreads::~TaskThreads() {
  abandon();
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  work_.notify_all();
  // threads_'s destructor joins them.
}

void TaskThreads::run(size_t count, std::function<void(size_t)> task) {
  {
    std::lock_guard lock(mutex_);
    task_ = std::move(task);
    count_ = count;
    unfinished_ = count;
    error_ = nullptr;
    ++batch_;
  }
  running_ = true;
  try {
    for (; threads_started_ < count; ++threads_started_)
      threads_.start([this, slot = threads_started_] { serve(slot); },
                     what_ + " " + std::to_string(threads_started_ + 1), role_);
  } catch (...) {
    {
      // The tasks without a thread never run: the batch is the ones that have one.
      std::lock_guard lock(mutex_);
      unfinished_ -= count_ - threads_started_;
      count_ = threads_started_;
    }
    work_.notify_all();
    throw;
  }
  work_.notify_all();
}

void TaskThreads::serve(size_t slot) {
  uint64_t done_batch = 0;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      work_.wait(lock, [&] { return stopping_ || (batch_ != done_batch && slot < count_); });
      if (stopping_) return;
      done_batch = batch_;
    }
    std::exception_ptr error;
    try {
      task_(slot);
    } catch (...) {
      error = std::current_exception();
    }
    std::lock_guard lock(mutex_);
    if (error && !error_) error_ = std::move(error);
    if (--unfinished_ == 0) done_.notify_all();
  }
}

void TaskThreads::wait_for_batch() {
  if (!running_) return;
  std::unique_lock lock(mutex_);
  done_.wait(lock, [&] { return unfinished_ == 0; });
  running_ = false;
}

void TaskThreads::wait() {
  wait_for_batch();
  std::lock_guard lock(mutex_);
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

void TaskThreads::abandon() noexcept {
  wait_for_batch();
  std::lock_guard lock(mutex_);
  error_ = nullptr;
}

}  // namespace pgnbase
