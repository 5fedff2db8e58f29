#include "tools/import_report.h"

#include <cstdio>

#include "indexer/run_file_cleanup.h"

namespace pgnbase::tools {

using indexer::ImportOutcome;
using indexer::ImportProgress;
using indexer::SourceSummary;

void print_progress(const std::string& name, const ImportProgress& p) {
  double mb = p.bytes_done / 1e6;
  double rate = p.seconds > 0 ? mb / p.seconds : 0;
  std::string eta;
  if (p.input_size && *p.input_size > 0 && p.input_bytes_read > 0 && p.seconds > 0.5) {
    double fraction = double(p.input_bytes_read) / double(*p.input_size);
    if (fraction > 0 && fraction < 1) eta = "  ETA " + std::to_string(int(p.seconds * (1 - fraction) / fraction)) + " s";
  }
  std::fprintf(stderr, "\r%s: %.1f MB  %llu games  %llu rejected  %.1f MB/s%s   ", name.c_str(), mb,
               (unsigned long long)p.games, (unsigned long long)p.rejected, rate, eta.c_str());
  std::fflush(stderr);
}

void print_summary(const std::string& name, const ImportOutcome& o) {
  if (o.already_imported) {
    std::printf("%s: already in the database (source %lld), nothing to do\n", name.c_str(),
                (long long)o.existing_source_id);
    return;
  }
  const SourceSummary& s = o.summary;
  double mb = o.bytes / 1e6;
  std::string duplicates = s.duplicates ? ", " + std::to_string(s.duplicates) + " duplicates skipped" : "";
  std::printf("%s: %llu games found, %llu imported, %llu rejected%s in %.2f s (%.1f MB/s, %.0f games/s)\n",
              name.c_str(), (unsigned long long)s.games_found, (unsigned long long)s.imported,
              (unsigned long long)s.rejected, duplicates.c_str(), o.seconds, o.seconds > 0 ? mb / o.seconds : 0.0,
              o.seconds > 0 ? s.games_found / o.seconds : 0.0);
  for (const auto& [kind, count] : s.rejects_by_kind)
    std::printf("  rejected, %s: %llu\n", kind.c_str(), (unsigned long long)count);
  if (s.games_by_language.size() > 1 || (s.games_by_language.size() == 1 && !s.games_by_language.count("en"))) {
    for (const auto& [code, count] : s.games_by_language)
      std::printf("  piece letters %s: %llu games\n", code.c_str(), (unsigned long long)count);
  }
  if (s.plies)
    std::printf("  %llu positions indexed (%.2f bytes each), moves %.2f bytes per ply\n",
                (unsigned long long)s.positions, s.positions ? double(s.position_index_bytes) / s.positions : 0.0,
                double(s.moves_bytes) / s.plies);
}

void ImportTotals::add(const ImportOutcome& o) {
  if (o.already_imported) {
    ++already_imported_;
    return;
  }
  ++imported_files_;
  games_found_ += o.summary.games_found;
  imported_ += o.summary.imported;
  rejected_ += o.summary.rejected;
  duplicates_ += o.summary.duplicates;
}

void ImportTotals::print(double seconds) const {
  const uint64_t files = imported_files_ + already_imported_ + failed_;
  std::string detail;
  auto note = [&](uint64_t n, const char* what) {
    if (n) detail += (detail.empty() ? " (" : ", ") + std::to_string(n) + " " + what;
  };
  note(failed_, "failed");
  note(already_imported_, "already in the database");
  if (!detail.empty()) detail += ")";
  std::string duplicates = duplicates_ ? ", " + std::to_string(duplicates_) + " duplicates skipped" : "";
  std::printf("total: %llu files%s, %llu games found, %llu imported, %llu rejected%s in %.2f s\n",
              (unsigned long long)files, detail.c_str(), (unsigned long long)games_found_,
              (unsigned long long)imported_, (unsigned long long)rejected_, duplicates.c_str(), seconds);
}

void report_stale_run_files(const std::filesystem::path& temp_dir) {
  const indexer::StaleRunFiles stale = indexer::sweep_stale_run_files(temp_dir);
  if (stale.files == 0) return;
  std::string pids;
  for (pid_t pid : stale.pids) pids += (pids.empty() ? "" : ", ") + std::to_string(pid);
  std::fflush(stdout);
  std::fprintf(stderr, "pgn-index: removed %llu run file%s (%.1f MiB) left in %s by ended imports (pid %s)\n",
               static_cast<unsigned long long>(stale.files), stale.files == 1 ? "" : "s",
               double(stale.bytes) / double(1 << 20), temp_dir.c_str(), pids.c_str());
}

}  // namespace pgnbase::tools
