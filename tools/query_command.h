// pgn-query's commands as rows of one table, and the context every command runs in.
//
// A row names a command, its help and its run function. The run function declares the
// command's own options; the context adds the common ones (DB, the operand after it,
// --timing), parses them, and does once, for every command, what each used to do on
// its own: refuse an output that is the database, start the stopwatch, open the
// database read-only, hold a read snapshot, open the output, close it, print the time.
#pragma once

#include <boost/program_options.hpp>

#include <chrono>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "io/output_file.h"
#include "search/game_check.h"
#include "query/output_format.h"
#include "store/database.h"
#include "store/read_snapshot.h"

namespace pgnbase::tools {

namespace po = boost::program_options;

constexpr int kExitOk = 0, kExitFailure = 1, kExitUsage = 2;

// A bad option value: "pgn-query CMD: MESSAGE (see pgn-query CMD --help)", exit status 2.
struct UsageError {
  std::string message;
};

// An output that would overwrite the database: one line, exit status 2, nothing written.
struct RefusedOutput {
  std::string message;
};

// The command cannot answer (no such game, no such player): "pgn-query CMD: MESSAGE",
// exit status 1, and its output file is left as it was.
struct CommandFailure {
  std::string message;
};

class QueryContext;

struct QueryCommand {
  const char* name;
  const char* summary;  // its line in `pgn-query --help`; nullptr: named in another's line
  const char* usage;    // the first lines of `pgn-query NAME --help`
  const char* first;    // what the first positional argument is, for "missing ...": "the database path"
  const char* operand;  // the positional argument after the first ("id", "name", "dir"), or nullptr
  int (*run)(QueryContext&);
};

// Everything a command's run function needs beyond its own options. Lives for one
// command; what it opened is closed in reverse order when it ends: the output, the
// snapshot, the database, and then the --timing line goes out.
class QueryContext {
 public:
  QueryContext(const QueryCommand& command, int argc, char** argv);
  ~QueryContext();
  QueryContext(const QueryContext&) = delete;
  QueryContext& operator=(const QueryContext&) = delete;

  // Parses argv[2..] against the command's options and the common ones; false when
  // --help was shown (the command then returns kExitOk). Throws UsageError.
  bool parse(const po::options_description& options);

  const char* name() const { return command_.name; }
  const po::variables_map& vm() const { return vm_; }
  bool given(const char* option) const { return vm_.count(option) > 0; }
  // The first positional argument: the database path (the FEN for key).
  const std::string& first() const { return first_; }

  // Throws RefusedOutput when OUTPUT, stdout or one of ALSO_WRITTEN is the database or
  // its WAL, starts the stopwatch, and opens the database read-only. Call once, after
  // every option has been checked.
  store::Database& open(const std::string& output = "-", const std::vector<std::string>& also_written = {});
  // The open database, inside one read snapshot until the command ends: for the
  // commands whose library call does not take its own.
  store::Database& snapshot();
  // The OUTPUT given to open(), opened at the first call. When the run function returns
  // it is closed (an error thrown instead leaves the file as it was).
  io::OutputFile& output();
  // Closes output() now (throws on failure), for a command with more to say after it;
  // otherwise run_query_command closes it when the run function returns.
  void close_output();
  // Prints `pgn-query CMD: corrupt game ID: REASON` for each game a command skips (a
  // database may come from anyone); the command goes on and exits 1 at the end.
  search::CorruptGameReport corrupt_game_report() const;
  // --timing for a command that opens no database: from now to the end.
  void start_clock();

 private:
  const QueryCommand& command_;
  int argc_;
  char** argv_;
  po::variables_map vm_;
  std::string first_;
  std::optional<std::chrono::steady_clock::time_point> started_;  // --timing, once started
  std::optional<store::Database> db_;
  std::optional<store::ReadSnapshot> snapshot_;
  std::string output_path_ = "-";
  std::unique_ptr<io::OutputFile> output_;
  bool output_closed_ = false;
};

// Runs C, a struct with `void options(po::options_description&)` that binds the
// command's options to its members and `int run(QueryContext&)`; ARGS construct it.
template <class C, class... Args>
int run_as(QueryContext& ctx, Args... args) {
  C command(args...);
  po::options_description options(std::string(ctx.name()) + " options");
  options.add_options()("help,h", "show this help");
  command.options(options);
  if (!ctx.parse(options)) return kExitOk;
  return command.run(ctx);
}

// Runs one command; its exit status. Every error becomes one line on stderr.
int run_query_command(const QueryCommand& command, int argc, char** argv);

// Throws UsageError with the message of a failed parse; the value otherwise.
template <class T>
T parsed_or_usage_error(Parsed<T> parsed) {
  if (!parsed) throw UsageError{parsed.error()};
  return std::move(parsed).value();
}

// --format table|json|csv, --json, --wide and -o of the report commands.
struct ReportFormatOptions {
  std::string format = "table", output = "-";
  void add(po::options_description& d);
};
// The format asked for with --format and --json (--json too: a table, json or csv
// command), checking --wide against it.
query::OutputFormat report_format(const QueryContext& ctx, const std::string& format);

}  // namespace pgnbase::tools
