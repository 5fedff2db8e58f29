#include "tools/merge_input.h"

#include <cstdio>

#include "core/plural.h"
#include "indexer/database_merge.h"
#include "indexer/input_source.h"
#include "store/schema_version.h"

namespace pgnbase::tools {

namespace {

// The corrupt games of a source named one line each, up to this many, then a count.
constexpr size_t kCorruptGamesShown = 10;

void print_corrupt_games(const indexer::MergedSource& source) {
  const std::vector<std::string>& lines = source.corrupt_games;
  std::fflush(stdout);
  for (size_t i = 0; i < std::min(lines.size(), kCorruptGamesShown); ++i)
    std::fprintf(stderr, "pgn-index: %s; rejected\n", lines[i].c_str());
  if (lines.size() > kCorruptGamesShown)
    std::fprintf(stderr, "pgn-index: ... and %s\n",
                 plural(int64_t(lines.size() - kCorruptGamesShown), "more corrupt game").c_str());
}

}  // namespace

void merge_input(const std::string& input, indexer::DatabaseWriter& writer, const indexer::ImportOptions& options,
                 ImportTotals& totals, bool quiet, RejectsFile* rejects) {
  if (rejects) rejects->begin_input();
  indexer::MergeTotals merged;
  try {
    merged = indexer::merge_database(input, writer, options, [&](const indexer::MergedSource& source) {
      totals.add(source.outcome);
      if (rejects && !source.outcome.already_imported) rejects->keep_input();
      if (rejects) rejects->begin_input();
      print_corrupt_games(source);
      if (!source.positions_note.empty()) std::fprintf(stderr, "pgn-index: %s\n", source.positions_note.c_str());
      if (quiet) return;
      const std::string name = source.path + " (from " + input + ")";
      for (const indexer::RemovedSource& removed : source.outcome.replaced)
        std::printf("replaced %s\n", indexer::describe(removed).c_str());
      print_summary(name, source.outcome);
      print_duplicates(source.outcome.summary);
      print_truncated_copies(source.outcome.summary.truncated);
    });
  } catch (const indexer::InputError& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "pgn-index: %s\n", e.what());
    totals.add_failure();
    return;
  } catch (const store::SchemaError& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "pgn-index: %s; nothing merged\n", e.what());
    totals.add_failure();
    return;
  }
  writer.commit_sources();
  std::fflush(stdout);
  for (const std::string& line : merged.orphans) std::fprintf(stderr, "pgn-index: %s\n", line.c_str());
  if (quiet) return;
  std::string detail;
  if (merged.already_in) detail = " (" + std::to_string(merged.already_in) + " already in the database)";
  const std::string duplicates =
      merged.duplicates ? ", " + plural_thousands(int64_t(merged.duplicates), "duplicate") + " skipped" : "";
  std::printf("%s: merged %s%s: %s found, %s merged, %s rejected%s in %.2f s (%.0f games/s)\n", input.c_str(),
              plural(int64_t(merged.sources), "source").c_str(), detail.c_str(),
              plural_thousands(int64_t(merged.games_found), "game").c_str(), thousands(int64_t(merged.merged)).c_str(),
              thousands(int64_t(merged.rejected)).c_str(), duplicates.c_str(), merged.seconds,
              merged.seconds > 0 ? double(merged.games_found) / merged.seconds : 0.0);
}

}  // namespace pgnbase::tools
