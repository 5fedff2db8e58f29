// The explorer's answer as a table for people and as JSON (CSV: explorer_csv.h).
#pragma once

#include "search/explorer.h"
#include "io/output_file.h"

namespace pgnbase::query {

void print_explorer_table(const search::ExplorerResult& result, io::OutputFile& out);
void print_explorer_json(const search::ExplorerResult& result, io::OutputFile& out);

}  // namespace pgnbase::query
