// What pgn-index prints about an import: the progress line (stderr, terminals only),
// one summary per file and, for several files, the total (stdout).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "core/thread_cpu.h"
#include "indexer/import_pipeline.h"
#include "store/index_bulk_build.h"

namespace pgnbase::tools {

void print_progress(const std::string& name, const indexer::ImportProgress& progress);

// "NAME: 2000 games found, 2000 imported, 0 rejected in 0.94 s (...)" and the detail lines.
void print_summary(const std::string& name, const indexer::ImportOutcome& outcome);

// One line per exact duplicate skipped (the first SourceSummary::kNamedDuplicates), naming
// the stored game it equals.
void print_duplicates(const indexer::SourceSummary& summary);

// One line per truncated copy met (the first 10), saying which game was kept.
void print_truncated_copies(const std::vector<indexer::TruncatedCopy>& copies);

// The files of one run, added up.
// Sweeps the run files that ended imports left in temp_dir (kill -9) and says so in one
// line on stderr: "pgn-index: removed 59 run files (12.3 MiB) left in /tmp by ended
// imports (pid 4242)". Prints nothing when there were none, or with quiet (-q: they still go).
void report_stale_run_files(const std::filesystem::path& temp_dir, bool quiet);

class ImportTotals {
 public:
  void add(const indexer::ImportOutcome& outcome);
  void add_failure() { ++failed_; }
  // Files imported by this run (not counting those already in the database).
  uint64_t imported_files() const { return imported_files_; }
  uint64_t failed_files() const { return failed_; }
  uint64_t games_found() const { return games_found_; }
  // The writing thread's end-of-source steps and its waits for spills (SourceSummary),
  // summed over the files.
  const indexer::WriterSteps& writer_steps() const { return writer_steps_; }
  // "total: 3 files (1 failed), 4000 games found, 3990 imported, 10 rejected in 2.31 s".
  void print(double seconds) const;

 private:
  uint64_t imported_files_ = 0, already_imported_ = 0, failed_ = 0;
  uint64_t games_found_ = 0, imported_ = 0, rejected_ = 0, duplicates_ = 0;
  indexer::WriterSteps writer_steps_;
};

// --stats: where the import's CPU went, by thread role, and the speed the busiest serial
// thread allows (games / its CPU seconds): no number of cores imports faster than that.
struct ThreadCpuReport {
  double wall_seconds = 0;
  uint64_t games = 0;
  double writer_seconds = 0;     // the main thread: it writes every row, in input order
  double summaries_seconds = 0;  // of which rebuilding the explorer summaries at the end
  double publish_wall_seconds = 0;  // closing a new database and syncing it, wall time
  store::BulkIndexReport games_indexes;  // a new database's, built before its publish
  indexer::WriterSteps steps;  // the writer's steps and waits, summed (ImportTotals)
  ThreadCpuTotals totals;        // the other threads, summed by role when they ended
  double process_seconds = 0;    // every thread's: what no role claims is SQLite's sort helpers
};
void print_thread_cpu(const ThreadCpuReport& report);

}  // namespace pgnbase::tools
