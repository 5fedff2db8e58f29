// The single writer: turns GameRecords and RejectRecords into rows, each input file in a
// savepoint of its own inside a transaction that commits once it is a second old (or at
// commit_sources), so a crash leaves every file either fully in or absent, and a zip of
// thousands of one-game members pays one commit per second, not one per member.
#pragma once

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include "indexer/game_record.h"
#include "indexer/posting_sorter.h"
#include "indexer/row_staging.h"
#include "indexer/source_removal.h"
#include "indexer/game_id_table.h"
#include "indexer/name_table.h"
#include "indexer/truncated_copies.h"
#include "store/database.h"
#include "store/game_facets.h"
#include "store/material_blocks.h"
#include "store/position_segments.h"
#include "store/schema_version.h"

namespace pgnbase::indexer {

class PositionIndexBuilder;
struct PositionIndexOptions;

// Writes a source's position segment (segment_id) in the writer's open transaction, with
// the options the writer would build it with.
using SegmentWriter =
    std::function<store::SegmentStats(store::Database& db, int64_t segment_id, const PositionIndexOptions& options)>;

struct WriterOptions {
  size_t position_memory_bytes = size_t{96} << 20;  // --memory
  unsigned threads = 1;                               // for the position index's final merge
  // Fingerprint bits of the position segments (PositionIndexOptions::fingerprint_bits):
  // 0 picks them per segment; tests pick few, so that many keys share each.
  int position_fingerprint_bits = 0;
  std::filesystem::path temp_dir;                     // empty: the system's
  // Annotation blobs: level 1 imports TCEC 6.5% faster than 3 for a DB 0.8% larger.
  int zstd_level = 1;
  // Runs (on the importing thread) when another import has held the database's write
  // lock for a second; the writer then keeps waiting until it is free.
  std::function<void()> on_lock_wait;
  // finish_source commits the sources finished so far once the open transaction is this
  // old; 0 commits each source by itself. Whoever sets more calls commit_sources at the
  // end: the destructor rolls back what was not committed.
  double commit_after_seconds = 0;
  // Private for a new database that no other process can see yet (indexer/fresh_build.h).
  // Such a file is also written on a thread of its own (store/write_behind_vfs.h) where
  // the writer's helpers have cores (helpers_have_cores), or always with
  // write_behind_always (tests).
  store::Database::Journal journal = store::Database::Journal::Shared;
  bool write_behind_always = false;
  // For a new database: the games indexes that a load into an empty table drops are left
  // for whoever publishes the file to build on threads of their own
  // (store::add_indexes_in_bulk with store::kGamesIndexesSql), with every connection
  // closed. Until then the games table has none of them (its rows go in all the same).
  bool games_indexes_at_publish = false;
  // A chunk of at least this many games, imported into an empty games table with 4
  // threads or more while the workers wait for the writer, has its rows built beside the
  // writer on `threads` threads (indexer/row_staging.h); SIZE_MAX never. Tests stage every
  // such chunk, whatever the threads and the workers.
  size_t stage_rows_from_games = 2 * RowStaging::kFewestGamesPerPart;
  bool stage_rows_always = false;
  // A first import's name words, when there are this many, are built beside the writer
  // while it builds the games indexes, and moved in whole (with staging, as above); fewer
  // it inserts itself: building and moving an image costs more than a few rows.
  size_t stage_name_words_from = 1024;
  // SQLite's helper threads sort (Database::build_indexes) with 4 threads or more, no
  // more than the cores, the games indexes of a first import that fits the page cache in
  // runs of Database::kHelperRunKib; > 0: on the helpers, in runs of this many KiB,
  // whatever the threads (tests).
  int index_sort_run_kib = 0;
};

// The writing thread's CPU seconds in two steps of finish_source (pgn-index --stats):
// building the games indexes (a first import) and writing the position segment, the wall
// seconds of each, and the wall seconds the spills of postings and the staged rows held
// it up.
struct WriterSteps {
  double games_indexes_cpu = 0, games_indexes_wall = 0;
  double position_segment_cpu = 0, position_segment_wall = 0;
  double spills_held_up_wall = 0;
  double rows_waited_wall = 0;  // for the rows staged beside it (row_staging.h)
  uint64_t rows_parts = 0;      // the parts those rows were staged in

