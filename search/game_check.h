// Why a stored game cannot be written or replayed: a database may come from anyone, so
// every reader checks what it decodes, and a game found corrupt is reported to the user
// as `corrupt game ID: REASON` (once) while the command goes on with the others.
//
// The writers only answer "corrupt or not" on their hot path; these functions run on
// the rare failure to name the first thing wrong, in the order the writers read it.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "store/game_row.h"

namespace pgnbase::search {

// Receives each corrupt game once, on the thread that runs the command (not on a
// formatting worker). reason is one line.
using CorruptGameReport = std::function<void(int64_t game_id, const std::string& reason)>;

// The first reason a game's replay fails: a bad start FEN, a moves blob that does not
// decode, a plies count (when given) other than the codes stored, or the first move
// code that is not a legal move. Empty when the moves replay.
std::string diagnose_moves(store::Variant variant, std::optional<std::string_view> start_fen, std::string_view moves_blob,
                           std::optional<int64_t> plies);

// Why the current row of game_moves_by_id_sql (moves, variant, start_fen, ...), which
// did not replay, is corrupt; never empty.
std::string replay_failure(const store::Statement& row);

// As diagnose_moves, then the tags payload and (when with_annotations) the annotations.
std::string diagnose_game(const store::GameRow& row, bool with_annotations);

}  // namespace pgnbase::search
