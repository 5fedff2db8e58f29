// Position run files (posting_run_file.h) must not outlive the import that made them.
//
// They are named pgnbase-postings-<pid>-XXXXXX.run (mkstemps fills the X's), so that
// both cleanups below know whose file it is:
// - SIGINT, SIGTERM and SIGHUP: a handler removes this process's run files from every
//   folder it made them in, then lets the signal end the process as it would have (the
//   exit status says so, and the uncommitted database transaction is rolled back). The
//   handler only reads fixed buffers and makes system calls (open, getdents64, unlinkat,
//   sigaction, raise), as a signal handler must. A handler that was there before (the
//   temporaries of io/replacing_file.h) runs after it.
// - kill -9 leaves the files: the next import sweeps the folder, removing the run files
//   of processes that no longer exist (kill(pid, 0) fails with ESRCH) and that belong
//   to this user; others' files and those of live processes stay.
//
// Thread safety: every function may be called from any thread.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace pgnbase::indexer {

// The mkstemps template of this process's run files in directory (suffix ".run", 4 bytes).
std::string run_file_template(const std::filesystem::path& directory);

// Makes the signal handler remove this process's run files in directory (installed on
// the first call; a signal the process ignores stays ignored). Up to 8 folders are
// remembered; files in further ones are left to the next import's sweep.
void remove_run_files_on_signal(const std::filesystem::path& directory);

struct StaleRunFiles {
  uint64_t files = 0, bytes = 0;
  std::vector<pid_t> pids;  // the ended processes that left them, ascending
};

// Removes the run files in directory that ended processes of this user left behind
// (kill -9, a crash, a power cut). Errors (an unreadable folder) are ignored: this is
// housekeeping, and the import goes on without it.
StaleRunFiles sweep_stale_run_files(const std::filesystem::path& directory);

}  // namespace pgnbase::indexer