  WriterSteps& operator+=(const WriterSteps& other) {
    games_indexes_cpu += other.games_indexes_cpu;
    games_indexes_wall += other.games_indexes_wall;
    position_segment_cpu += other.position_segment_cpu;
    position_segment_wall += other.position_segment_wall;
    spills_held_up_wall += other.spills_held_up_wall;
    rows_waited_wall += other.rows_waited_wall;
    rows_parts += other.rows_parts;
    return *this;
  }
};

struct SourceSummary {
  int64_t source_id = 0;
  uint64_t games_found = 0, imported = 0, rejected = 0;
  std::map<std::string, uint64_t> rejects_by_kind;
  std::map<std::string, uint64_t> games_by_language;
  uint64_t positions = 0;
  uint64_t moves_bytes = 0, plies = 0;     // games.moves blob bytes and plies stored
  uint64_t position_index_bytes = 0;
  uint64_t duplicates = 0;  // skipped (exact duplicates and truncated copies)
  std::vector<TruncatedCopy> truncated;  // truncated copies met, skipped or not
  // The first exact duplicates skipped (kNamedDuplicates of them), each with the stored
  // game it equals; stored_plies and new_is_shorter are unused.
  std::vector<TruncatedCopy> first_duplicates;
  static constexpr size_t kNamedDuplicates = 10;
  WriterSteps steps;
};

// Thrown when the database file is from another pgnbase version, or not a pgnbase database.
using SchemaError = store::SchemaError;

class DatabaseWriter {
 public:
  DatabaseWriter(const std::string& path, WriterOptions options);
  ~DatabaseWriter();

  // The id of an already imported source with this content hash.
  std::optional<int64_t> find_source(const std::string& content_hash);
  // Whether an imported source has content of this many bytes (the only ones whose hash
  // can be the same).
  bool has_source_of_size(uint64_t bytes);

  void begin_source(const std::string& path, std::optional<uint64_t> size);
  // Starts a chunk's games: their names' slots (NameKeys, ChunkNames) number this chunk's
  // distinct names and openings, each interned once for the chunk.
  void begin_chunk(uint32_t distinct_names, uint32_t distinct_openings);
  // Gives the game (its blobs and header columns made by the worker: encode_game) its id
  // and queues its rows, which go in by the chunk's add_positions at the latest: the
  // record must live until then. Its positions come with add_positions.
  int64_t add_game(const GameRecord& game);
  // Indexes a chunk's positions: postings sorted by sort_posting_records whose game_id is
  // the game's index in the chunk; ids[i] is the id add_game gave game i, 0 for a game
  // that was not stored (a duplicate: its postings are dropped).
  // postings: sorted, or with sorted false in key partition order only
  // (PostingSorter::add_sorted_run).
  void add_positions(std::vector<PostingSorter::Record> postings, std::span<const int64_t> ids, bool sorted = true);
  // Whether the rows of the games added from now on may be built beside this thread
  // (row_staging.h: less work on this thread, more in all), for a first import only; the
  // import asks it per chunk, when the chunk was waiting for the writer. Off at first. A
  // caller of stage_rows keeps each chunk's records alive until the next chunk's
  // add_positions returns, or finish_source or abandon_source: the rows of a chunk are
  // then built while this thread goes on with the next one.
  void stage_rows(bool wanted) {
    stage_rows_wanted_ = wanted;
    records_held_ = true;
  }
  // Whether the postings of the chunks to come should be sorted (a spill has happened:
  // PostingSorter::wants_sorted_runs).
  bool wants_sorted_postings() const;
  // Whether an input of this many bytes of PGN may hold more postings than --memory keeps
  // (at most one posting per 8 bytes, as in games without comments or tags besides the
  // Seven Tag Roster): its chunks' postings are then sorted from the start, since the
  // first spill would have to sort whatever came unsorted, on this thread.
  bool postings_may_spill(uint64_t input_bytes) const {
    return input_bytes / 8 > options_.position_memory_bytes / PostingSorter::kBytesPerBufferedPosting;
  }
  // Makes finish_source write the current source's position segment with write instead
  // of from the postings given to add_positions (a merged source whose segment is taken
  // from the other database: merged_positions.h).
  void write_positions_with(SegmentWriter write) { segment_writer_ = std::move(write); }
  // True (and counted as a duplicate, nothing written) when an equal game is already in
  // the database or earlier in this import, or a longer copy of it (truncated_copies.h).
  bool skip_duplicate(const GameRecord& game);
  // The stored game that the last game skip_duplicate skipped equals (or is a truncated
  // copy of).
  int64_t last_skipped_for() const { return last_skipped_for_; }
  // Counts games that the source's own import skipped as duplicates before they reached
  // this writer (a source merged from another database: database_merge.h).
  void count_duplicates_skipped_before(uint64_t games) {
    summary_.games_found += games;
    summary_.duplicates += games;
  }
  // Records that the current source held stored game stored_id too (game_copies), though
  // it did not store it: removing the game's own source then keeps the game.
  void add_copy_of(int64_t stored_id);
  void add_reject(const RejectRecord& reject);
  // --replace: removes, inside the current source's transaction, the older sources of the
  // same path (nullopt: content only, for a stream) or content hash
  // (indexer/source_removal.h), and forgets their games' duplicate keys, so that the file
  // is imported anew.
  std::vector<RemovedSource> replace_sources(const std::optional<std::string>& path, const std::string& content_hash);
  // Writes the position segment and the source row; commits when the open transaction
  // is commit_after_seconds old.
  SourceSummary finish_source(const std::string& content_hash, double seconds);
  // Rolls the current source back (e.g. its content turned out to be imported already);
  // the sources finished before it in the same transaction stay.
  void abandon_source();
  // For a source that failed: abandons it and commits the sources finished before it,
  // which stay. Never throws (the caller reports the first error, not a second one).
  void abandon_source_keeping_finished() noexcept;
  // Commits the sources finished since the last commit, if any (after the last input, or
  // before a caller reports them as stored for good).
  void commit_sources();
  // True when every finished source is committed (none waits in an open transaction).
  bool all_committed() const { return !transaction_; }
  // The parts of games rows staged beside the writer so far (row_staging.h), also of
  // sources abandoned since.
  uint64_t staged_parts() const { return staged_parts_; }

