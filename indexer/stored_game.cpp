#include "indexer/stored_game.h"

#include "core/board.h"
#include "indexer/game_builder.h"
#include "indexer/truncated_copies.h"
#include "store/game_annotations.h"
#include "store/blob_codec.h"
#include "store/material_blocks.h"
#include "store/material_runs.h"
#include "store/merge_sql.h"
#include "store/moves_codec.h"

namespace pgnbase::indexer {

namespace {

std::string bytes_of(std::span<const std::byte> blob) {
  return std::string(reinterpret_cast<const char*>(blob.data()), blob.size());
}

bool reject(StoredGame& game, std::string why) {
  game.problem = std::move(why);
  return false;
}

// The tags of the record as the writer's readers see them: the columns' first (as
// split_tags took them), then the others in file order, so that the first value of each
// name is the file's first, as dedupe_key_of and the truncated-copy check read them.
void rebuild_tags(GameRecord& r, int64_t eco_source, const std::vector<store::TagView>& others) {
  const store::HeaderColumns& h = r.header;
  r.tags.clear();
  auto add = [&](const char* name, const std::optional<std::string>& value) {
    if (value) r.tags.push_back({name, *value});
  };
  add("Event", h.event);
  add("Site", h.site);
  add("Date", h.date);
  add("Round", h.round);
  add("White", h.white);
  add("Black", h.black);
  add("Result", h.result);
  if (h.white_elo) r.tags.push_back({"WhiteElo", std::to_string(*h.white_elo)});
  if (h.black_elo) r.tags.push_back({"BlackElo", std::to_string(*h.black_elo)});
  if (eco_source == int64_t(store::EcoSource::Tag)) add("ECO", h.eco);
  add("TimeControl", h.time_control);
  for (const store::TagView& t : others) r.tags.push_back({std::string(t.name), std::string(t.value)});
}

}  // namespace

void read_stored_game(const store::Statement& row, const TextById& names, const TextById& openings,
                      StoredGame& game) {
  using namespace store::sql;
  game = StoredGame{};
  GameRecord& r = game.record;
  auto text = [&](int column) {
    return row.column_is_null(column) ? std::nullopt : std::optional<std::string>(row.column_text(column));
  };
  auto integer = [&](int column) {
    return row.column_is_null(column) ? std::nullopt : std::optional<int64_t>(row.column_int64(column));
  };
  // The text of a name or opening id; a dangling id makes the game a reject.
  auto lookup = [&](int column, const TextById& texts, const char* what) -> std::optional<std::string> {
    const std::optional<int64_t> id = integer(column);
    if (!id) return std::nullopt;
    if (auto it = texts.find(*id); it != texts.end()) return it->second;
    if (game.problem.empty()) game.problem = std::string("its ") + what + " id " + std::to_string(*id) + " names nothing";
    return std::nullopt;
  };
  game.other_id = row.column_int64(MERGE_ID);
  r.place = GamePlace{.offset = uint64_t(row.column_int64(MERGE_BYTE_OFFSET)),
                      .line = uint64_t(row.column_int64(MERGE_LINE)),
                      .number = uint64_t(row.column_int64(MERGE_GAME_NUMBER))};
  store::HeaderColumns& h = r.header;
  h.event = lookup(MERGE_EVENT, names, "Event");
  h.site = lookup(MERGE_SITE, names, "Site");
  // A split site: its prefix name and its suffix (store/site_url.h); the writer splits the
  // whole value again by its own rule.
  if (h.site && !row.column_is_null(MERGE_SITE_SUFFIX)) *h.site += row.column_text(MERGE_SITE_SUFFIX);
  h.white = lookup(MERGE_WHITE, names, "White");
  h.black = lookup(MERGE_BLACK, names, "Black");
  h.date = text(MERGE_DATE);
  h.date_key = integer(MERGE_DATE_KEY);
  h.round = text(MERGE_ROUND);
  h.result = text(MERGE_RESULT_TAG);
  h.white_elo = integer(MERGE_WHITE_ELO);
  h.black_elo = integer(MERGE_BLACK_ELO);
  h.time_control = text(MERGE_TIME_CONTROL);
  game.result = row.column_int64(MERGE_RESULT);
  game.eco_source = row.column_int64(MERGE_ECO_SOURCE);
  // The writer stores an ECO in the header as the tag's, one in r.eco as computed.
  if (game.eco_source == int64_t(store::EcoSource::Tag)) h.eco = text(MERGE_ECO);
  else if (game.eco_source == int64_t(store::EcoSource::Computed)) r.eco = text(MERGE_ECO).value_or("");
  r.opening = lookup(MERGE_OPENING, openings, "opening").value_or("");
  game.plies = row.column_int64(MERGE_PLIES);
  game.variant = row.column_int64(MERGE_VARIANT);
  r.start_fen = text(MERGE_START_FEN).value_or("");
  r.language = row.column_text(MERGE_LANGUAGE);
  r.moves_blob = bytes_of(row.column_blob(MERGE_MOVES));
  r.tags_blob = bytes_of(row.column_blob(MERGE_TAGS));
  r.annotations_blob = bytes_of(row.column_blob(MERGE_ANNOTATIONS));
  // Its entry in the block; none (or a corrupt block) and check_stored_game makes it again.
  const std::span<const std::byte> block = row.column_blob(MERGE_MATERIAL);
  r.material_blob = store::material_runs_in_block(
      row.column_int64(MERGE_ID), std::string_view(reinterpret_cast<const char*>(block.data()), block.size()));
}

bool check_stored_game(StoredGame& game, bool keep_annotations) {
  if (!game.problem.empty()) return false;
  GameRecord& r = game.record;
  if (game.variant != int64_t(store::Variant::Standard) && game.variant != int64_t(store::Variant::Chess960))
    return reject(game, "its variant " + std::to_string(game.variant) + " is none this build knows");
  r.variant = store::Variant(game.variant);
  if (game.result < 0 || game.result > int64_t(store::GameResult::BlackWin))
    return reject(game, "its result code " + std::to_string(game.result) + " is not 0-3");
  r.result = store::GameResult(game.result);
  if (game.eco_source < 0 || game.eco_source > int64_t(store::EcoSource::Computed))
    return reject(game, "its ECO source " + std::to_string(game.eco_source) + " is not 0-2");

  Board start;
  if (!store::stored_start_position(r.variant, r.start_fen.empty() ? std::nullopt : std::optional<std::string_view>(r.start_fen),
                                    start))
    return reject(game, "its start FEN does not parse");
  game.keys.clear();
  if (!store::decode_moves(r.moves_blob, start, r.codes, [&](const Board& board, size_t) {
        game.keys.push_back(board.key());
        return true;
      }))
    return reject(game, "its moves do not replay from its start position (corrupt moves blob)");
  if (game.plies < 0 || uint64_t(game.plies) != r.codes.size())
    return reject(game, "its plies column says " + std::to_string(game.plies) + " but its moves hold " +
                            std::to_string(r.codes.size()));
  // Moves of an older schema (16-bit words) are stored as the import writes them now.
  if (r.moves_blob.empty() || store::BlobFormat(r.moves_blob[0]) != store::BlobFormat::CompactMoves) {
    r.moves_blob.clear();
    store::encode_moves(start, r.codes, r.moves_blob);
  }

  std::vector<store::TagView> others;
  if (!store::decode_tags(r.tags_blob, others)) return reject(game, "its tags blob is corrupt");
  if (!keep_annotations) r.annotations_blob.clear();
  if (!r.annotations_blob.empty()) {
    // Checked with the store's own reader (text entries and lifted clocks and
    // evaluations), whatever the blob holds; copied as it is.
    thread_local store::AnnotationReader annotations;
    if (!annotations.read(r.annotations_blob)) return reject(game, "its annotations blob is corrupt");
  }
  // Material is derived from the moves: a missing or unusable blob is made again.
  store::MaterialRuns runs;
  if (r.material_blob.empty() || !store::decode_material_runs(r.material_blob, runs) || runs.plies != r.codes.size()) {
    r.material_blob.clear();
    store::encode_material_runs(start, r.codes, r.material_blob);
  }
  rebuild_tags(r, game.eco_source, others);
  r.dedupe_key = dedupe_key_of(r);
  r.copy_header_hash = truncated_copy_header_hash(r);
  return true;
}

}  // namespace pgnbase::indexer
