// The games' material runs (material_runs.h) as table material_blocks stores them: one row
// for each block of kMaterialBlockGames consecutive game ids, block b holding the games of
// ids b * kMaterialBlockGames + 1 to (b + 1) * kMaterialBlockGames that have runs. A row a
// game cost the import's single writer about 2,400 instructions to move in (SQLite's work
// is per row: two b-tree descents), nearly what the game's 200-byte games row cost, for 41
// bytes; a row of 16 games costs it about 6,500 (bound, not moved), and a material search
// reads 16 games a row. Not more: rows of about 650 bytes fill a 4 KiB page to within one
// row's size (64 games, 2.6 KB, would leave a page a third empty). Where a first import
// stages its rows (indexer/row_staging.h), the blocks that lie wholly inside a chunk are
// built beside the writer and moved in.
//
// Blob layout, for each game of the block in id order:
// | 1 byte | its id minus the block's first id (0 to kMaterialBlockGames - 1)  |
// | varint | length of its runs                                               |
// | bytes  | its runs (material_runs.h)                                       |
// The row's `games` column says how many games the blob holds.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "store/database.h"

namespace pgnbase::store {

inline constexpr int64_t kMaterialBlockGames = 16;

inline int64_t material_block_of(int64_t game_id) { return (game_id - 1) / kMaterialBlockGames; }
inline int64_t first_game_of_material_block(int64_t block) { return block * kMaterialBlockGames + 1; }

struct MaterialEntry {
  int64_t game_id = 0;
  std::string_view runs;
};

// Decodes block `block`'s blob into entries (views into blob), in id order; false when it
// is corrupt (ids out of the block or not increasing, a length past the end).
bool decode_material_block(int64_t block, std::string_view blob, std::vector<MaterialEntry>& entries);
// The runs of game_id in its block's blob; empty when the game has none there (or the blob is corrupt).
std::string_view material_runs_in_block(int64_t game_id, std::string_view blob);

// The game ids of the whole blocks that games of consecutive ids first_id to last_id
// fill (none: first > last). Their rows can be built apart from the writer's blocks
// (indexer/row_staging.h): no other game has an entry in them.
struct WholeMaterialBlocks {
  int64_t first = 1, last = 0;
  bool contains(int64_t game_id) const { return game_id >= first && game_id <= last; }
  int64_t blocks() const { return last < first ? 0 : (last - first + 1) / kMaterialBlockGames; }
  // Those of these blocks whose first game is first_id to last_id (a staged part's: the
  // later games of its last block may be the next part's).
  WholeMaterialBlocks beginning_in(int64_t first_id, int64_t last_id) const;
};
WholeMaterialBlocks whole_material_blocks(int64_t first_id, int64_t last_id);
// Inserts the rows of the blocks `ids`, each game's runs given by runs_of(id); a row
// there already is refused.
void write_whole_material_blocks(Database& db, WholeMaterialBlocks ids,
                                 const std::function<std::string_view(int64_t)>& runs_of);

// Writes the runs of games given in increasing id order (the import's writer), a block's
// row once the games pass it. A block that earlier games began (the last one of an earlier
// source) is read back and completed; a block begun by its first id is new (a row there
// already is refused). Until flush or clear, ids go up, by any step.
// Not thread-safe: the writer's connection.
class MaterialBlockWriter {
 public:
  explicit MaterialBlockWriter(Database& db) : db_(db) {}

  void add(int64_t game_id, std::string_view runs);
  // Writes the block being filled and forgets it: before the source ends, and before
  // anything else changes the table (a removal); the next add reads it back.
  void flush();
  // Forgets the block being filled (its source was rolled back).
  void clear();

 private:
  // Starts the block being filled (block_) with the entries its row holds, if it has one:
  // all below game_id, or this is a bug.
  void read_back(int64_t game_id);

  Database& db_;
  int64_t block_ = -1;  // none
  int64_t last_id_ = 0;  // given since the last flush
  int64_t games_ = 0;
  bool read_back_ = false;  // the block's row exists: flush replaces it
  std::string blob_;
};

// Takes the runs of the games out of their blocks (removed games; ids in increasing
// order), each block rewritten once; a block left empty goes.
void remove_material_runs(Database& db, std::span<const int64_t> game_ids);

// How many games the material blocks hold runs for (the sum of `games`).
int64_t count_material_runs(Database& db);

}  // namespace pgnbase::store
