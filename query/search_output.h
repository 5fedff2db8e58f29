// `pgn-query search` and `export`: runs a GameSearch and writes its games as an
// aligned table, CSV, JSON Lines or PGN.
#pragma once

#include <cstdint>
#include <functional>

#include "store/database.h"
#include "search/game_check.h"
#include "search/game_search.h"
#include "io/output_file.h"
#include "query/output_format.h"
#include "query/pgn_writer.h"

namespace pgnbase::query {

struct SearchOutputOptions {
  OutputFormat format = OutputFormat::Table;  // Table, Csv, Json (lines) or Pgn
  PgnWriteOptions pgn;
  bool count_only = false;  // print the number of matching games only
  bool wide = false;        // table: cut no cell
  // A table cut by --limit or --offset ends with how many games match only where counting
  // them examines at most this many games (search::GameSearch::count_all_examining_at_most).
  uint64_t total_line_max_games = search::kCheapCountGames;
  // Threads formatting PGN or JSON lines (0: one per core, at most 8). The reading
  // thread hands them batches of games and writes their text in order, so the output
  // is the same for any count.
  unsigned threads = 0;
  // Each game skipped as corrupt, once, with its reason (on the calling thread).
  search::CorruptGameReport on_corrupt;
  // For tests: the formatted bytes of each batch as it is written (threads > 1), to check
  // that batches are bounded in bytes as well as games.
  std::function<void(size_t games, size_t bytes)> on_batch_written;
};

struct SearchSummary {
  int64_t games = 0;    // games written (or counted)
  int64_t corrupt = 0;  // games skipped because their stored data did not decode or replay
  search::PatternSearchStats pattern;  // a pattern search's games scanned and replayed
};

SearchSummary run_search(store::Database& db, const search::SearchOptions& search, const SearchOutputOptions& output,
                         io::OutputFile& out);

}  // namespace pgnbase::query
