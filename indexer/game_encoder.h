// encode_game: everything of a built game that the writer stores, made on the worker
// (moves and annotations blobs, the tags split into columns, the material runs, the
// header hash that truncated copies are looked up by, the names' hashes), so that the
// single writer only binds values.
#pragma once

#include <cstdint>
#include <string_view>
#include <unordered_map>

#include "indexer/game_record.h"

namespace pgnbase::indexer {

void encode_game(GameRecord& game, int zstd_level);

// The hashes of the game's names and its Site's split (GameRecord::name_keys).
NameKeys name_keys_of(const GameRecord& game);

// Numbers the distinct names of a chunk's games on the worker (NameKeys' slots), so that
// the single writer looks each up in its name table once a chunk, not once a game
// (DatabaseWriter::begin_chunk): the master-style bench file's chunks name about 37% as
// many distinct players, events and sites as games name, and each look-up of the
// writer's table misses the cache two or three times. The games must stay where they
// are while this lives: it keeps views of their names.
class ChunkNames {
 public:
  // Numbers game's names (it has name_keys), event, site, white, black, then its opening.
  void number(GameRecord& game);
  uint32_t names() const { return uint32_t(names_.size()); }
  uint32_t openings() const { return uint32_t(openings_.size()); }

 private:
  std::unordered_map<std::string_view, uint32_t> names_, openings_;
};

}  // namespace pgnbase::indexer
