// encode_game: everything of a built game that the writer stores, made on the worker
// (moves and annotations blobs, the tags split into columns, the material runs, the
// header hash that truncated copies are looked up by, the names' hashes), so that the
// single writer only binds values.
#pragma once

#include "indexer/game_record.h"

namespace pgnbase::indexer {

void encode_game(GameRecord& game, int zstd_level);

// The hashes of the game's names and its Site's split (GameRecord::name_keys).
NameKeys name_keys_of(const GameRecord& game);

}  // namespace pgnbase::indexer
