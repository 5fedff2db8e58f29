// `pgn-query stats` and `pgn-query rejects`: what a database holds, and the games it
// could not import.
#pragma once

#include <cstdint>
#include <string>

#include "store/database.h"
#include "io/output_file.h"
#include "query/output_format.h"

namespace pgnbase::query {


// Games, players, date range, sources, rejects by kind, the position index segments,
// and the bytes each table and index takes (dbstat when SQLite has it, else the file's
// page counts). Table: text and tables; JSON: one object; CSV: section,item,value lines.
struct StatsOptions {
  OutputFormat format = OutputFormat::Table;  // Table, Json or Csv
  bool wide = false;  // cut no table cell
};
void print_stats(store::Database& db, const StatsOptions& options, io::OutputFile& out);

struct RejectsOptions {
  std::string kind;    // exact kind ("illegal move"); empty = any
  std::string reason;  // reason pattern, '*' wildcards, case-insensitive; empty = any
  // When set, the rejected games' original text goes there ("-": stdout): byte for byte
  // into a file or a pipe, with control characters escaped (printable()) on a terminal.
  std::string text_path;
  OutputFormat format = OutputFormat::Table;  // Table or Json (lines)
  bool wide = false;  // cut no table cell
  bool list = true;   // false: only the text goes out (-o FILE), no table or JSON lines
};

// Lists rejected games (source, game number, line, kind, reason) to out; returns how many.
int64_t print_rejects(store::Database& db, const RejectsOptions& options, io::OutputFile& out);

}  // namespace pgnbase::query
