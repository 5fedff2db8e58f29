#include "store/material_blocks.h"

#include <algorithm>

#include "store/annotations.h"
#include "store/games_sql.h"

namespace pgnbase::store {

static_assert(kMaterialBlockGames == 16, "PGNBASE_MATERIAL_BLOCK_OF_GAME (store/games_sql.h) divides by 16");

namespace {

// Calls f(offset in the block, runs) for each entry of a blob in order, until f returns
// false; returns false when the blob is corrupt before that (an offset out of the block
// or not increasing, a length past the end).
template <class F>
bool walk_block(std::string_view blob, F f) {
  int64_t previous = -1;
  for (size_t pos = 0; pos < blob.size();) {
    const int64_t offset = uint8_t(blob[pos++]);
    std::string_view runs;
    if (offset >= kMaterialBlockGames || offset <= previous || !read_length_prefixed(blob, pos, runs)) return false;
    if (!f(offset, runs)) return true;
    previous = offset;
  }
  return true;
}

std::string_view view_of(std::span<const std::byte> blob) {
  return {reinterpret_cast<const char*>(blob.data()), blob.size()};
}

void append_entry(int64_t game_id, std::string_view runs, std::string& blob) {
  blob += char(game_id - first_game_of_material_block(material_block_of(game_id)));
  append_varint(runs.size(), blob);
  blob += runs;
}

// replace: the block's row exists (read back, completed or cut); otherwise a row there
// already is a bug, refused by the key rather than overwritten.
void write_block(Database& db, int64_t block, int64_t games, const std::string& blob, bool replace) {
  Statement& s = db.cached(replace ? sql::kReplaceMaterialBlock : sql::kInsertMaterialBlock);
  s.reset();
  s.bind_int64(1, block);
  s.bind_int64(2, games);
  s.bind_blob_static(3, std::span(reinterpret_cast<const uint8_t*>(blob.data()), blob.size()));
  s.run();
}

// Blocks first_block to last_block (none when last_block < first_block), as game ids.
WholeMaterialBlocks blocks_between(int64_t first_block, int64_t last_block) {
  if (last_block < first_block) return {};
  return {first_game_of_material_block(first_block), first_game_of_material_block(last_block + 1) - 1};
}

// The first block that begins at game_id or after it.
int64_t first_block_from(int64_t game_id) { return (game_id - 1 + kMaterialBlockGames - 1) / kMaterialBlockGames; }

}  // namespace

WholeMaterialBlocks whole_material_blocks(int64_t first_id, int64_t last_id) {
  if (first_id < 1 || last_id < first_id) return {};
  return blocks_between(first_block_from(first_id), last_id / kMaterialBlockGames - 1);  // the last ending by last_id
}

WholeMaterialBlocks WholeMaterialBlocks::beginning_in(int64_t first_id, int64_t last_id) const {
  first_id = std::max(first_id, first);
  last_id = std::min(last_id, last);
  if (last_id < first_id) return {};
  return blocks_between(first_block_from(first_id), material_block_of(last_id));
}

void write_whole_material_blocks(Database& db, WholeMaterialBlocks ids,
                                 const std::function<std::string_view(int64_t)>& runs_of) {
  std::string blob;
  for (int64_t first = ids.first; first <= ids.last; first += kMaterialBlockGames) {
    blob.clear();
    for (int64_t id = first; id < first + kMaterialBlockGames; ++id) append_entry(id, runs_of(id), blob);
    write_block(db, material_block_of(first), kMaterialBlockGames, blob, false);
  }
}

bool decode_material_block(int64_t block, std::string_view blob, std::vector<MaterialEntry>& entries) {
  entries.clear();
  const int64_t first = first_game_of_material_block(block);
  return walk_block(blob, [&](int64_t offset, std::string_view runs) {
    entries.push_back({first + offset, runs});
    return true;
  });
}

std::string_view material_runs_in_block(int64_t game_id, std::string_view blob) {
  const int64_t wanted = game_id - first_game_of_material_block(material_block_of(game_id));
  std::string_view found;
  walk_block(blob, [&](int64_t offset, std::string_view runs) {
    if (offset == wanted) found = runs;
    return offset < wanted;
  });
  return found;
}

void MaterialBlockWriter::add(int64_t game_id, std::string_view runs) {
  if (game_id <= last_id_)
    throw StoreError(StoreErrorKind::Other, 0,
                     db_.path() + ": the material runs of game " + std::to_string(game_id) + " came after those of game " +
                         std::to_string(last_id_) + " (a bug; nothing of this source was kept)");
  const int64_t block = material_block_of(game_id);
  if (block != block_) {
    flush();
    block_ = block;
    if (game_id != first_game_of_material_block(block)) read_back(game_id);  // earlier games may have begun it
  }
  append_entry(game_id, runs, blob_);
  ++games_;
  last_id_ = game_id;
}

void MaterialBlockWriter::read_back(int64_t game_id) {
  Statement& s = db_.cached(sql::kMaterialBlock);
  s.reset();
  s.bind_int64(1, block_);
  if (!s.step()) return s.reset();
  read_back_ = true;
  // A corrupt block keeps what it holds before the damage; its games' runs are made again
  // by whoever reads them (a merge) or counted corrupt (a search).
  std::vector<MaterialEntry> entries;
  decode_material_block(block_, view_of(s.column_blob(1)), entries);
  for (const MaterialEntry& e : entries) {
    if (e.game_id >= game_id) {
      s.reset();
      throw StoreError(StoreErrorKind::Other, 0,
                       db_.path() + ": game " + std::to_string(game_id) + " is new, but block " +
                           std::to_string(block_) + " of material_blocks holds game " + std::to_string(e.game_id) +
                           " (a bug; nothing of this source was kept)");
    }
    append_entry(e.game_id, e.runs, blob_);
    ++games_;
  }
  s.reset();  // the entries are copied
}

void MaterialBlockWriter::flush() {
  if (block_ >= 0 && games_ > 0) write_block(db_, block_, games_, blob_, read_back_);
  clear();
}

void MaterialBlockWriter::clear() {
  block_ = -1;
  games_ = 0;
  last_id_ = 0;
  read_back_ = false;
  blob_.clear();
}

void remove_material_runs(Database& db, std::span<const int64_t> game_ids) {
  std::vector<MaterialEntry> entries;
  std::string blob;
  for (size_t i = 0; i < game_ids.size();) {
    const int64_t block = material_block_of(game_ids[i]);
    size_t end = i;
    while (end < game_ids.size() && material_block_of(game_ids[end]) == block) ++end;
    const std::span<const int64_t> removed = game_ids.subspan(i, end - i);
    i = end;
    Statement& s = db.cached(sql::kMaterialBlock);
    s.reset();
    s.bind_int64(1, block);
    if (!s.step()) {
      s.reset();
      continue;
    }
    // A corrupt block keeps what it holds before the damage.
    decode_material_block(block, view_of(s.column_blob(1)), entries);
    blob.clear();
    int64_t games = 0;
    for (const MaterialEntry& e : entries)
      if (!std::binary_search(removed.begin(), removed.end(), e.game_id)) {
        append_entry(e.game_id, e.runs, blob);
        ++games;
      }
    s.reset();  // the kept entries are copied: the row may change now
    if (games > 0) {
      write_block(db, block, games, blob, true);
      continue;
    }
    Statement& drop = db.cached(sql::kDeleteMaterialBlock);
    drop.reset();
    drop.bind_int64(1, block);
    drop.run();
  }
}

int64_t count_material_runs(Database& db) {
  Statement s = db.prepare(sql::kCountMaterialRuns);
  return s.step() ? s.column_int64(0) : 0;
}

}  // namespace pgnbase::store