  store::Database& database() { return db_; }
  int zstd_level() const { return options_.zstd_level; }

 private:
  // The name's id; a new name gets the next id at once, and its row when its chunk's
  // games are written (write_new_names).
  int64_t intern(HashedName name);
  // The id of a computed opening name, the same way (openings table).
  int64_t intern_opening(HashedName name);
  // Writes the names and openings interned since the last call (once per chunk): names
  // in id order, then the openings; the names' words wait for write_new_name_words.
  void write_new_names();
  // Writes the words of the source's new names, sorted (at the end of the source, or
  // sooner when kMaxPendingNameWords are waiting); already_sorted when
  // sort_new_name_words ran since the last words came.
  void write_new_name_words(bool already_sorted = false);
  // Folds the words of the names written since (unfolded_names_), sorts the pending words
  // and drops repeats; safe on another thread while this one does anything but write
  // names.
  void sort_new_name_words();
  bool has_name_words();
  static constexpr size_t kMaxPendingNameWords = size_t{1} << 20;
  static constexpr size_t kWordsPerName = 2;  // about, for the cap above
  // Re-reads what this writer caches from the database (names, the next game id, the
  // dedupe keys) when another connection committed since it last did, or after a
  // rollback that undid some of it (abandon_source). Runs with the write lock held, so
  // nothing changes it until the commit.
  void refresh_cached_state();
  int64_t data_version();
  PositionIndexOptions position_options() const;

