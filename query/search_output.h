// `pgn-query search` and `export`: runs a GameSearch and writes its games as an
// aligned table, JSON Lines or PGN.
#pragma once

#include <cstdint>

#include "indexer/store/database.h"
#include "query/game_search.h"
#include "query/output_file.h"
#include "query/pgn_writer.h"

namespace pgnbase::query {

enum class SearchFormat : uint8_t { Table, Jsonl, Pgn };

struct SearchOutputOptions {
  SearchFormat format = SearchFormat::Table;
  PgnWriteOptions pgn;
  bool count_only = false;  // print the number of matching games only
  // Threads formatting PGN or JSON lines (0: one per core, at most 8). The reading
  // thread hands them batches of games and writes their text in order, so the output
  // is the same for any count.
  unsigned threads = 0;
};

struct SearchSummary {
  int64_t games = 0;    // games written (or counted)
  int64_t corrupt = 0;  // rows skipped because their blobs did not decode
  PatternSearchStats pattern;  // a pattern search's games scanned and replayed
};

SearchSummary run_search(store::Database& db, const SearchOptions& search, const SearchOutputOptions& output,
                         OutputFile& out);

}  // namespace pgnbase::query
