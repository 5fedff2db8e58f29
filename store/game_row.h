// One games row as every reader reads it (query, the dataset export, the import's
// truncated-copy check): the columns of store/game_query.h's kGameColumns, in that
// order. Its tags and annotations payloads are read with store/tag_codec.h and
// store/annotations.h.
//
// Every view in a GameRow points into the SQLite statement it was read from and dies
// at the statement's next step(), reset() or destruction.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "store/database.h"
#include "store/stored_columns.h"

namespace pgnbase::store {

// Columns of every games query, in this order (kGameColumns in game_query.cpp).
enum GameColumn : int {
  COL_ID, COL_EVENT, COL_SITE, COL_DATE, COL_DATE_KEY, COL_ROUND, COL_WHITE, COL_BLACK,
  COL_RESULT_TAG, COL_RESULT, COL_WHITE_ELO, COL_BLACK_ELO, COL_ECO, COL_ECO_SOURCE, COL_OPENING,
  COL_TIME_CONTROL, COL_PLIES, COL_VARIANT, COL_START_FEN, COL_LANGUAGE, COL_MOVES, COL_TAGS,
  COL_ANNOTATIONS, COL_SOURCE_ID, COL_GAME_NUMBER,
  GAME_COLUMN_COUNT
};

struct GameRow {
  int64_t id = 0;
  std::optional<std::string_view> event, site, date, round, white, black, result_tag;
  std::optional<std::string_view> eco, opening, time_control, start_fen;
  std::string_view language;
  std::optional<int64_t> date_key, white_elo, black_elo;
  int result = 0;      // 0 unknown, 1 White won, 2 draw, 3 Black won
  EcoSource eco_source = EcoSource::None;
  int64_t plies = 0;
  Variant variant = Variant::Standard;
  std::string_view moves, annotations;  // blobs as stored (header byte + payload)
  std::string_view tags;                // the tags payload (stored without framing)
  int64_t source_id = 0, game_number = 0;
};

// Reads the columns of build_game_query / build_game_by_id_query (game_query.h).
void read_game_row(const Statement& statement, GameRow& row);

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
  if (row.eco_source == EcoSource::Tag && row.eco) f("ECO", *row.eco);
  if (row.time_control) f("TimeControl", *row.time_control);
}

}  // namespace pgnbase::store
