#include "indexer/game_encoder.h"

#include "core/fen.h"
#include "store/blob_codec.h"
#include "store/material_runs.h"
#include "store/moves_codec.h"
#include "store/site_url.h"
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
  game.copy_moves_prefix = truncated_copy_moves_prefix(game.moves_blob);
  game.name_keys = name_keys_of(game);
}

NameKeys name_keys_of(const GameRecord& game) {
  const store::HeaderColumns& h = game.header;
  NameKeys keys;
  if (h.event) keys.event = name_hash(*h.event);
  if (h.site) {
    std::string_view site = *h.site;
    if (const std::optional<store::SiteParts> parts = store::split_site(site)) {
      site = parts->prefix;
      keys.site_prefix_length = uint32_t(site.size());
    }
    keys.site = name_hash(site);
  }
  if (h.white) keys.white = name_hash(*h.white);
  if (h.black) keys.black = name_hash(*h.black);
  if (!game.opening.empty()) keys.opening = name_hash(game.opening);
  return keys;
}

void ChunkNames::number(GameRecord& game) {
  NameKeys& keys = *game.name_keys;
  const store::HeaderColumns& h = game.header;
  auto slot = [](std::unordered_map<std::string_view, uint32_t>& seen, std::string_view text) {
    return seen.try_emplace(text, uint32_t(seen.size()) + 1).first->second;
  };
  if (h.event) keys.event_slot = slot(names_, *h.event);
  if (h.site) {
    const std::string_view site = *h.site;  // interned whole, or its prefix when split
    keys.site_slot = slot(names_, keys.site_prefix_length ? site.substr(0, keys.site_prefix_length) : site);
  }
  if (h.white) keys.white_slot = slot(names_, *h.white);
  if (h.black) keys.black_slot = slot(names_, *h.black);
  if (!game.opening.empty()) keys.opening_slot = slot(openings_, game.opening);
}

}  // namespace pgnbase::indexer
