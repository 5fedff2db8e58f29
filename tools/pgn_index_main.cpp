// pgn-index: imports PGN archives (.pgn, .pgn.zst/.gz/.bz2/.xz, .zip, stdin) and Parquet files of games
// (lichess's Parquet edition) into a pgnbase SQLite database.
#include <unistd.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <csignal>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <thread>

#include "core/notation.h"
#include "core/plural.h"
#include "indexer/database_merge.h"
#include "indexer/fresh_build.h"
#include "indexer/import_pipeline.h"
#include "indexer/input_source.h"
#include "indexer/source_removal.h"
#include "store/database.h"
#include "store/index_bulk_build.h"
#include "store/schema.h"
#include "store/schema_version.h"
#include "search/explorer_summary.h"
#include "io/file_identity.h"
#include "tools/import_report.h"
#include "tools/merge_input.h"
#include "tools/rejects_file.h"

namespace fs = std::filesystem;
namespace po = boost::program_options;
using namespace pgnbase;
using namespace pgnbase::indexer;
using namespace pgnbase::tools;

namespace {

// "512M", "2G", "100000" -> bytes.
std::optional<size_t> parse_size(const std::string& text) {
  if (text.empty()) return std::nullopt;
  size_t used = 0;
  double value;
  try {
    value = std::stod(text, &used);
  } catch (...) {
    return std::nullopt;
  }
  std::string unit = text.substr(used);
  double scale = 1;
  if (unit == "K" || unit == "k" || unit == "KiB") scale = 1 << 10;
  else if (unit == "M" || unit == "m" || unit == "MiB") scale = 1 << 20;
  else if (unit == "G" || unit == "g" || unit == "GiB") scale = double(1 << 30);
  else if (!unit.empty()) return std::nullopt;
  if (value <= 0) return std::nullopt;
  return size_t(value * scale);
}

// Why an output of the run would overwrite one of its inputs, or nullopt: -o DB (and the
// files SQLite keeps beside it) must not be a PGN input, --rejects neither an input nor
// the database. Compared by device and inode, so links and other names are caught.
std::optional<std::string> find_overwritten_input(const std::string& db, const std::string& rejects,
                                                  const std::vector<std::string>& inputs) {
  io::InputFiles files;
  for (const std::string& input : inputs) files.add(input, "input");
  for (const std::string& file : io::database_files(db))
    if (auto clash = files.clash(file == "-" ? "./-" : file)) return "-o " + *clash;
  if (rejects.empty()) return std::nullopt;
  files.add_database(db);
  if (auto clash = files.clash(rejects == "-" ? "./-" : rejects)) return "--rejects " + *clash;
  return std::nullopt;
}

// False, after one line on stderr, when what was printed could not be written (a full
// disk, /dev/full): the summary is the run's answer, so losing it is a failure.
bool flush_stdout() {
  if (std::fflush(stdout) == 0 && !std::ferror(stdout)) return true;
  std::fprintf(stderr, "pgn-index: cannot write to standard output: %s\n", std::strerror(errno));
  return false;
}

// The explorer's stored answers for common positions follow the games just imported.
// Returns the CPU seconds it took.
// since: the summaries as they were before the imports (updated, not rebuilt, when only
// games were added). threads: read connections exploring a level's positions together.
double rebuild_explorer_summaries(store::Database& db, bool quiet, const search::SummaryBase* since = nullptr,
                                  unsigned threads = 1) {
  const auto start = std::chrono::steady_clock::now();
  const double cpu_start = this_thread_cpu_seconds();
  store::Transaction transaction(db);
  const search::SummaryBuildStats stats = search::build_explorer_summaries(db, search::kSummaryMinGames, since, threads);
  transaction.commit();
  if (!quiet && stats.positions > 0)  // small databases have none: their output stays as it was
    std::printf("explorer summaries: %llu positions (%.1f KB) in %.2f s\n", (unsigned long long)stats.positions,
                double(stats.bytes) / 1024,
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  return this_thread_cpu_seconds() - cpu_start;
}

// --remove: deletes the named sources in one transaction and says what went. Naming a
// source that is not there changes nothing.
int remove_sources(const std::string& db_path, const std::vector<std::string>& names) {
  std::error_code ignored;
  if (!fs::exists(db_path, ignored)) {
    std::fprintf(stderr, "pgn-index: %s: no such database\n", db_path.c_str());
    return 1;
  }
  try {
    // A file that is not a pgnbase database is left as it was (opening it to write would
    // make an empty file an SQLite database).
    {
      store::Database existing(db_path, store::Database::Mode::ReadOnly);
      if (!existing.has_table("meta") || !store::check_schema_version(existing, db_path)) {
        std::fprintf(stderr, "pgn-index: %s is not a pgnbase database; nothing removed\n", db_path.c_str());
        return 1;
      }
    }
    DatabaseWriter writer(db_path, WriterOptions{});
    store::Database& db = writer.database();
    store::Transaction transaction(db);
    std::vector<int64_t> ids;
    for (const std::string& name : names) {
      std::vector<int64_t> found = find_sources_named(db, name);
      if (found.empty()) {
        std::fprintf(stderr, "pgn-index: %s: no source '%s' (pgn-query stats lists them); nothing removed\n",
                     db_path.c_str(), name.c_str());
        return 1;
      }
      for (int64_t id : found)
        if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
    }
    std::vector<RemovedSource> removed;
    for (int64_t id : ids) removed.push_back(remove_source(db, id));
    transaction.commit();
    for (const RemovedSource& r : removed) std::printf("removed %s\n", describe(r).c_str());
    rebuild_explorer_summaries(db, /*quiet=*/true);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pgn-index: %s\n", e.what());
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // A file-size limit (ulimit -f) must end in a clear "disk I/O error", not a silent kill.
  std::signal(SIGXFSZ, SIG_IGN);
  std::string output, rejects_path, memory = "96M", piece_letters = "auto", temp_dir, max_game = "64M";
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::string> inputs, removals;
  po::options_description visible(
      "pgn-index -o DB FILE...  (FILE: .pgn, plain or zstd/gzip/bzip2/xz-compressed, a .zip of .pgn files,\n"
      "                          ZIP:MEMBER for one of them, - for stdin, a .parquet file of games\n"
      "                          (lichess's Parquet edition: one row a game, its movetext column the\n"
      "                          moves), or a folder of .parquet files, each one a source)\nOptions");
  visible.add_options()
      ("help,h", "show this help")
      ("version", "print the version")
      ("output,o", po::value(&output), "database file to create or append to")
      ("threads,j", po::value(&threads)->default_value(threads), "worker threads")
      ("rejects", po::value(&rejects_path), "write the original text of every rejected game to this file")
      ("no-annotations", "do not keep comments, NAGs, variations, clocks and evaluations")
      ("keep-duplicates", "import a game even when its start position, moves, White, Black, Date and result "
                          "equal a stored game's, or it is a truncated copy of one (by default it is skipped "
                          "and counted as a duplicate)")
      ("replace", "import the files again even when already in the database, with the options given now: "
                  "the sources of the same path or content are removed in the same transaction (standard "
                  "input and other streams: of the same content only; they are copied to --temp-dir first)")
      ("remove", po::value(&removals), "remove a source (its id or path, as pgn-query stats lists them): its games, "
                                       "positions and rejects, in one transaction (a game another source also "
                                       "held moves to that source); repeatable; no FILE then")
      ("memory", po::value(&memory)->default_value(memory), "memory for sorting position postings (e.g. 256M, 2G)")
      ("max-game-bytes", po::value(&max_game)->default_value(max_game),
       "a game (or text between games) longer than this is rejected unread, its first 64 KiB kept in the "
       "rejects, so that memory stays bounded whatever the input")
      ("temp-dir", po::value(&temp_dir), "where sorted position runs and index sorts spill (default: system temp dir)")
      ("piece-letters", po::value(&piece_letters)->default_value(piece_letters),
       "language of piece letters: auto (detect per game) or en, de, nl, fr, it, es, pt, cs, pl, hu")
      ("quiet,q", "no progress and no summary")
      ("stats", "at the end, the CPU seconds of each thread role (writer, reader, workers, merge) and the "
                "speed the busiest serial thread allows (also with -q; bench/scaling.sh reads it)");
  po::options_description hidden;
  hidden.add_options()("input", po::value(&inputs));
  po::options_description all;
  all.add(visible).add(hidden);
  po::positional_options_description positional;
  positional.add("input", -1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc, argv).options(all).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pgn-index: %s (see --help)\n", e.what());
    return 2;
  }
  if (vm.count("help")) {
    std::cout << visible
              << "\nA FILE that is a pgnbase database is merged: its sources (with their paths), games, annotations\n"
                 "and rejects are added as if its PGN files were imported, duplicates skipped as for PGN.\n"
              << "\nExit status: 0 when every input was read (rejected games included); 1 when an input failed\n"
                 "(the others are still imported) or the database did; 2 for a bad command line.\n";
    return 0;
  }
  if (vm.count("version")) {
    std::cout << "pgn-index " PGNBASE_VERSION "\n";
    return 0;
  }
  if (!removals.empty()) {
    if (output.empty() || !inputs.empty()) {
      std::fprintf(stderr, "pgn-index: --remove needs -o DB and no input file (see --help)\n");
      return 2;
    }
    const int status = remove_sources(output, removals);
    return flush_stdout() ? status : 1;
  }
  if (output.empty() || inputs.empty()) {
    std::fprintf(stderr, "pgn-index: need -o DB and at least one input file (see --help)\n");
    return 2;
  }
  ImportOptions options;
  options.threads = std::max(1u, threads);
  options.build.keep_annotations = !vm.count("no-annotations");
  options.dedupe = !vm.count("keep-duplicates");
  options.replace = vm.count("replace") > 0;
  if (piece_letters != "auto") {
    options.build.letters = find_piece_letters(piece_letters);
    if (!options.build.letters) {
      std::fprintf(stderr, "pgn-index: unknown --piece-letters '%s'\n", piece_letters.c_str());
      return 2;
    }
  }
  WriterOptions writer_options;
  std::optional<size_t> memory_bytes = parse_size(memory);
  if (!memory_bytes) {
    std::fprintf(stderr, "pgn-index: bad --memory '%s' (e.g. 512M)\n", memory.c_str());
    return 2;
  }
  writer_options.position_memory_bytes = *memory_bytes;
  std::optional<size_t> max_game_bytes = parse_size(max_game);
  if (!max_game_bytes || *max_game_bytes < (size_t{1} << 20)) {
    std::fprintf(stderr, "pgn-index: bad --max-game-bytes '%s' (at least 1M, e.g. 64M)\n", max_game.c_str());
    return 2;
  }
  options.max_game_bytes = *max_game_bytes;
  options.chunk_bytes = std::min(options.chunk_bytes, *max_game_bytes);
  writer_options.threads = std::max(1u, threads);
  writer_options.temp_dir = temp_dir;
  // The members of a zip commit together, a second's worth at a time (database_writer.h).
  writer_options.commit_after_seconds = 1.0;
  if (!temp_dir.empty()) options.temp_dir = temp_dir;
  // SQLite's sorts (the games indexes of a first import) write their runs there too; it
  // reads the variable when it makes its first temporary file.
  if (!temp_dir.empty()) setenv("SQLITE_TMPDIR", temp_dir.c_str(), 1);
  const bool quiet = vm.count("quiet") > 0;
  const bool show_progress = !quiet && isatty(STDERR_FILENO);
  if (isatty(STDERR_FILENO))
    writer_options.on_lock_wait = [&output] {
      std::fprintf(stderr, "pgn-index: waiting for another import into %s to finish\n", output.c_str());
    };

  if (auto refusal = find_overwritten_input(output, rejects_path, inputs)) {
    std::fprintf(stderr, "pgn-index: %s; refusing to overwrite it\n", refusal->c_str());
    return 2;
  }
  const auto started = std::chrono::steady_clock::now();
  const double main_cpu_start = this_thread_cpu_seconds();
  double summaries_cpu = 0;
  double publish_wall = 0;  // closing and syncing a new database (FreshBuild::publish)
  store::BulkIndexReport games_indexes;  // those of a new database, built before its publish
  ImportTotals totals;
  bool fatal = false;
  std::unique_ptr<RejectsFile> rejects;
  try {
    if (!rejects_path.empty()) {
      rejects = std::make_unique<RejectsFile>(rejects_path);
      options.rejects_out = &rejects->stream();
    }
    // A new database is built under a private name until it holds a committed file
    // (indexer/fresh_build.h); an existing one is appended to through the WAL.
    std::optional<FreshBuild> fresh = FreshBuild::start(output, writer_options.on_lock_wait);
    WriterOptions build_options = writer_options;
    if (fresh) {
      build_options.journal = store::Database::Journal::Private;
      build_options.games_indexes_at_publish = build_options.threads >= store::kFewestThreadsForBulkIndexes;
    }
    std::optional<DatabaseWriter> writer;
    writer.emplace(fresh ? fresh->build_path() : output, build_options);
    auto publish = [&] {
      const auto closing = std::chrono::steady_clock::now();
      writer.reset();
      // The games indexes the writer left (WriterOptions::games_indexes_at_publish); none
      // when it built them.
      const store::BulkIndexReport built =
          store::add_indexes_in_bulk(fresh->build_path(), store::kGamesIndexesSql, options.threads);
      games_indexes.wall_seconds += built.wall_seconds;
      games_indexes.built_beside += built.built_beside;
      games_indexes.built_by_sqlite += built.built_by_sqlite;
      games_indexes.serial_seconds += built.serial_seconds;
      fresh->publish();
      publish_wall +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - closing).count() - built.wall_seconds;
      fresh.reset();
      writer.emplace(output, writer_options);
    };
    report_stale_run_files(temp_dir.empty() ? fs::temp_directory_path() : fs::path(temp_dir), quiet);
    // The explorer summaries as they are, to update with the new games (an append of a few
    // games to millions need not count the millions again).
    const search::SummaryBase summaries_before = search::summary_base(writer->database());
    // A bad input (missing, not PGN, corrupt) is reported and skipped; the database
    // failing ends the run.
    for (const std::string& input : inputs) {
      // After each input its files are committed, and a new database goes public (unless
      // it is the last input: then after the explorer summaries, below).
      auto end_input = [&] {
        writer->commit_sources();
        if (fresh && totals.imported_files() > 0 && &input != &inputs.back()) publish();
      };
      if (is_sqlite_file(input)) {  // a pgnbase database: merged, not read as PGN
        merge_input(input, *writer, options, totals, quiet, rejects.get());
        end_input();
        continue;
      }
      std::optional<SourceList> sources;
      try {
        sources.emplace(input);
      } catch (const InputError& e) {
        std::fflush(stdout);
        std::fprintf(stderr, "pgn-index: %s\n", e.what());  // the message names the input
        totals.add_failure();
        continue;
      }
      for (size_t index = 0; index < sources->paths().size(); ++index) {
        const std::string& source = sources->paths()[index];
        const std::string name = source == "-" ? "<stdin>" : source;
        auto progress = [&](const ImportProgress& p) { print_progress(name, p); };
        if (rejects) rejects->begin_input();
        ImportOutcome outcome;
        try {
          outcome = show_progress ? import_file(*sources, index, *writer, options, progress)
                                  : import_file(*sources, index, *writer, options);
        } catch (const InputError& e) {
          if (show_progress) std::fprintf(stderr, "\r\033[K");
          std::fflush(stdout);
          std::fprintf(stderr, "pgn-index: %s\n", e.what());
          totals.add_failure();
          continue;
        }
        if (show_progress) std::fprintf(stderr, "\r\033[K");
        if (rejects && !outcome.already_imported) rejects->keep_input();
        totals.add(outcome);
        if (!quiet)
          for (const RemovedSource& removed : outcome.replaced) std::printf("replaced %s\n", describe(removed).c_str());
        if (!quiet) print_summary(name, outcome);
        if (!quiet) print_duplicates(outcome.summary);
        if (!quiet) print_truncated_copies(outcome.summary.truncated);
        // Once a file is committed, a kill must not take it away: the build goes public.
        if (fresh && totals.imported_files() > 0 && writer->all_committed()) publish();
      }
      end_input();
    }
    if (totals.imported_files() > 0)
      summaries_cpu = rebuild_explorer_summaries(writer->database(), quiet, &summaries_before, options.threads);
    if (fresh && totals.imported_files() > 0) publish();
    writer.reset();  // an unpublished build (nothing imported) goes when fresh does
  } catch (const std::exception& e) {
    if (show_progress) std::fprintf(stderr, "\n");
    std::fflush(stdout);
    std::fprintf(stderr, "pgn-index: %s\n", dynamic_cast<const std::bad_alloc*>(&e) ? "out of memory" : e.what());
    fatal = true;
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (!quiet && inputs.size() > 1 && !fatal) totals.print(wall);
  if (vm.count("stats"))
    print_thread_cpu(ThreadCpuReport{.wall_seconds = wall,
                                     .games = totals.games_found(),
                                     .writer_seconds = this_thread_cpu_seconds() - main_cpu_start,
                                     .summaries_seconds = summaries_cpu,
                                     .publish_wall_seconds = publish_wall,
                                     .games_indexes = games_indexes,
                                     .steps = totals.writer_steps(),
                                     .totals = thread_cpu_totals(),
                                     .process_seconds = process_cpu_seconds()});
  if (rejects && totals.imported_files() > 0) {
    try {
      rejects->commit();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "pgn-index: %s\n", e.what());
      return 1;
    }
  }
  if (!flush_stdout()) return 1;
  return fatal || totals.failed_files() > 0 ? 1 : 0;
}
