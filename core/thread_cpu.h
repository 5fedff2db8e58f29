// CPU seconds by thread role, summed over the process: what the import's scaling report
// (pgn-index --stats, bench/scaling.sh) reads to say which thread bounds the speed.
//
// A thread started by ThreadGroup with a role adds its CPU time when it ends; the owner
// of a loop that runs on the main thread reads this_thread_cpu_seconds() itself. The
// totals are process-wide, behind a mutex taken once per thread's end.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace pgnbase {

// Spill: the position index's spills of postings to run files, one at a time per
// segment, each shared among threads (thread t of every spill added up as one serial
// thread). Rows: the games rows of a first import built beside the writer
// (indexer/row_staging.h). Writes: the write() calls of a new database's file, on a
// thread of their own (store/write_behind_vfs.h). Indexes: the games indexes of a new
// database built after the writer, their parts sorted and merged on helper threads
// (store/index_bulk_build.h).
enum class ThreadRole : uint8_t { Other, Reader, Worker, Merge, Spill, Rows, Writes, Indexes };
inline constexpr size_t kThreadRoles = 8;

std::string_view role_name(ThreadRole role);

// CPU time the calling thread has used so far (CLOCK_THREAD_CPUTIME_ID).
double this_thread_cpu_seconds();

// CPU time of the whole process so far, every thread's (ended ones included).
double process_cpu_seconds();

// Names the calling thread for top, perf and gdb (at most 15 characters are kept).
void name_this_thread(std::string_view name);

struct ThreadCpuTotals {
  std::array<double, kThreadRoles> seconds{};      // CPU of the ended threads, by role
  std::array<uint64_t, kThreadRoles> threads{};    // how many ended, by role
  // The most CPU one thread of the role used: the serial part of that role.
  std::array<double, kThreadRoles> busiest{};
};

void add_thread_cpu(ThreadRole role, double seconds);
ThreadCpuTotals thread_cpu_totals();

}  // namespace pgnbase
