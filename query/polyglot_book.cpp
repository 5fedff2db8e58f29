#include "query/polyglot_book.h"

#include <algorithm>

#include "core/board.h"
#include "core/move_code.h"
#include "store/moves_codec.h"
#include "store/read_snapshot.h"

namespace pgnbase::query {

namespace {

// One move of one game, before counting: (key, move) and the mover's score.
struct Occurrence {
  uint64_t key;
  uint16_t move;
  uint8_t score;  // 2 win, 1 draw, 0 otherwise
};

void append_big_endian(uint64_t value, int bytes, std::string& out) {
  for (int i = bytes - 1; i >= 0; --i) out += char((value >> (8 * i)) & 0xFF);
}

}  // namespace

uint16_t polyglot_move(Move move) {
  const Square from = move.from(), to = move.to();
  uint16_t code = uint16_t(file_of(to) | (rank_of(to) << 3) | (file_of(from) << 6) | (rank_of(from) << 9));
  if (move.kind() == MoveKind::PROMOTION) code |= uint16_t((move.promotion() - KNIGHT + 1) << 12);
  return code;
}

std::vector<BookEntry> build_book(store::Database& db, const BookOptions& options, int64_t& games_read) {
  store::ReadSnapshot snapshot(db);
  search::GameSearch games(db, options.search);
  std::vector<Occurrence> occurrences;
  games_read = 0;
  while (games.next()) {
    const store::GameRow& row = games.row();
    if (row.variant != store::Variant::Standard) continue;
    Board board;
    if (!store::stored_start_position(row.variant, row.start_fen, board)) continue;
    ++games_read;
    std::span<const MoveCode> codes = games.codes();
    UndoInfo undo;
    for (size_t ply = 0; ply < codes.size() && ply < options.max_ply; ++ply) {
      Move m;
      if (!decode_stored_move(board, codes[ply], m) || m.is_null()) break;
      const bool white = board.side_to_move() == WHITE;
      const uint8_t score = row.result == 2 ? 1 : (row.result == 1 && white) || (row.result == 3 && !white) ? 2 : 0;
      occurrences.push_back({board.key(), polyglot_move(m), score});
      play(board, m, undo);
    }
  }
  std::sort(occurrences.begin(), occurrences.end(),
            [](const Occurrence& a, const Occurrence& b) { return a.key != b.key ? a.key < b.key : a.move < b.move; });
  std::vector<BookEntry> entries;
  std::vector<uint64_t> scores;
  for (size_t i = 0; i < occurrences.size();) {
    size_t j = i;
    uint64_t score = 0;
    while (j < occurrences.size() && occurrences[j].key == occurrences[i].key && occurrences[j].move == occurrences[i].move)
      score += occurrences[j++].score;
    if (j - i >= options.min_games && score > 0) {
      entries.push_back({occurrences[i].key, occurrences[i].move, 0, uint32_t(j - i)});
      scores.push_back(score);
    }
    i = j;
  }
  const uint64_t highest = scores.empty() ? 0 : *std::max_element(scores.begin(), scores.end());
  const uint64_t divisor = highest > 65535 ? (highest + 65534) / 65535 : 1;
  for (size_t i = 0; i < entries.size(); ++i) entries[i].weight = uint16_t((scores[i] + divisor - 1) / divisor);
  std::stable_sort(entries.begin(), entries.end(), [](const BookEntry& a, const BookEntry& b) {
    return a.key != b.key ? a.key < b.key : a.weight > b.weight;
  });
  return entries;
}

void write_book(const std::vector<BookEntry>& entries, io::OutputFile& out) {
  for (const BookEntry& e : entries) {
    std::string& o = out.buffer();
    append_big_endian(e.key, 8, o);
    append_big_endian(e.move, 2, o);
    append_big_endian(e.weight, 2, o);
    append_big_endian(0, 4, o);
    out.maybe_flush();
  }
}

}  // namespace pgnbase::query
