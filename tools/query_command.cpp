#include "tools/query_command.h"

#include <cstdio>
#include <iostream>

#include "io/file_identity.h"
#include "query/database_report.h"
#include "store/schema_version.h"

namespace pgnbase::tools {

QueryContext::QueryContext(const QueryCommand& command, int argc, char** argv)
    : command_(command), argc_(argc), argv_(argv) {}

QueryContext::~QueryContext() {
  output_.reset();
  snapshot_.reset();
  db_.reset();
  if (!started_) return;
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - *started_).count();
  std::fprintf(stderr, "pgn-query: %.2f ms\n", ms);
}

bool QueryContext::parse(const po::options_description& options) {
  po::options_description hidden;
  hidden.add_options()("db", po::value(&first_))("timing", "print the time taken to stderr");
  if (command_.operand && std::string_view(command_.operand) == "id")
    hidden.add_options()("id", po::value<int64_t>());
  else if (command_.operand)
    hidden.add_options()(command_.operand, po::value<std::string>());
  po::options_description all;
  all.add(options).add(hidden);
  po::positional_options_description positional;
  positional.add("db", 1);
  if (command_.operand) positional.add(command_.operand, 1);
  try {
    po::store(po::command_line_parser(argc_ - 1, argv_ + 1).options(all).positional(positional).run(), vm_);
    po::notify(vm_);
  } catch (const po::error& e) {
    throw UsageError{e.what()};
  }
  if (vm_.count("help")) {
    std::cout << command_.usage << "\n" << options;
    return false;
  }
  if (first_.empty()) throw UsageError{std::string("missing ") + command_.first};
  return true;
}

store::Database& QueryContext::open(const std::string& output, const std::vector<std::string>& also_written) {
  io::InputFiles inputs;
  inputs.add_database(first_);
  std::vector<std::string> outputs = {output, "-"};
  outputs.insert(outputs.end(), also_written.begin(), also_written.end());
  for (const std::string& path : outputs)
    if (auto clash = inputs.clash(path)) throw RefusedOutput{*clash + "; refusing to write into it"};
  output_path_ = output;
  start_clock();
  db_.emplace(store::open_for_reading(first_));
  return *db_;
}

store::Database& QueryContext::snapshot() {
  if (!snapshot_) snapshot_.emplace(*db_);
  return *db_;
}

io::OutputFile& QueryContext::output() {
  if (!output_) output_ = std::make_unique<io::OutputFile>(output_path_);
  return *output_;
}

search::CorruptGameReport QueryContext::corrupt_game_report() const {
  return [command = command_.name](int64_t id, const std::string& reason) {
    std::fprintf(stderr, "pgn-query %s: corrupt game %lld: %s\n", command, (long long)id, reason.c_str());
  };
}

void QueryContext::start_clock() {
  if (vm_.count("timing") && !started_) started_ = std::chrono::steady_clock::now();
}

void QueryContext::close_output() {
  if (!output_ || output_closed_) return;
  output_closed_ = true;
  output_->close();
}

int run_query_command(const QueryCommand& command, int argc, char** argv) {
  try {
    QueryContext ctx(command, argc, argv);
    const int status = command.run(ctx);
    ctx.close_output();
    return status;
  } catch (const RefusedOutput& e) {
    std::fprintf(stderr, "pgn-query %s: %s\n", command.name, e.message.c_str());
    return kExitUsage;
  } catch (const UsageError& e) {
    std::fprintf(stderr, "pgn-query %s: %s (see pgn-query %s --help)\n", command.name, e.message.c_str(),
                 command.name);
    return kExitUsage;
  } catch (const CommandFailure& e) {
    std::fprintf(stderr, "pgn-query %s: %s\n", command.name, e.message.c_str());
    return kExitFailure;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pgn-query %s: %s\n", command.name, e.what());
    return kExitFailure;
  }
}

void ReportFormatOptions::add(po::options_description& d) {
  d.add_options()
      ("format", po::value(&format)->default_value("table"), "table, json or csv")
      ("json", "the same as --format json")
      ("wide", "table: show every column in full")
      ("output,o", po::value(&output), "write here instead of stdout");
}

query::OutputFormat report_format(const QueryContext& ctx, const std::string& format) {
  using query::OutputFormat;
  static constexpr query::FormatName kOffered[] = {
      {"table", OutputFormat::Table}, {"json", OutputFormat::Json}, {"csv", OutputFormat::Csv}};
  OutputFormat f = parsed_or_usage_error(query::parse_format(format, kOffered));
  if (ctx.given("json")) {
    if (!ctx.vm()["format"].defaulted() && f != OutputFormat::Json)
      throw UsageError{"--json contradicts --format " + format};
    f = OutputFormat::Json;
  }
  if (ctx.given("wide") && f != OutputFormat::Table) throw UsageError{"--wide applies to the table"};
  return f;
}

}  // namespace pgnbase::tools
