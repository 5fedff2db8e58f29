#include "indexer/row_staging.h"

#include <algorithm>
#include <chrono>

#include "core/thread_group.h"
#include "store/games_sql.h"
#include "store/material_blocks.h"
#include "store/names_sql.h"
#include "store/schema.h"
#include "store/multi_row_insert.h"

namespace pgnbase::indexer {

namespace {

// Annotations blobs up to this many bytes a game on average are staged: lichess's clocks
// take about 200, TCEC's engine comments several thousand.
constexpr size_t kStagedAnnotationBytesPerGame = 1024;

// A private in-memory database with the staged tables.
std::unique_ptr<store::Database> make_stage(const std::vector<std::string>& definitions) {
  auto stage = std::make_unique<store::Database>(":memory:", store::Database::Mode::Create);
  stage->exec(store::sql::kStagingSettings);
  for (const std::string& definition : definitions) stage->exec(definition);
  return stage;
}

// The runs of the staged games, by id: consecutive ids (RowStaging::start).
std::string_view runs_of(std::span<const GameToWrite> all, int64_t id) {
  return all[size_t(id - all.front().id)].game->material_blob;
}

// One part's rows in its stage, emptied first, returned as the stage's image: its games'
// rows, their annotations', and the whole material blocks that begin in the part (whose
// later games may be the next part's: all are the chunk's, read only).
store::DatabaseImage build_part(store::Database& stage, std::span<const GameToWrite> games, int64_t source_id,
                                bool with_annotations, std::span<const GameToWrite> all,
                                store::WholeMaterialBlocks material) {
  static const std::string kGamesBatch = store::multi_row_insert(store::sql::kInsertGame, kGameRowsPerStatement);
  store::Transaction t(stage);
  stage.exec(store::sql::kEmptyStagedTables);
  insert_games_rows(stage.cached(store::sql::kInsertGame), stage.cached(kGamesBatch), games, source_id, true);
  if (with_annotations) insert_annotation_rows(stage.cached(store::sql::kInsertAnnotations), games);
  store::write_whole_material_blocks(stage, material.beginning_in(games.front().id, games.back().id),
                                     [all](int64_t id) { return runs_of(all, id); });
  t.commit();
  return stage.image();
}

// Moves the loaded image's rows of one table, checking that exactly `rows` came, the last
// with id last_id (a table with ids).
void move_rows(store::Database& db, std::string_view sql, size_t rows, std::optional<int64_t> last_id,
               const char* table) {
  if (rows == 0) return;
  db.cached(sql).run();
  if (db.changes() != int64_t(rows) || (last_id && db.last_insert_rowid() != *last_id))
    throw store::StoreError(store::StoreErrorKind::Other, 0,
                            db.path() + ": " + std::to_string(db.changes()) + " staged rows of " + table +
                                " moved, the last with id " + std::to_string(db.last_insert_rowid()) + ", instead of " +
                                std::to_string(rows) + " up to id " + std::to_string(last_id.value_or(0)) +
                                " (a bug; nothing of this source was kept)");
}

}  // namespace

RowStaging::RowStaging(store::Database& db) {
  store::Statement s = db.prepare(store::sql::kStagedTableDefinitions);
  while (s.step()) definitions_.emplace_back(s.column_text(0));
  store::Statement index = db.prepare(store::sql::kIndexDefinition);
  for (const store::PartialGamesIndex& partial : store::kPartialGamesIndexes) {
    index.reset();
    index.bind_text(1, partial.name);
    index_definitions_.emplace_back(index.step() ? index.column_text(0) : "");
  }
  store::Statement words = db.prepare(store::sql::kNameWordsDefinition);
  if (words.step()) name_words_definition_ = words.column_text(0);
  db.attach_in_memory(store::sql::kStagedRows);
}

RowStaging::~RowStaging() = default;

size_t RowStaging::start(std::vector<GameToWrite> games, int64_t source_id, unsigned threads,
                         store::PartialIndexSet indexes, store::WholeMaterialBlocks material) {
  games_ = std::move(games);
  material_ = material;
  size_t annotation_bytes = 0;
  for (const GameToWrite& g : games_) annotation_bytes += g.game->annotations_blob.size();
  with_annotations_ = annotation_bytes <= kStagedAnnotationBytesPerGame * games_.size();
  const size_t parts = std::clamp<size_t>(games_.size() / kFewestGamesPerPart, 1, std::max(1u, threads));
  slices_.clear();
  for (size_t p = 0, begin = 0; p < parts; ++p) {
    const size_t end = games_.size() * (p + 1) / parts;
    slices_.push_back(std::span<const GameToWrite>(games_).subspan(begin, end - begin));
    begin = end;
  }
  images_.clear();
  images_.resize(parts);
  if (stages_.size() < parts) stages_.resize(parts);
  threads_.run(parts, [this, source_id, indexes](size_t p) {
    Stage& stage = stages_[p];
    if (!stage.db) stage.db = make_stage(definitions_);
    match_indexes(stage, indexes);
    images_[p] = build_part(*stage.db, slices_[p], source_id, with_annotations_, games_, material_);
  });
  return parts;
}

void RowStaging::match_indexes(Stage& stage, store::PartialIndexSet indexes) const {
  for (size_t i = 0; i < index_definitions_.size(); ++i) {
    const store::PartialIndexSet bit = 1u << i;
    if ((stage.indexes & bit) && !(indexes & bit)) stage.db->exec(store::kPartialGamesIndexes[i].drop_sql);
    if (!(stage.indexes & bit) && (indexes & bit) && !index_definitions_[i].empty())
      stage.db->exec(index_definitions_[i]);  // on an empty table, or one part's rows of an earlier import
  }
  stage.indexes = indexes;
}

std::optional<bool> RowStaging::finish(store::Database& db) {
  {
    const auto waiting = std::chrono::steady_clock::now();
    threads_.wait();  // rethrows a part's error
    waited_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - waiting).count();
  }
  for (size_t p = 0; p < slices_.size(); ++p) {
    const std::span<const GameToWrite> slice = slices_[p];
    if (!db.load_image(store::sql::kStagedRows, std::move(images_[p]))) {
      if (p == 0) return std::nullopt;
      throw store::StoreError(store::StoreErrorKind::Busy, 0,
                              db.path() + ": SQLite refused a staged part after taking the first (a bug; nothing "
                                          "of this source was kept)");
    }
    move_rows(db, store::sql::kMoveStagedGames, slice.size(), slice.back().id, "games");
    if (const store::WholeMaterialBlocks blocks = material_.beginning_in(slice.front().id, slice.back().id);
        blocks.blocks() > 0)
      move_rows(db, store::sql::kMoveStagedMaterialBlocks, size_t(blocks.blocks()), store::material_block_of(blocks.last),
                "material_blocks");
    if (!with_annotations_) continue;
    size_t annotated = 0;
    int64_t last_annotated = 0;
    for (const GameToWrite& g : slice)
      if (!g.game->annotations_blob.empty()) {
        ++annotated;
        last_annotated = g.id;
      }
    move_rows(db, store::sql::kMoveStagedAnnotations, annotated, last_annotated, "game_annotations");
  }
  return with_annotations_;
}

