// pgn-index's part of merging a pgnbase database given as an input
// (indexer/database_merge.h): running it and saying what it did, as for a PGN input.
#pragma once

#include <string>

#include "indexer/database_writer.h"
#include "indexer/import_pipeline.h"
#include "tools/import_report.h"
#include "tools/rejects_file.h"

namespace pgnbase::tools {

// Merges the database at `input` into writer's and prints, unless quiet, one summary per
// source (named "PATH (from INPUT)"), the first corrupt games and a total line; adds the
// sources to totals. A database that cannot be merged (not pgnbase's, unreadable) is one
// line on stderr and a failed input; the sources merged before the failure stay.
// rejects (--rejects, or null) gets the text of the merged sources' rejects.
void merge_input(const std::string& input, indexer::DatabaseWriter& writer, const indexer::ImportOptions& options,
                 ImportTotals& totals, bool quiet, RejectsFile* rejects);

}  // namespace pgnbase::tools
