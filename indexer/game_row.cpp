#include "indexer/game_row.h"

#include "store/multi_row_insert.h"
#include "store/stored_columns.h"

namespace pgnbase::indexer {

store::EcoSource eco_source_of(const GameRecord& game) {
  if (game.header.eco) return store::EcoSource::Tag;
  return game.eco.empty() ? store::EcoSource::None : store::EcoSource::Computed;
}

void bind_game_row(store::Statement& s, int first, const GameRecord& game, const GameRowRefs& refs,
                   int64_t source_id, std::optional<int64_t> id) {
  const store::HeaderColumns& h = game.header;
  auto at = [first](int k) { return first + k - 1; };
  if (id) s.bind_int64(at(1), *id);
  s.bind_int64(at(2), source_id);
  s.bind_int64(at(3), int64_t(game.place.number));
  s.bind_int64(at(4), int64_t(game.place.offset));
  s.bind_int64(at(5), game.place.line);
  if (refs.event) s.bind_int64(at(6), *refs.event);
  if (refs.site) s.bind_int64(at(7), *refs.site);
  if (!refs.site_suffix.empty()) s.bind_text_static(at(28), refs.site_suffix);
  if (h.date) s.bind_text_static(at(8), *h.date);
  if (h.date_key) s.bind_int64(at(9), *h.date_key);
  if (h.round) s.bind_text_static(at(10), *h.round);
  if (refs.white) s.bind_int64(at(11), *refs.white);
  if (refs.black) s.bind_int64(at(12), *refs.black);
  if (h.result) s.bind_text_static(at(13), *h.result);
  s.bind_int64(at(14), int64_t(game.result));
  if (h.white_elo) s.bind_int64(at(15), *h.white_elo);
  if (h.black_elo) s.bind_int64(at(16), *h.black_elo);
  const store::EcoSource eco = eco_source_of(game);
  if (eco != store::EcoSource::None) s.bind_text_static(at(17), eco == store::EcoSource::Tag ? *h.eco : game.eco);
  s.bind_int64(at(18), int64_t(eco));
  if (refs.opening) s.bind_int64(at(19), *refs.opening);
  if (h.time_control) s.bind_text_static(at(20), *h.time_control);
  s.bind_int64(at(21), int64_t(game.codes.size()));
  s.bind_int64(at(22), int64_t(game.variant));
  if (!game.start_fen.empty()) s.bind_text_static(at(23), game.start_fen);
  s.bind_text_static(at(24), game.language);
  s.bind_blob_static(at(25), bytes_of(game.moves_blob));
  if (!game.tags_blob.empty()) s.bind_blob_static(at(26), bytes_of(game.tags_blob));
  s.bind_int64(at(27), game.dedupe_key);
}

void insert_games_rows(store::Statement& one, store::Statement& batch, std::span<const GameToWrite> games,
                       int64_t source_id, bool bind_ids) {
  constexpr int kGameColumns = 28;
  store::insert_rows(one, batch, kGameRowsPerStatement, kGameColumns, games.size(),
                     [&](store::Statement& s, int first, size_t row) {
                       const GameToWrite& g = games[row];
                       bind_game_row(s, first, *g.game, g.refs, source_id, bind_ids ? std::optional(g.id) : std::nullopt);
                     });
}

void insert_annotation_rows(store::Statement& annotations, std::span<const GameToWrite> games) {
  for (const GameToWrite& g : games) {
    if (g.game->annotations_blob.empty()) continue;
    annotations.reset();
    annotations.bind_int64(1, g.id);
    annotations.bind_blob_static(2, bytes_of(g.game->annotations_blob));
    annotations.run();
  }
}

}  // namespace pgnbase::indexer
