#include "tools/import_report.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "indexer/run_file_cleanup.h"
#include "core/plural.h"

namespace pgnbase::tools {

using indexer::ImportOutcome;
using indexer::ImportProgress;
using indexer::SourceSummary;
using indexer::TruncatedCopy;

namespace {

// Seconds as a clock reads them: "0:42", "12:05", "1:02:09".
std::string clock_time(double seconds) {
  const long long s = (long long)(seconds + 0.5);
  char buffer[32];
  if (s >= 3600) std::snprintf(buffer, sizeof buffer, "%lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
  else std::snprintf(buffer, sizeof buffer, "%lld:%02lld", s / 60, s % 60);
  return buffer;
}

}  // namespace

void print_progress(const std::string& name, const ImportProgress& p) {
  double mb = p.bytes_done / 1e6;
  double rate = p.seconds > 0 ? mb / p.seconds : 0;
  std::string eta;
  // The share of the input read so far (compressed bytes for a compressed file) gives
  // the time left at the rate so far; shown once half a second has made the rate stable.
  if (p.input_size && *p.input_size > 0 && p.input_bytes_read > 0 && p.seconds > 0.5) {
    double fraction = double(p.input_bytes_read) / double(*p.input_size);
    if (fraction > 0 && fraction < 1)
      eta = "  " + std::to_string(int(fraction * 100)) + "%  ETA " + clock_time(p.seconds * (1 - fraction) / fraction);
  }
  std::fprintf(stderr, "\r%s: %.1f MB  %s  %llu rejected  %.1f MB/s%s   ", name.c_str(), mb,
               plural(int64_t(p.games), "game").c_str(), (unsigned long long)p.rejected, rate, eta.c_str());
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
  std::string duplicates = s.duplicates ? ", " + plural(int64_t(s.duplicates), "duplicate") + " skipped" : "";
  // A source merged from another database read no text: no MB/s.
  char rate[64] = "";
  if (o.bytes > 0) std::snprintf(rate, sizeof rate, "%.1f MB/s, ", o.seconds > 0 ? mb / o.seconds : 0.0);
  std::printf("%s: %s found, %llu imported, %llu rejected%s in %.2f s (%s%.0f games/s)\n", name.c_str(),
              plural(int64_t(s.games_found), "game").c_str(), (unsigned long long)s.imported,
              (unsigned long long)s.rejected, duplicates.c_str(), o.seconds, rate,
              o.seconds > 0 ? s.games_found / o.seconds : 0.0);
  for (const auto& [kind, count] : s.rejects_by_kind)
    std::printf("  rejected, %s: %llu\n", kind.c_str(), (unsigned long long)count);
  if (s.games_by_language.size() > 1 || (s.games_by_language.size() == 1 && !s.games_by_language.count("en"))) {
    for (const auto& [code, count] : s.games_by_language)
      std::printf("  piece letters %s: %s\n", code.c_str(), plural(int64_t(count), "game").c_str());
  }
  if (s.plies)
    std::printf("  %llu positions indexed (%.2f bytes each), moves %.2f bytes per ply\n",
                (unsigned long long)s.positions, s.positions ? double(s.position_index_bytes) / s.positions : 0.0,
                double(s.moves_bytes) / s.plies);
}

// One line per exact duplicate skipped (the first SourceSummary::kNamedDuplicates), naming
// the stored game it equals.
void print_duplicates(const SourceSummary& summary) {
  for (const TruncatedCopy& d : summary.first_duplicates)
    std::printf("  game %llu (line %llu) is a duplicate of stored game %lld: skipped\n",
                (unsigned long long)d.game_number, (unsigned long long)d.line, (long long)d.stored_id);
  const uint64_t exact = summary.duplicates - std::count_if(summary.truncated.begin(), summary.truncated.end(),
                                                            [](const TruncatedCopy& c) { return c.new_is_shorter; });
  if (exact > summary.first_duplicates.size())
    std::printf("  ... and %s\n", plural(int64_t(exact - summary.first_duplicates.size()), "more duplicate").c_str());
}

// One line per truncated copy met (the first 10), saying which game was kept.
void print_truncated_copies(const std::vector<TruncatedCopy>& copies) {
  constexpr size_t kShown = 10;
  for (size_t i = 0; i < std::min(copies.size(), kShown); ++i) {
    const TruncatedCopy& c = copies[i];
    if (c.new_is_shorter)
      std::printf("  game %llu (line %llu) is a truncated copy of stored game %lld (%llu of %llu plies): skipped\n",
                  (unsigned long long)c.game_number, (unsigned long long)c.line, (long long)c.stored_id,
                  (unsigned long long)c.plies, (unsigned long long)c.stored_plies);
    else
      std::printf("  game %llu (line %llu) is longer than stored game %lld (%llu plies, %llu stored): imported, "
                  "both kept (--replace the older file to drop it)\n",
                  (unsigned long long)c.game_number, (unsigned long long)c.line, (long long)c.stored_id,
                  (unsigned long long)c.plies, (unsigned long long)c.stored_plies);
  }
  if (copies.size() > kShown)
    std::printf("  ... and %s\n",
                plural(int64_t(copies.size() - kShown), "more truncated copy", "more truncated copies").c_str());
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
  writer_steps_ += o.summary.steps;
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
  std::string duplicates = duplicates_ ? ", " + plural(int64_t(duplicates_), "duplicate") + " skipped" : "";
  std::printf("total: %s%s, %s found, %llu imported, %llu rejected%s in %.2f s\n",
              plural(int64_t(files), "file").c_str(), detail.c_str(),
              plural(int64_t(games_found_), "game").c_str(),
              (unsigned long long)imported_, (unsigned long long)rejected_, duplicates.c_str(), seconds);
}

void report_stale_run_files(const std::filesystem::path& temp_dir, bool quiet) {
  const indexer::StaleRunFiles stale = indexer::sweep_stale_run_files(temp_dir);
  if (stale.files == 0 || quiet) return;
  std::string pids;
  for (pid_t pid : stale.pids) pids += (pids.empty() ? "" : ", ") + std::to_string(pid);
  std::fflush(stdout);
  std::fprintf(stderr, "pgn-index: removed %llu run file%s (%.1f MiB) left in %s by ended imports (pid %s)\n",
               static_cast<unsigned long long>(stale.files), stale.files == 1 ? "" : "s",
               double(stale.bytes) / double(1 << 20), temp_dir.c_str(), pids.c_str());
}

void print_thread_cpu(const ThreadCpuReport& r) {
  std::printf("cpu seconds by thread role (wall %.2f s, %s):\n", r.wall_seconds,
              plural(int64_t(r.games), "game").c_str());
  std::printf("  %-8s %8.2f  main thread: games indexes %.2f, position segment %.2f, explorer summaries %.2f,"
              " rows and the rest %.2f\n",
              "writer", r.writer_seconds, r.steps.games_indexes_cpu, r.steps.position_segment_cpu, r.summaries_seconds,
              std::max(0.0, r.writer_seconds - r.steps.games_indexes_cpu - r.steps.position_segment_cpu -
                                r.summaries_seconds));
  // The writer's serial path: its CPU, the wall time it waited for staged rows, and the
  // longest chain of work of the indexes that a new database's helpers build after its
  // last row.
  const double indexes_after = r.games_indexes.serial_seconds;
  const char* busiest_role = indexes_after > 0 ? "writer then the indexes' longest chain" : "writer";
  double busiest = r.writer_seconds + r.steps.rows_waited_wall + indexes_after;
  double claimed = r.writer_seconds;
  for (ThreadRole role : {ThreadRole::Reader, ThreadRole::Worker, ThreadRole::Merge, ThreadRole::Spill, ThreadRole::Rows,
                          ThreadRole::Writes, ThreadRole::Indexes}) {
    const size_t i = size_t(role);
    claimed += r.totals.seconds[i];
    if (r.totals.threads[i] == 0) continue;
    if (role == ThreadRole::Spill)
      std::printf("  %-8s %8.2f  postings spilled to run files, one spill at a time, its partitions on %s:"
                  " busiest %.2f\n",
                  "spill", r.totals.seconds[i], plural(int64_t(r.totals.threads[i]), "thread").c_str(),
                  r.totals.busiest[i]);
    else if (role == ThreadRole::Rows)
      std::printf("  %-8s %8.2f  games rows built beside the writer, a chunk's parts at a time (%s on %s);"
                  " it waited %.2f s for them\n",
                  "rows", r.totals.seconds[i], plural(int64_t(r.steps.rows_parts), "part").c_str(),
                  plural(int64_t(r.totals.threads[i]), "thread").c_str(), r.steps.rows_waited_wall);
    else if (role == ThreadRole::Writes)
      std::printf("  %-8s %8.2f  the new database file's writes and writeback, on threads beside the writer\n",
                  "writes", r.totals.seconds[i]);
    else if (role == ThreadRole::Indexes)
      std::printf("  %-8s %8.2f  the new database's games indexes after the writer, %d on %s (%d by SQLite):"
                  " longest chain %.2f (a part's sort, then the merge), wall %.2f\n",
                  "indexes", r.totals.seconds[i], r.games_indexes.built_beside,
                  plural(int64_t(r.totals.threads[i]), "thread").c_str(), r.games_indexes.built_by_sqlite,
                  r.games_indexes.serial_seconds, r.games_indexes.wall_seconds);
    else
      std::printf("  %-8s %8.2f  %s, busiest %.2f\n", std::string(role_name(role)).c_str(), r.totals.seconds[i],
                  plural(int64_t(r.totals.threads[i]), "thread").c_str(), r.totals.busiest[i]);
    // Workers and merge threads divide their work among themselves; the reader and the
    // file's writes thread are one each, and a segment's spills follow each other (the
    // busiest of a spill's threads, summed over the spills, is their serial part).
    if ((role == ThreadRole::Reader || role == ThreadRole::Spill || role == ThreadRole::Writes) &&
        r.totals.busiest[i] > busiest) {
      busiest = r.totals.busiest[i];
      busiest_role = role == ThreadRole::Reader ? "reader" : role == ThreadRole::Spill ? "spill thread" : "writes thread";
    }
  }
  std::printf("  %-8s %8.2f  SQLite's sort helper threads (the indexes of a first import)\n", "other",
              std::max(0.0, r.process_seconds - claimed));
  // Wall time, where the writer waited or worked while other threads did too.
  std::printf("  %-8s %8.2f  wall seconds the writer waited for spills of postings\n", "held-up",
              r.steps.spills_held_up_wall);
  std::printf("  %-8s %8.2f  wall seconds after the last chunk: games indexes %.2f, position segment %.2f\n", "end",
              r.steps.games_indexes_wall + r.steps.position_segment_wall, r.steps.games_indexes_wall,
              r.steps.position_segment_wall);
  if (r.publish_wall_seconds > 0)
    std::printf("  %-8s %8.2f  wall seconds closing the new database file and syncing it (its writeback started as"
                " it grew)\n",
                "publish", r.publish_wall_seconds);
  if (busiest <= 0) return;
  // Where the staging threads share too few cores with the workers, the writer waits for
  // them: the figure from its CPU alone is what idle cores would give.
  std::string waits;
  if (r.steps.rows_waited_wall > 0 && std::string_view(busiest_role).starts_with("writer") && r.writer_seconds > 0)
    waits = ", its waits for staged rows included; " +
            std::to_string(int64_t(double(r.games) / (r.writer_seconds + indexes_after))) + " from CPU alone";
  std::printf("  ceiling  %8.0f  games/s: %s games over the %s's %.2f s (the busiest serial thread%s)\n",
              double(r.games) / busiest, std::to_string(r.games).c_str(), busiest_role, busiest, waits.c_str());
}

}  // namespace pgnbase::tools
