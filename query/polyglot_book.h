// `pgn-query book`: a Polyglot opening book (http://hgm.nubati.net/book_format.html) made
// from the games a filter selects. Each entry is 16 bytes, big-endian: the position's
// Polyglot key (8), the move (2: to file, to row, from file, from row, promotion piece in
// bits 0-2, 3-5, 6-8, 9-11, 12-14; castling as the king taking its rook, e1h1), the
// weight (2) and a learn field (4, zero); entries sorted by key.
//
// Weights come from results: a move scores 2 for each game the side that played it won,
// 1 for each draw, 0 for a loss or an unknown result (Polyglot's own make-book counts the
// same way); a move played in fewer than min_games games, or whose score is 0, is left
// out. When a score exceeds 65535 every weight of the book is scaled down by the same
// factor (rounding up, so no kept move falls to 0).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "io/output_file.h"
#include "search/game_search.h"
#include "store/database.h"

namespace pgnbase::query {

struct BookEntry {
  uint64_t key = 0;
  uint16_t move = 0;  // Polyglot's encoding
  uint16_t weight = 0;
  uint32_t games = 0;  // games behind it (not written)
};

struct BookOptions {
  search::SearchOptions search;  // the games (filters)
  uint32_t max_ply = 20;         // moves played from plies 0 .. max_ply - 1
  uint32_t min_games = 3;
};

// The entries of the book, sorted by key and, within a key, by weight (highest first).
// Games of other variants than standard chess are left out.
std::vector<BookEntry> build_book(store::Database& db, const BookOptions& options, int64_t& games_read);

// The 16-byte records of the entries, in order.
void write_book(const std::vector<BookEntry>& entries, io::OutputFile& out);

// The Polyglot encoding of a move.
uint16_t polyglot_move(Move move);

}  // namespace pgnbase::query