store::DatabaseImage RowStaging::build_name_words(std::span<const std::pair<std::string, int64_t>> words) const {
  static const std::string kWordsBatch = store::multi_row_insert(store::sql::kInsertNameWord, kGameRowsPerStatement);
  store::Database stage(":memory:", store::Database::Mode::Create);
  stage.exec(name_words_definition_);
  store::Transaction t(stage);
  store::insert_rows(stage.cached(store::sql::kInsertNameWord), stage.cached(kWordsBatch), kGameRowsPerStatement, 2,
                     words.size(), [&](store::Statement& s, int first, size_t row) {
                       s.bind_text_static(first, words[row].first);
                       s.bind_int64(first + 1, words[row].second);
                     });
  t.commit();
  return stage.image();
}

bool RowStaging::move_name_words(store::Database& db, store::DatabaseImage image, size_t rows) {
  if (!db.load_image(store::sql::kStagedRows, std::move(image))) return false;
  move_rows(db, store::sql::kMoveStagedNameWords, rows, std::nullopt, "name_words");
  return true;
}

void RowStaging::abandon() noexcept {
  threads_.abandon();
  images_.clear();
  slices_.clear();
  games_.clear();
  material_ = {};
}

void RowStaging::write_material_blocks(store::Database& db) const {
  store::write_whole_material_blocks(db, material_, [this](int64_t id) { return runs_of(games_, id); });
}

}  // namespace pgnbase::indexer
