// Where an export's unfinished files live, and how they go away whatever ends the export.
//
//   DIR/.export-tmp-PID/   every file an export writes: the posting spill files, the new
//                          Parquet files and the new _meta. They are renamed into place
//                          together once all are complete (dataset_export.cpp); readers
//                          never look there (a dot-name, outside every table's folder).
//
// - The destructor of ExportTempFolder removes the folder and everything in it, and the
//   folders it created on the way to DIR once they are empty again (an export that failed
//   leaves DIR as it found it).
// - SIGINT, SIGTERM and SIGHUP: a handler does the same, then lets the signal end the
//   process as it would have (the exit status says so). The handler only reads fixed
//   buffers and makes system calls (open, getdents64, unlinkat, rmdir, sigaction, raise).
//   A handler that was installed before it runs after it.
// - kill -9 leaves the folder: the next export into DIR removes the temporary folders of
//   processes that no longer exist and belong to this user (sweep_stale_export_files),
//   and the dot-named temporary files that exports of earlier pgnbase versions left
//   beside their final names (.part-E.parquet.tmp-PID, .meta.tmp-PID).
//
// One export at a time per ExportTempFolder; the class is not thread-safe, the handler is
// safe in any thread.
#pragma once

#include <signal.h>
#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <vector>

namespace pgnbase::dataset {

class ExportTempFolder {
 public:
  // Creates dataset_dir when missing (and the folders above it), then
  // dataset_dir/.export-tmp-PID. Throws DatasetError.
  explicit ExportTempFolder(const std::filesystem::path& dataset_dir);
  ~ExportTempFolder();
  ExportTempFolder(const ExportTempFolder&) = delete;
  ExportTempFolder& operator=(const ExportTempFolder&) = delete;

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  std::vector<std::filesystem::path> created_;  // folders made on the way to dataset_dir, deepest first
  int slot_ = -1;                               // the signal handler's slot, or -1
};

// Holds SIGINT, SIGTERM and SIGHUP back in the calling thread while it lives (a signal
// that arrives meanwhile is delivered when it ends): for the few milliseconds of renames
// that must happen all together or not at all.
class SignalsHeld {
 public:
  SignalsHeld();
  ~SignalsHeld();
  SignalsHeld(const SignalsHeld&) = delete;
  SignalsHeld& operator=(const SignalsHeld&) = delete;

 private:
  sigset_t previous_;
};

struct StaleExportFiles {
  uint64_t files = 0, bytes = 0;
  std::vector<pid_t> pids;  // the ended processes that left them, ascending
};

// Removes what ended exports of this user left in dataset_dir (kill -9, a crash, a power
// cut): their .export-tmp-PID folders, and the temporary files of earlier versions in
// _meta's folder and in the tables' folders. A live process's files stay. Errors (an
// unreadable folder) are ignored: this is housekeeping, and the export goes on without it.
StaleExportFiles sweep_stale_export_files(const std::filesystem::path& dataset_dir);

// True when dataset_dir holds nothing but folders (empty ones, at any depth) and the
// temporary folders of exports still running: a folder an export may treat as new.
bool holds_no_files(const std::filesystem::path& dataset_dir);

}  // namespace pgnbase::dataset
