// Removing an imported source (pgn-index --remove, --replace): its games, their
// annotations, its rejects, its position-index segment and its sources row. Names stay
// (a name no game uses matches nothing). Runs in the caller's transaction, so a removal
// and the import that replaces it commit together or not at all.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "indexer/store/database.h"

namespace pgnbase::indexer {

struct RemovedSource {
  int64_t id = 0;
  std::string path;
  uint64_t games = 0, rejects = 0, postings = 0;
};

// The ids of the sources a user names: a source id ("3"), or a path as `pgn-query stats`
// lists it (every source imported from that path).
std::vector<int64_t> find_sources_named(store::Database& db, std::string_view id_or_path);

// Deletes everything of one source; the caller holds a transaction.
RemovedSource remove_source(store::Database& db, int64_t source_id);

// "source 3 (games.pgn): 120 games, 2 rejects, 9870 positions removed"
std::string describe(const RemovedSource& removed);

}  // namespace pgnbase::indexer
