// One games row as the query library reads it (its tags and annotations payloads are
// read with store/tag_codec.h and store/annotations.h).
//
// Every view in a GameRow points into the SQLite statement it was read from and dies
// at the statement's next step(), reset() or destruction.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/board.h"
#include "core/move_code.h"
#include "store/database.h"
#include "store/stored_columns.h"

namespace pgnbase::query {

struct GameRow {
  int64_t id = 0;
  std::optional<std::string_view> event, site, date, round, white, black, result_tag;
  std::optional<std::string_view> eco, opening, time_control, start_fen;
  std::string_view language;
  std::optional<int64_t> date_key, white_elo, black_elo;
  int result = 0;      // 0 unknown, 1 White won, 2 draw, 3 Black won
  store::EcoSource eco_source = store::EcoSource::None;
  int64_t plies = 0;
  store::Variant variant = store::Variant::Standard;
  std::string_view moves, annotations;  // blobs as stored (header byte + payload)
  std::string_view tags;                // the tags payload (stored without framing)
  int64_t source_id = 0, game_number = 0;
};

// Reads the columns of build_game_query / build_game_by_id_query (game_sql.h).
void read_game_row(const store::Statement& statement, GameRow& row);

// The PGN result token of a games.result code: "1-0", "1/2-1/2", "0-1" or "*".
std::string_view result_token(int result);

// Calls f(name, value) for each tag the row's columns hold, in the order export writes
// them: the Seven Tag Roster (with its placeholders when absent), then WhiteElo,
// BlackElo, ECO (only when it came from the game's tag) and TimeControl.
template <typename F>
void visit_column_tags(const GameRow& row, F&& f) {
  f("Event", row.event.value_or("?"));
  f("Site", row.site.value_or("?"));
  f("Date", row.date.value_or("????.??.??"));
  f("Round", row.round.value_or("?"));
  f("White", row.white.value_or("?"));
  f("Black", row.black.value_or("?"));
  f("Result", row.result_tag.value_or("*"));
  if (row.white_elo) f("WhiteElo", std::to_string(*row.white_elo));
  if (row.black_elo) f("BlackElo", std::to_string(*row.black_elo));
  if (row.eco_source == store::EcoSource::Tag && row.eco) f("ECO", *row.eco);
  if (row.time_control) f("TimeControl", *row.time_control);
}

// Sets board to a stored game's start position: start_fen when present, else the
// standard array (in Chess960 mode for variant 1). False when start_fen is corrupt.


// Plays m (or the null move) on board.
inline void play(Board& board, Move m, UndoInfo& undo) {
  if (m.is_null()) board.do_null_move(undo);
  else board.do_move(m, undo);
}

}  // namespace pgnbase::query
