// `pgn-query show DB ID`: one game as a reader wants it, or the position at one of its
// plies.
//
// Text view: the game's tags one per line (export order, query/pgn_writer.h), the
// computed opening when the file had no ECO tag, then the moves one full move per line
// with their numbers, in the chosen notation, with comments, NAGs and variations after
// the move they follow (unless annotations are off). With a ply: the board after that
// many half-moves as an 8x8 diagram (White at the bottom, upper case White, '.' empty),
// whose move it is, the move that led there, and its FEN.
// PGN and JSON Lines are the search/export formats (pgn_writer.h, json_writer.h); a
// ply in JSON Lines gives {"id","ply","move","side_to_move","fen"}.
#pragma once

#include <cstdint>
#include <optional>

#include "store/database.h"
#include "io/output_file.h"
#include "query/output_format.h"
#include "query/pgn_writer.h"

namespace pgnbase::query {

struct ShowOptions {
  int64_t id = 0;
  std::optional<int64_t> ply;  // the position after this many half-moves (0: the start)
  OutputFormat format = OutputFormat::Text;  // Text, Pgn or Json
  PgnWriteOptions pgn;         // notation and annotations, for the text view too
};

enum class ShowStatus : uint8_t {
  Shown,
  NoSuchGame,
  PlyOutOfRange,  // options.ply is past the game's last move
  Corrupt,        // the stored moves or tags do not decode
};

struct ShowResult {
  ShowStatus status = ShowStatus::Shown;
  int64_t plies = 0;   // the game's length (for PlyOutOfRange)
  int64_t max_id = 0;  // the highest game id (for NoSuchGame)
};

// Writes the game to out (nothing unless Shown). Runs in one read transaction.
ShowResult show_game(store::Database& db, const ShowOptions& options, io::OutputFile& out);

}  // namespace pgnbase::query
