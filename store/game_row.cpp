#include "store/game_row.h"

namespace pgnbase::store {

namespace {

std::optional<std::string_view> text_or_null(const Statement& s, int column) {
  if (s.column_is_null(column)) return std::nullopt;
  return s.column_text(column);
}

std::optional<int64_t> int_or_null(const Statement& s, int column) {
  if (s.column_is_null(column)) return std::nullopt;
  return s.column_int64(column);
}

std::string_view blob_of(const Statement& s, int column) {
  std::span<const std::byte> b = s.column_blob(column);
  return {reinterpret_cast<const char*>(b.data()), b.size()};
}

}  // namespace

void read_game_row(const Statement& s, GameRow& row) {
  row.id = s.column_int64(COL_ID);
  row.event = text_or_null(s, COL_EVENT);
  row.site = text_or_null(s, COL_SITE);
  row.date = text_or_null(s, COL_DATE);
  row.date_key = int_or_null(s, COL_DATE_KEY);
  row.round = text_or_null(s, COL_ROUND);
  row.white = text_or_null(s, COL_WHITE);
  row.black = text_or_null(s, COL_BLACK);
  row.result_tag = text_or_null(s, COL_RESULT_TAG);
  row.result = int(s.column_int64(COL_RESULT));
  row.white_elo = int_or_null(s, COL_WHITE_ELO);
  row.black_elo = int_or_null(s, COL_BLACK_ELO);
  row.eco = text_or_null(s, COL_ECO);
  row.eco_source = EcoSource(s.column_int64(COL_ECO_SOURCE));
  row.opening = text_or_null(s, COL_OPENING);
  row.time_control = text_or_null(s, COL_TIME_CONTROL);
  row.plies = s.column_int64(COL_PLIES);
  row.variant = Variant(s.column_int64(COL_VARIANT));
  row.start_fen = text_or_null(s, COL_START_FEN);
  row.language = s.column_text(COL_LANGUAGE);
  row.moves = blob_of(s, COL_MOVES);
  row.tags = blob_of(s, COL_TAGS);
  row.annotations = blob_of(s, COL_ANNOTATIONS);
  row.source_id = s.column_int64(COL_SOURCE_ID);
  row.game_number = s.column_int64(COL_GAME_NUMBER);
}

std::string_view result_token(int result) {
  switch (result) {
    case 1: return "1-0";
    case 2: return "1/2-1/2";
    case 3: return "0-1";
    default: return "*";
  }
}

}  // namespace pgnbase::store
