// A game's rows as the import inserts them (games, game_material, game_annotations), bound
// to store::sql::kInsertGame and friends: by the writer itself, or beside it on the
// threads of row_staging.h, which then need every id the row refers to given beforehand.
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

// Binds kInsertGame's parameters; parameter k is first + k - 1 (a row of a multi-row
// statement). id nullopt leaves the id unbound, for SQLite to give. Texts and blobs are
// bound static: the record must outlive the statement's run.
void bind_game_row(store::Statement& s, int first, const GameRecord& game, const GameRowRefs& refs,
                   int64_t source_id, std::optional<int64_t> id);

inline std::span<const uint8_t> bytes_of(std::string_view s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

}  // namespace pgnbase::indexer
