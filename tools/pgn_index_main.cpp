// pgn-index: imports PGN archives (.pgn, .pgn.zst/.gz/.bz2/.xz, .zip, stdin) into a pgnbase SQLite database.
#include <unistd.h>

#include <boost/program_options.hpp>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <thread>

#include "core/notation.h"
#include "indexer/import_pipeline.h"
#include "indexer/input_source.h"
#include "indexer/store/database.h"

namespace po = boost::program_options;
using namespace pgnbase;
using namespace pgnbase::indexer;

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

}  // namespace

int main(int argc, char** argv) {
  // A file-size limit (ulimit -f) must end in a clear "disk I/O error", not a silent kill.
  std::signal(SIGXFSZ, SIG_IGN);
  std::string output, rejects_path, memory = "128M", piece_letters = "auto", temp_dir;
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::string> inputs;
  po::options_description visible(
      "pgn-index -o DB FILE...  (FILE: .pgn, plain or zstd/gzip/bzip2/xz-compressed, a .zip of .pgn files,\n"
      "                          ZIP:MEMBER for one of them, or - for stdin)\nOptions");
  visible.add_options()
      ("help,h", "show this help")
      ("version", "print the version")
      ("output,o", po::value(&output), "database file to create or append to")
      ("threads,j", po::value(&threads)->default_value(threads), "worker threads")
      ("rejects", po::value(&rejects_path), "write the original text of every rejected game to this file")
      ("no-annotations", "do not keep comments, NAGs and variations")
      ("dedupe", "skip a game whose start position, moves, White, Black, Date and result equal a stored game's")
      ("memory", po::value(&memory)->default_value(memory), "memory for sorting position postings (e.g. 256M, 2G)")
      ("temp-dir", po::value(&temp_dir), "where sorted position runs spill (default: system temp dir)")
      ("piece-letters", po::value(&piece_letters)->default_value(piece_letters),
       "language of piece letters: auto (detect per game) or en, de, nl, fr, it, es, pt, cs, pl, hu")
      ("quiet,q", "no progress and no summary");
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
    std::cout << visible << "\nExit status: 0 when every input was read (rejected games included), 1 on a fatal error.\n";
    return 0;
  }
  if (vm.count("version")) {
    std::cout << "pgn-index " PGNBASE_VERSION "\n";
    return 0;
  }
  if (output.empty() || inputs.empty()) {
    std::fprintf(stderr, "pgn-index: need -o DB and at least one input file (see --help)\n");
    return 2;
  }
  ImportOptions options;
  options.threads = std::max(1u, threads);
  options.build.keep_annotations = !vm.count("no-annotations");
  options.dedupe = vm.count("dedupe") > 0;
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
  writer_options.threads = std::max(1u, threads);
  writer_options.temp_dir = temp_dir;
  const bool quiet = vm.count("quiet") > 0;
  const bool show_progress = !quiet && isatty(STDERR_FILENO);

  // Every input is opened and checked before anything is written, so a missing or
  // non-PGN file stops the run with no database (or rejects file) created.
  std::vector<std::string> sources;
  try {
    for (const std::string& input : inputs) {
      std::vector<std::string> listed = list_sources(input);
      sources.insert(sources.end(), listed.begin(), listed.end());
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pgn-index: %s\n", e.what());
    return 1;
  }

  std::ofstream rejects_file;
  if (!rejects_path.empty()) {
    rejects_file.open(rejects_path, std::ios::binary | std::ios::trunc);
    if (!rejects_file) {
      std::fprintf(stderr, "pgn-index: cannot write rejects file %s\n", rejects_path.c_str());
      return 1;
    }
    options.rejects_out = &rejects_file;
  }
  try {
    DatabaseWriter writer(output, writer_options);
    for (const std::string& source : sources) {
      std::string name = source == "-" ? "<stdin>" : source;
      auto progress = [&](const ImportProgress& p) { print_progress(name, p); };
      ImportOutcome outcome = show_progress ? import_file(source, writer, options, progress)
                                            : import_file(source, writer, options);
      if (show_progress) std::fprintf(stderr, "\r\033[K");
      if (quiet) continue;
      if (outcome.already_imported)
        std::printf("%s: already in the database (source %lld), nothing to do\n", name.c_str(),
                    (long long)outcome.existing_source_id);
      else
        print_summary(name, outcome);
    }
  } catch (const std::exception& e) {
    if (show_progress) std::fprintf(stderr, "\n");
    std::fprintf(stderr, "pgn-index: %s\n", e.what());
    return 1;
  }
  if (rejects_file.is_open() && !rejects_file.flush()) {
    std::fprintf(stderr, "pgn-index: writing %s failed\n", rejects_path.c_str());
    return 1;
  }
  return 0;
}
