// Merging another pgnbase database into this one: `pgn-index -o DB OTHER.db`.
//
// Each source of OTHER becomes a source of DB with the same path, size and content hash
// (a source DB holds already, by its hash, is "already in the database", as a second
// import of that PGN would be). Its games are read in id order and added as new games of
// DB through the one DatabaseWriter, each as the import of its PGN would have stored it:
// the stored blobs (moves, tags, annotations, material) are copied as they are, names and
// openings are mapped to DB's ids, and duplicates are skipped by the same rules (the
// dedupe key, recomputed from the stored columns, and the truncated-copy check; the first
// game in input order wins). No PGN text is parsed: each game's compact moves are replayed
// (core/, no SAN) to check that they are legal, and the source's position index segment
// is OTHER's, copied or re-encoded with DB's ids once its postings are checked against
// those replays (merged_positions.h; a damaged one is rebuilt from them). OTHER's rejects and copy rows (game_copies) go with their sources, so that
// `pgn-query rejects` and `pgn-index --remove PATH` work on the merged games as on
// imported ones.
//
// OTHER is untrusted, as the query programs read it (store::open_for_reading: read-only,
// defensive): a games row whose blobs do not decode, whose moves do not replay, or whose
// columns name nothing (a name id without its name) becomes a reject of its source, kind
// "corrupt stored game", with a reason naming OTHER and the game's id there; the other
// games merge. A file that is SQLite but not a pgnbase database, or of a schema this build
// does not read, is refused (store::SchemaError) before anything is written; one that
// cannot be read at all fails (InputError), leaving the sources merged before it.
//
// Threads: the calling thread reads OTHER and writes DB; options.threads workers check
// and replay the games, a batch at a time, and the writer takes the batches in order, so
// DB is the same whatever the thread count; one more thread reads and decodes the
// source's position segment meanwhile, through a second connection to OTHER.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "indexer/database_writer.h"
#include "indexer/import_pipeline.h"

namespace pgnbase::indexer {

// True when the file at path starts with SQLite's header: an input to merge, not PGN.
// False for anything that cannot be opened as a regular file ("-", a zip member).
bool is_sqlite_file(const std::string& path);

// One source of OTHER, merged (or found already in DB).
struct MergedSource {
  std::string path;  // as OTHER stored it
  ImportOutcome outcome;
  // One line per game rejected as corrupt: "other.db: game 17: moves do not replay ...".
  std::vector<std::string> corrupt_games;
  // One line when the source's position index in OTHER was damaged, so that its
  // positions were made again by replaying its games; "" when they were taken from OTHER
  // (or OTHER's layout is an older one, which is replayed without a word).
  std::string positions_note;
};

struct MergeTotals {
  uint64_t sources = 0, already_in = 0;
  uint64_t games_found = 0, merged = 0, duplicates = 0, rejected = 0;
  // Games of OTHER whose source row is missing: not merged (one line each).
  std::vector<std::string> orphans;
  double seconds = 0;
};

// Merges the database at other_path into writer's database. Uses options.threads,
// dedupe, replace, rejects_out (the text of OTHER's rejects) and build.keep_annotations;
// calls on_source after each source, on this thread. Throws store::SchemaError (not a
// pgnbase database, another version), InputError (OTHER cannot be read: the source being
// merged is rolled back, the earlier ones stay), store::StoreError (DB cannot be written),
// or what a worker thread threw.
MergeTotals merge_database(const std::string& other_path, DatabaseWriter& writer, const ImportOptions& options,
                           const std::function<void(const MergedSource&)>& on_source = {});

}  // namespace pgnbase::indexer
