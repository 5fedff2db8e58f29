// One games row of another pgnbase database, read for a merge (database_merge.h) and
// turned back into the GameRecord that the import of its PGN made, without its text:
// read_stored_game copies the row's columns and blobs (on the reading thread), and
// check_stored_game verifies them as untrusted input and fills in what the writer needs
// (on a worker).
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>

#include "indexer/game_record.h"
#include "store/database.h"

namespace pgnbase::indexer {

// Name and opening texts of the database read, by id.
using TextById = std::unordered_map<int64_t, std::string>;

struct StoredGame {
  int64_t other_id = 0;  // the game's id in the database read
  // The record as the writer takes it. read_stored_game fills place, header, eco, opening,
  // variant, start_fen, language and the blobs; check_stored_game the rest (codes, tags,
  // result, dedupe_key, copy_header_hash, a material blob when the stored one is unusable).
  GameRecord record;
  // Columns checked against what the blobs hold.
  int64_t plies = 0, result = 0, variant = 0, eco_source = 0;
  // Why the row cannot be merged ("" while it can), e.g. "names no White (name id 7)".
  std::string problem;
  // The keys of the game's positions (keys[i] after i plies), from check_stored_game,
  // until the worker has made them postings.
  std::vector<Key> keys;
  // The sum that checks the game's postings in the database read (merged_positions.h),
  // when the merge takes them from there.
  uint64_t position_hash = 0;
};

// Reads the current row of a statement of store::sql::kMergeGamesInRange into game.
// A new column of games is read here (and added to that statement).
void read_stored_game(const store::Statement& row, const TextById& names, const TextById& openings,
                      StoredGame& game);

// Checks the game as a reader of an untrusted database must (every blob decodes, the
// moves replay legally from the start position, the columns agree with them) and fills
// the rest of its record. Returns false, with game.problem saying why, when it cannot be
// merged. Without keep_annotations the annotations are dropped.
bool check_stored_game(StoredGame& game, bool keep_annotations);

}  // namespace pgnbase::indexer