  store::Database db_;
  WriterOptions options_;
  std::unique_ptr<store::Transaction> transaction_;  // open from the first begin_source to the commit
  std::chrono::steady_clock::time_point transaction_started_;
  bool in_source_ = false;  // between begin_source and finish_source or abandon_source
  std::unique_ptr<PositionIndexBuilder> positions_;
  SegmentWriter segment_writer_;  // set by write_positions_with, for the current source only
  // Looked up by HashedName, whose hash the worker made (GameRecord::name_keys).
  NameTable name_ids_;
  std::vector<std::pair<int64_t, std::string>> new_names_;  // interned in this source, in id order
  // Names written in this source whose words are not folded yet, and (word, name id) of
  // those folded.
  std::vector<std::pair<int64_t, std::string>> unfolded_names_;
  std::vector<std::pair<std::string, int64_t>> new_words_;
  int64_t next_name_id_ = 1;
  // The openings table, kept the same way (no words).
  NameTable opening_ids_;
  std::vector<std::pair<int64_t, std::string>> new_openings_;
  int64_t next_opening_id_ = 1;
  // By slot (begin_chunk): the id of each distinct name and opening of the chunk being
  // written, 0 until a game of it is stored.
  std::vector<int64_t> chunk_name_ids_, chunk_opening_ids_;
  GameIdTable dedupe_keys_;  // key -> the first stored game's id; loaded on the first skip_duplicate call
  bool dedupe_keys_loaded_ = false;
  // It reads stored rows with their names joined: names interned since the last chunk (a
  // game earlier in this one, its Site) go in first, or a row reads as nameless.
  TruncatedCopyFinder truncated_{db_, [this] {
    write_pending_games();
    write_new_names();
  }};
  // The ids the game's row refers to, its names and opening interned (in this order:
  // Event, Site, White, Black, the opening).
  GameRowRefs refs_of(const GameRecord& game);
  // Writes the games add_game queued, and the staged ones still in flight: their games,
  // material and annotations rows, in id order. Runs before anything reads the games
  // table and while their records live (each chunk's add_positions, unless it stages).
  void write_pending_games();
  // The queued games with the ids their rows refer to (their names interned), the queue
  // emptied, their material runs given to material_; a kept index that one of them has a
  // value for is dropped first.
  // staged_material: the ids whose runs go with staged rows (stage_pending_games).
  std::vector<GameToWrite> take_pending_games(store::WholeMaterialBlocks staged_material = {});
  // Drops the kept indexes (kept_indexes_) on a column the game has a value in.
  void drop_kept_indexes_for(const GameRecord& game);
  // Starts the queued games' rows on the staging threads (row_staging.h).
  void stage_pending_games();
  // Moves in the rows of the staged games in flight, if any.
  void finish_staged_rows();
  // Whether the queued games' rows are built beside this thread (row_staging.h), and
  // add_game waits for the whole chunk before writing them.
  bool stages_rows() const {
    return indexes_dropped_ && staging_ &&
           (options_.stage_rows_always || (stage_rows_wanted_ && helpers_have_cores()));
  }
  // Whether work moved beside this thread (staged rows, the index sorts on SQLite's
  // helpers) runs on cores of its own: it costs more CPU in all, so on busy cores it only
  // slows the import. Four threads at least: the writer waits while staged parts are
  // built, and with fewer the wait costs it about what staging saves it (2 cores at -j 2:
  // 0.09-0.13 s waited for 0.05 s saved on the master-style file); no more threads than
  // cores (2 cores at -j 4: 5-12% more wall time with rows staged).
  bool helpers_have_cores() const { return helpers_have_cores(options_); }
  static bool helpers_have_cores(const WriterOptions& options) {
    static const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    return options.threads >= kFewestHelpedThreads && options.threads <= cores;
  }
  // Whether the file's writes are made on a thread of their own: on 2 cores at -j 2 the
  // import took 4-8% longer so (bench/README.md).
  static store::Database::Writes file_writes(const WriterOptions& options);
  static constexpr unsigned kFewestHelpedThreads = 4;
  // Whether SQLite's sort helpers take part in its sorts (the games indexes of a first
  // import above all): they cost more CPU than they save wall time on busy cores (on 2
  // cores at -j 2, 1.48M games: 2.4 s of their CPU, the import 3% longer; the master-style
  // file's sorts in small runs, 2-3% longer). index_sort_run_kib forces them (tests).
  bool sorts_on_helpers() const { return helpers_have_cores() || options_.index_sort_run_kib > 0; }
  // Games wait until this many of them go in as one statement a table; names and their
  // words go in this many to a statement too (store::insert_rows).
  static constexpr int kRowsPerInsert = kGameRowsPerStatement;
  std::vector<std::pair<const GameRecord*, int64_t>> pending_games_;
  std::unique_ptr<RowStaging> staging_;  // none when options_.stage_rows_from_games is SIZE_MAX
  uint64_t staged_parts_ = 0;            // over the writer's life
  bool stage_rows_wanted_ = false, records_held_ = false;  // stage_rows
  // The facets of the games added since the last commit, which commit_sources appends
  // (store/game_facets.h); those of an abandoned source are dropped with it.
  store::NewGameFacets new_facets_;
  // Prepared by the first begin_source, used by every source after it.
  store::Statement insert_game_, insert_games_batch_, insert_annotations_, insert_reject_, insert_copy_;
  // The material runs of the games written, a row for 16 games (take_pending_games).
  store::MaterialBlockWriter material_{db_};
  int64_t source_id_ = 0;
  int64_t first_game_id_ = 1;  // of the current source: smaller ids belong to other sources
  int64_t next_game_id_ = 1;
  // Whether the ids of the rows to write follow the largest stored ones (the next games
  // row's id is one above the largest of games, the next names row's
  // one above the largest of names), as after any import, but not after a removal of the
  // last games: rows then go in without their id, which SQLite gives as the largest plus
  // one, and each insert skips a search of the table's B-tree for the id (10% of the
  // writer's per-chunk instructions on 12,357 games, more on a large table).
  // Found before a source's first rows (after what --replace removes); checked after each
  // statement (check_ids_given).
  bool ids_checked_ = false, game_ids_follow_ = false, name_ids_follow_ = false;
  void check_whether_ids_follow();
  void check_ids_given(int64_t wanted, const char* table) const;
  int64_t last_skipped_for_ = 0;
  bool indexes_dropped_ = false;     // by begin_source, into an empty games table
  // The partial indexes that begin_source kept, empty, in that case, and no game written
  // since has filled (store/schema.h, kPartialGamesIndexes).
  store::PartialIndexSet kept_indexes_ = 0;
  bool replaced_in_source_ = false;  // replace_sources ran since begin_source
  std::optional<int64_t> cached_version_;  // PRAGMA data_version when the caches were read
  std::string source_path_;
  std::optional<uint64_t> source_size_;
  SourceSummary summary_;
};

}  // namespace pgnbase::indexer
