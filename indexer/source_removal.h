// Removing an imported source (pgn-index --remove, --replace): its games, their
// annotations, material and facets, its rejects, its position-index segments and its
// sources row. A game that another source also held (it was skipped there as a duplicate
// or truncated copy: table game_copies) is not removed but moves to that source, with the
// same id; its positions are indexed again in a segment of its new owner. Every removed
// or moved game is logged in game_changes, content_version is bumped, and the database's
// identity is pinned (store/database_identity.h) before the first source can go. Names
// stay (a name no game uses matches nothing). Runs in the caller's transaction, so a
// removal and the import that replaces it commit together or not at all.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "store/database.h"

namespace pgnbase::indexer {

struct RemovedSource {
  int64_t id = 0;
  std::string path;
  uint64_t games = 0, rejects = 0, postings = 0;  // removed
  uint64_t games_moved = 0;  // kept: another source holds them, which they moved to
  uint64_t copies = 0;       // games of other sources that this one held as a copy
};

// The ids of the sources a user names: a source id ("3"), or a path as `pgn-query stats`
// lists it (every source imported from that path), or the same file by another path:
// absolute where it was imported by a relative one, or relative to the current folder.
std::vector<int64_t> find_sources_named(store::Database& db, std::string_view id_or_path);

// Deletes everything of one source; the caller holds a transaction.
RemovedSource remove_source(store::Database& db, int64_t source_id);

// "source 3 (games.pgn): 120 games, 2 rejects, 9870 positions removed"
std::string describe(const RemovedSource& removed);

}  // namespace pgnbase::indexer
