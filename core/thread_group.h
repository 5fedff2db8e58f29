// Worker threads that end an operation with an error, never with std::terminate.
//
// A std::thread whose function throws, or a std::thread still joinable when it is
// destroyed (because starting the next one threw), calls std::terminate: the process
// dies with SIGABRT and no message (`pgn-index -j 300` under a memory limit). A
// ThreadGroup catches what its threads throw and keeps the first exception; start()
// throws ThreadStartError, a one-line message, when the system refuses a thread.
//
// The owner's part: when start() or a thread fails, make the other threads' loops end
// (close their queues, set a stop flag: on_error runs on the failing thread for that),
// then call join(), which waits for every thread and rethrows the first exception. The
// destructor joins too, without rethrowing, so a thread never outlives the state it uses.
//
// Thread safety: start() and join() from the owning thread; on_error from any thread.
#pragma once

#include <exception>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "core/error.h"
#include "core/thread_cpu.h"

namespace pgnbase {

class ThreadStartError : public Error {
 public:
  explicit ThreadStartError(const std::string& message) : Error(ErrorKind::ThreadStart, message) {}
};

class ThreadGroup {
 public:
  // on_error runs once, on the thread whose function threw first (not for start failures).
  explicit ThreadGroup(std::function<void()> on_error = {}) : on_error_(std::move(on_error)) {}
  ~ThreadGroup() { wait(); }
  ThreadGroup(const ThreadGroup&) = delete;
  ThreadGroup& operator=(const ThreadGroup&) = delete;

  // Runs fn on a new thread; throws ThreadStartError, with `what` saying which thread
  // (e.g. "worker thread 7 of 300"), when it cannot start. A thread with a role is named
  // after it ("pgn-worker") and adds its CPU time to thread_cpu_totals() when it ends.
  template <class F>
  void start(F fn, const std::string& what, ThreadRole role = ThreadRole::Other) {
    try {
      threads_.emplace_back([this, role, fn = std::move(fn)]() mutable {
        if (role != ThreadRole::Other) name_this_thread("pgn-" + std::string(role_name(role)));
        try {
          fn();
        } catch (...) {
          fail(std::current_exception());
        }
        if (role != ThreadRole::Other) add_thread_cpu(role, this_thread_cpu_seconds());
      });
    } catch (const std::system_error& e) {
      throw ThreadStartError("cannot start " + what + ": " + e.code().message() + " (try fewer threads: -j)");
    }
  }

  // Waits for every thread, then rethrows the first exception one of them threw.
  void join() {
    wait();
    std::lock_guard lock(mutex_);
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
  }

  bool failed() const {
    std::lock_guard lock(mutex_);
    return error_ != nullptr;
  }

 private:
  void fail(std::exception_ptr error) {
    {
      std::lock_guard lock(mutex_);
      if (error_ || reported_) return;
      error_ = std::move(error);
      reported_ = true;
    }
    if (on_error_) on_error_();
  }

  void wait() {
    for (std::thread& t : threads_)
      if (t.joinable()) t.join();
    threads_.clear();
  }

  std::function<void()> on_error_;
  std::vector<std::thread> threads_;
  mutable std::mutex mutex_;
  std::exception_ptr error_;
  bool reported_ = false;
};

}  // namespace pgnbase
