#include "core/thread_cpu.h"

#include <pthread.h>
#include <time.h>

#include <mutex>
#include <string>

namespace pgnbase {

namespace {

std::mutex totals_mutex;
ThreadCpuTotals totals;

}  // namespace

std::string_view role_name(ThreadRole role) {
  switch (role) {
    case ThreadRole::Reader: return "reader";
    case ThreadRole::Worker: return "worker";
    case ThreadRole::Merge: return "merge";
    case ThreadRole::Spill: return "spill";
    case ThreadRole::Rows: return "rows";
    case ThreadRole::Writes: return "writes";
    case ThreadRole::Indexes: return "indexes";
    case ThreadRole::Other: break;
  }
  return "other";
}

double this_thread_cpu_seconds() {
  timespec ts{};
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return 0;
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

double process_cpu_seconds() {
  timespec ts{};
  if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0) return 0;
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

void name_this_thread(std::string_view name) {
  const std::string kept(name.substr(0, 15));
  pthread_setname_np(pthread_self(), kept.c_str());
}

void add_thread_cpu(ThreadRole role, double seconds) {
  const size_t r = size_t(role);
  std::lock_guard lock(totals_mutex);  // once per thread's end: a mutex costs nothing here
  totals.seconds[r] += seconds;
  ++totals.threads[r];
  if (seconds > totals.busiest[r]) totals.busiest[r] = seconds;
}

ThreadCpuTotals thread_cpu_totals() {
  std::lock_guard lock(totals_mutex);
  return totals;
}

}  // namespace pgnbase
