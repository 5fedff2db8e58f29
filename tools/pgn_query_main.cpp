// pgn-query: searches, explores and exports a pgnbase database (read-only).
#include <csignal>
#include <cerrno>
#include <cstdio>
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>

#include <unistd.h>

#include "tools/query_commands.h"

using namespace pgnbase::tools;
namespace fs = std::filesystem;

namespace {

// Every command, in the order `pgn-query --help` lists them.
constexpr QueryCommand kCommands[] = {
    {"search", "games matching filters, as a table, JSON lines or PGN",
     "pgn-query search DB [filters] [options]", kDatabase, nullptr, run_search},
    {"export", "matching games as PGN (-o FILE, - for stdout)",
     "pgn-query export DB [filters] -o FILE", kDatabase, nullptr, run_export},
    {"explore", "the opening explorer: next moves from a position with results",
     "pgn-query explore DB [--fen FEN] [filters]", kDatabase, nullptr, run_explore},
    {"show", "one game (by the id search lists), or the position at one of its plies",
     "pgn-query show DB ID [--ply N] [--format text|pgn|jsonl] [--notation N]", kDatabase, "id", run_show},
    {"player", "one player's report: results by colour, year, opening, opponent; ratings; wins",
     "pgn-query player DB NAME [--top N] [--format table|json|csv]\n"
     "NAME is matched as --player matches it (search --help)", kDatabase, "name", run_player},
    {"players", "player names with game counts and date spans (events: the same for events)",
     "pgn-query players DB [--like PATTERN] [--min-games N] [--limit N]", kDatabase, nullptr, run_players},
    {"events", nullptr,
     "pgn-query events DB [--like PATTERN] [--min-games N] [--limit N]", kDatabase, nullptr, run_events},
    {"event", "an event's standings and crosstable (points, games, performance)",
     "pgn-query event DB NAME [--format table|csv]   (NAME as --event matches it; =NAME exactly)", kDatabase, "name",
     run_event},
    {"book", "a Polyglot opening book from the games (weights: 2 a win, 1 a draw)",
     "pgn-query book DB -o book.bin [filters] [--max-ply N] [--min-games N]", kDatabase, nullptr, run_book},
    {"stats", "what the database holds and how big each part is",
     "pgn-query stats DB [--format table|json|csv] [--wide]", kDatabase, nullptr, run_stats},
    {"rejects", "games the import rejected, and their original text",
     "pgn-query rejects DB [--kind K] [--reason R] [-o FILE]", kDatabase, nullptr, run_rejects},
    {"serve", kServeSummary, kServeUsage, kDatabase, nullptr, nullptr},  // pgn-query-serve runs it
    {"export-dataset", "DB DIR: the games, positions and explorer as a Parquet dataset (appends)",
     "pgn-query export-dataset DB DIR [--bucket-bits N]", kDatabase, "dir", run_export_dataset},
    {"key", "FEN: the position's Polyglot key in hex, and as the dataset's signed key column",
     "pgn-query key FEN", "the FEN", nullptr, run_key},
};

// The overview: one line per command, the summaries aligned after the names.
void print_overview(std::FILE* to) {
  std::fputs("pgn-query COMMAND DB [options]   (pgn-query COMMAND --help for each)\n", to);
  for (const QueryCommand& command : kCommands) {
    if (!command.summary) continue;
    const int width = std::max(int(std::strlen(command.name)) + 2, 9);
    std::fprintf(to, "  %-*s%s\n", width, command.name, command.summary);
  }
}

const QueryCommand* find_command(std::string_view name) {
  for (const QueryCommand& command : kCommands)
    if (command.name == name) return &command;
  return nullptr;
}

// A command of another program (serve: pgn-query-serve, which alone loads the HTTP
// library): runs that program, from this one's folder, in this process's place with the
// same arguments. Returns only when it cannot.
int run_program_beside(const char* program, char** argv) {
  std::error_code error;
  const fs::path self = fs::read_symlink("/proc/self/exe", error);
  const fs::path path = (error ? fs::path(argv[0]).parent_path() : self.parent_path()) / program;
  std::fflush(nullptr);
  execv(path.c_str(), argv);
  std::fprintf(stderr, "pgn-query %s: cannot run %s: %s\n", argv[1], path.c_str(), std::strerror(errno));
  return kExitFailure;
}

}  // namespace

int main(int argc, char** argv) {
  // A file-size limit (ulimit -f) must end in a clear error, not a silent kill.
  std::signal(SIGXFSZ, SIG_IGN);
  if (argc < 2) {
    print_overview(stderr);
    return kExitUsage;
  }
  const std::string name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    print_overview(stdout);
    return kExitOk;
  }
  if (name == "--version") {
    std::puts("pgn-query " PGNBASE_VERSION);
    return kExitOk;
  }
  const QueryCommand* command = find_command(name);
  if (!command) {
    std::fprintf(stderr, "pgn-query: unknown command '%s'\n", name.c_str());
    print_overview(stderr);
    return kExitUsage;
  }
  if (!command->run) return run_program_beside("pgn-query-serve", argv);
  const int status = run_query_command(*command, argc, argv);
  // What went to standard output is the command's answer: losing it (a full disk,
  // /dev/full) is a failure, said in one line (once: a command that failed said why).
  if (status == kExitOk && (std::fflush(stdout) != 0 || std::ferror(stdout))) {
    std::fprintf(stderr, "pgn-query %s: cannot write to standard output: %s\n", name.c_str(), std::strerror(errno));
    return kExitFailure;
  }
  return status;
}
