// The PGN text of a row of a Parquet table of games, such as lichess's Parquet edition
// (the Lichess/standard-chess-games dataset: Event, Site, White, Black, Result,
// WhiteTitle, BlackTitle, WhiteElo, BlackElo, WhiteRatingDiff, BlackRatingDiff (int16),
// UTCDate (date32), UTCTime (time64), ECO, Opening, Termination, TimeControl, movetext),
// so that its games go through the one PGN pipeline: parsed, verified, rejected and
// deduplicated as the same games read from a .pgn file would be.
//
// The rule, for any table that has a movetext column (named "movetext", any case):
// - every other column is a tag of its name (a null: no tag). Tags come in the order of
//   the seven-tag roster first (Event, Site, Date, Round, White, Black, Result, those the
//   table has), then the other columns in the file's order;
// - without a Date column, a Date tag is made from UTCDate, which stays a tag too;
// - values: text as it is (quotes and backslashes escaped, line breaks made spaces);
//   integers in decimal, with the sign lichess writes for a column named *RatingDiff
//   ("+7", "-6", "+0"); dates YYYY.MM.DD, times of day HH:MM:SS, timestamps
//   "YYYY.MM.DD HH:MM:SS" (a value outside years 0-9999 or a day: ????.??.?? or ??:??:??);
//   booleans true/false; a real that is a whole number as an integer, else its shortest form;
// - the movetext on one line (line breaks made spaces, so that nothing in it can start
//   another game: a row is one game, and a game's number in messages is its row number),
//   ended by the Result column's value when it does not end with a result already
//   ("*" without a Result).
// A column whose name cannot be a tag name (a letter, then letters, digits and '_') is
// refused, except pandas' hidden index columns ("__index_level_0__"), which are left out.
//
// Errors: the constructor throws InputError ("cannot read 'x.parquet': ...") for a table
// without a movetext column or with a column name that cannot be a tag name.
// Thread safety: one thread; the reader must outlive this object.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "dataset/parquet_reader.h"

namespace pgnbase::indexer {

class ParquetGameText {
 public:
  explicit ParquetGameText(const dataset::ParquetReader& reader);

  // Appends the PGN text of the reader's current row to out: tags, a blank line, the
  // movetext and result, a blank line.
  void append_row(std::string& out) const;

 private:
  struct Tag {
    std::string name;
    size_t column;
    bool signed_number = false;  // *RatingDiff: "+7", "+0"
  };
  void append_value(std::string& out, const Tag& tag) const;
  void append_movetext(std::string& out) const;

  const dataset::ParquetReader& reader_;
  std::vector<Tag> tags_;
  size_t movetext_ = 0;
  std::optional<size_t> result_;  // the Result column
};

}  // namespace pgnbase::indexer
