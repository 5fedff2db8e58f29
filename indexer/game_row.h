// A game's rows as the import inserts them (games, game_annotations), bound
// to store::sql::kInsertGame and friends: by the writer itself, or beside it on the
// threads of row_staging.h; either way every id the row refers to is given beforehand.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "indexer/game_record.h"
#include "store/database.h"

namespace pgnbase::indexer {

// The ids of the names and the opening a games row refers to, which only the writer can
// give (it interns them in input order), and the Site's per-game suffix (a view into the
// record's Site: store/site_url.h).
struct GameRowRefs {
  std::optional<int64_t> event, site, white, black, opening;
  std::string_view site_suffix;
};

// Where the games row's eco column comes from: the header's ECO tag, else the computed
// classification, else nowhere (NULL).
store::EcoSource eco_source_of(const GameRecord& game);

// Binds kInsertGame's parameters; parameter k is first + k - 1 (a row of a multi-row
// statement). id nullopt leaves the id unbound, for SQLite to give. Texts and blobs are
// bound static: the record must outlive the statement's run.
void bind_game_row(store::Statement& s, int first, const GameRecord& game, const GameRowRefs& refs,
                   int64_t source_id, std::optional<int64_t> id);

inline std::span<const uint8_t> bytes_of(std::string_view s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

// A game whose rows are to be written: its record, its id and the ids its row refers to.
struct GameToWrite {
  const GameRecord* game;
  int64_t id;
  GameRowRefs refs;
};

// Rows go in this many to a statement (store::insert_rows): `batch` below is
// store::multi_row_insert of `one`'s statement for this many rows.
inline constexpr int kGameRowsPerStatement = 16;

// The games rows of games, in order (kInsertGame); bind_ids false leaves the ids for
// SQLite to give, when they follow the largest stored ones.
void insert_games_rows(store::Statement& one, store::Statement& batch, std::span<const GameToWrite> games,
                       int64_t source_id, bool bind_ids);
// Their game_annotations rows (kInsertAnnotations), for the games that have any; after
// their games rows, which they reference.
void insert_annotation_rows(store::Statement& annotations, std::span<const GameToWrite> games);

}  // namespace pgnbase::indexer
