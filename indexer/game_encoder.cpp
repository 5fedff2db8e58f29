#include "indexer/game_encoder.h"

#include "core/fen.h"
#include "store/blob_codec.h"
#include "store/material_runs.h"
#include "store/moves_codec.h"
#include "indexer/truncated_copies.h"

namespace pgnbase::indexer {

void encode_game(GameRecord& game, int zstd_level) {
  game.moves_blob.clear();  // the encoders append
  game.annotations_blob.clear();
  store::encode_moves_blob(game.compact_moves, game.moves_blob);
  store::split_tags(game.tags, game.header, game.tags_blob);
  if (!game.annotations.empty()) store::encode_blob(game.annotations, zstd_level, game.annotations_blob);
  Board start;  // the standard array unless the game has a FEN (build_game checked it)
  if (!game.start_fen.empty())
    if (Parsed<Board> fen = parse_fen(game.start_fen, game.variant == store::Variant::Chess960)) start = *fen;
  // What each move took, the replay that made the codes saw; a record read back from a
  // database (indexer/stored_game.h) has no such list, and the codes are played again.
  if (game.taken.size() == game.codes.size()) store::encode_material_runs(start, game.codes, game.taken, game.material_blob);
  else store::encode_material_runs(start, game.codes, game.material_blob);
  game.copy_header_hash = truncated_copy_header_hash(game);
}

}  // namespace pgnbase::indexer
