// The games rows of a first import, built beside the single writer. Binding a games row's
// 28 values and inserting it is most of the writer's work per game; SQLite moves a row
// that is already built, from a table whose columns agree with the target's, by copying
// its stored record whole (INSERT INTO t SELECT * FROM other.t: the transfer
// optimisation). So the writer gives each game its id and interns its names (in input
// order, as before), threads build a chunk's games rows in private
// in-memory databases, part by part, while the writer goes on with the next chunk; then
// the writer loads each part's image and moves its rows over, in id order: the same rows,
// less work on the busiest serial thread, more in all (bench/README.md). The material
// blocks wholly inside the chunk go with them. The annotations rows are staged too when
// they are short (lichess's clocks); long ones (TCEC's engine comments) stay the
// writer's: such a blob is one value to insert, but many pages to transfer.
//
// A first import's name words go the same way, once, at its end: sorted and built on a
// thread while the writer builds the games indexes, then moved into the empty table.
//
// Only into tables without secondary indexes (a first import drops the games indexes
// until its end) but the partial ones it keeps while they are empty, which the staged
// table has too (store/schema.h, kPartialGamesIndexes): a table with an index the staged
// one lacks would take the rows one by one, decoded and built again.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/task_threads.h"
#include "indexer/game_row.h"
#include "store/database.h"
#include "store/material_blocks.h"
#include "store/schema.h"

namespace pgnbase::indexer {

class RowStaging {
 public:
  // A part costs emptying its database and copying its image besides its rows: parts are
  // no smaller than this.
  static constexpr size_t kFewestGamesPerPart = 64;

  // Reads db's definitions of the staged tables and attaches the schema the images go
  // into (store::sql::kStagedRows): outside a transaction, as any ATTACH.
  explicit RowStaging(store::Database& db);
  ~RowStaging();

  // Starts building the rows of games (ids ascending, above every stored one) on up to
  // `threads` threads (kept for the next starts), and returns the number of parts: their
  // records must live until finish or abandon, and nothing may read db's games meanwhile.
  // None may be in flight. The staged games table has the partial indexes of `indexes`,
  // the ones db's games table has. material: whole material blocks of these games (ids
  // then consecutive), whose rows are built too; the caller writes the runs of the others.
  size_t start(std::vector<GameToWrite> games, int64_t source_id, unsigned threads, store::PartialIndexSet indexes,
               store::WholeMaterialBlocks material = {});
  bool in_flight() const { return threads_.running(); }
  // Waits for the rows started, then moves them into db's tables, part after part; their
  // annotations rows too when those are short on average, and then answers true. nullopt:
  // db's SQLite cannot load an image inside a transaction, nothing was moved, and the
  // caller writes the rows of games() itself. Throws StoreError when a part could not be
  // built or a table does not get exactly the rows it was given.
  std::optional<bool> finish(store::Database& db);
  // The games of the last start, until the next start or abandon.
  const std::vector<GameToWrite>& games() const { return games_; }
  // Inserts the material blocks of the last start into db itself: where finish answered
  // nullopt.
  void write_material_blocks(store::Database& db) const;
  // Waits for the threads and drops what they built (a source abandoned). Never throws.
  void abandon() noexcept;
  // The wall seconds finish waited for the threads since the last call: the writer's
  // serial path includes them.
  double take_waited_seconds() { return std::exchange(waited_seconds_, 0.0); }

  // The name words of a source, sorted and unique, as the image of a private database
  // whose name_words table holds them: on any thread, while the writer goes on.
  store::DatabaseImage build_name_words(std::span<const std::pair<std::string, int64_t>> words) const;
  // Moves the image's rows into db's name_words, which must be empty, checking that
  // exactly `rows` came; false when db's SQLite refuses the image (nothing moved).
  bool move_name_words(store::Database& db, store::DatabaseImage image, size_t rows);

 private:
  std::vector<std::string> definitions_;  // CREATE TABLE statements, as db holds them
  std::string name_words_definition_;
  // The definitions of kPartialGamesIndexes, as db holds them (empty: db has none).
  std::vector<std::string> index_definitions_;
  // One in-memory database per part of a chunk, made by the first part that needs it and
  // emptied for each next one; each is used by one thread at a time.
  struct Stage {
    std::unique_ptr<store::Database> db;
    store::PartialIndexSet indexes = 0;  // that its games table has
  };
  std::vector<Stage> stages_;
  // Drops and creates the stage's partial indexes until it has those of `indexes`.
  void match_indexes(Stage& stage, store::PartialIndexSet indexes) const;
  double waited_seconds_ = 0;
  // What start began, for finish.
  std::vector<GameToWrite> games_;
  store::WholeMaterialBlocks material_;
  std::vector<std::span<const GameToWrite>> slices_;
  std::vector<store::DatabaseImage> images_;
  bool with_annotations_ = false;
  // Kept from chunk to chunk (one per part); last, so that they end before what they use.
  TaskThreads threads_{ThreadRole::Rows, "row staging thread"};
};

}  // namespace pgnbase::indexer
