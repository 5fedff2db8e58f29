#include "search/move_sequence.h"

#include <algorithm>
#include <cctype>

#include "core/fen.h"
#include "core/move_code.h"
#include "core/replay.h"
#include "store/position_index_reader.h"
#include "store/game_row.h"
#include "store/game_query.h"
#include "store/games_sql.h"
#include "search/position_search.h"

namespace pgnbase::search {

namespace {

// "12." / "12..." / "12.e4" / "12...Nf6": the move number part, or 0 when there is none.
size_t move_number_length(std::string_view token) {
  size_t i = 0;
  while (i < token.size() && std::isdigit(static_cast<unsigned char>(token[i]))) ++i;
  if (i == 0 || i == token.size() || token[i] != '.') return 0;
  while (i < token.size() && token[i] == '.') ++i;
  return i;
}

}  // namespace

Parsed<MoveSequence> parse_move_sequence(std::string_view text) {
  std::vector<std::string_view> tokens;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    size_t end = i;
    while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end]))) ++end;
    std::string_view token = text.substr(i, end - i);
    token.remove_prefix(move_number_length(token));
    if (!token.empty()) tokens.push_back(token);
    i = end;
  }
  if (tokens.empty()) return ParseError{"--moves holds no move"};
  const Board start = parse_fen(kStartFen).value();
  ReplayOutput replay;
  ReplayFailure failure;
  if (!replay_moves(start, tokens, nullptr, replay, failure))
    return ParseError{"bad --moves: ply " + std::to_string(failure.ply) + " '" + std::string(failure.token) +
                      "': " + describe(failure.error)};
  MoveSequence out;
  out.positions.assign(1, start);
  out.moves = replay.moves;
  UndoInfo undo;
  for (Move m : replay.moves) {
    Board next = out.positions.back();
    play(next, m, undo);
    out.positions.push_back(next);
  }
  return out;
}

std::vector<uint32_t> games_starting_with(store::Database& db, const MoveSequence& sequence) {
  struct Sighting {
    uint32_t game;
    bool plays_move;  // the posting's next move is the sequence's move
    bool unknown;     // a lean posting without its move
  };
  const size_t n = sequence.moves.size();
  std::vector<uint32_t> qualified, replay_ids;  // qualified: ascending, at every level so far
  std::vector<Sighting> sightings;
  store::PositionIndexReader reader(db);
  reader.set_decode_threads(store::PositionIndexReader::default_decode_threads());
  // Deepest position first: it has the fewest games, and each shallower level (down to
  // the start position, which every game reaches) only looks up those still qualified.
  for (size_t level = n; level-- > 0;) {
    const Board& position = sequence.positions[level];
    const bool first = level == n - 1;
    sightings.clear();
    reader.visit(position.key(), [&](std::span<const store::Posting> postings) {
      for (const store::Posting& p : postings) {
        if (!first && !std::binary_search(qualified.begin(), qualified.end(), p.game_id)) continue;
        Move m;
        const bool unknown = p.next_move == store::kUnknownNextMove;
        sightings.push_back({p.game_id,
                             !unknown && decode_stored_move(position, p.next_move, m) && m == sequence.moves[level],
                             unknown});
      }
    });
    auto by_game = [](const Sighting& a, const Sighting& b) { return a.game < b.game; };
    if (!std::is_sorted(sightings.begin(), sightings.end(), by_game))  // several segments
      std::stable_sort(sightings.begin(), sightings.end(), by_game);
    // A game seen once here playing the move goes on; seen more often, or without its
    // move, it is replayed; otherwise it does not start with the sequence.
    qualified.clear();
    for (size_t i = 0; i < sightings.size();) {
      size_t end = i + 1;
      while (end < sightings.size() && sightings[end].game == sightings[i].game) ++end;
      if (end - i > 1 || sightings[i].unknown) replay_ids.push_back(sightings[i].game);
      else if (sightings[i].plays_move) qualified.push_back(sightings[i].game);
      i = end;
    }
  }
  std::vector<uint32_t> ids = std::move(qualified);
  // Undecided games: replay their first n plies from their stored start.
  store::Statement moves = db.prepare(store::sql::kGameMovesById);
  std::vector<MoveCode> codes;
  Board start;
  for (uint32_t id : replay_ids) {
    moves.reset();
    moves.bind_int64(1, id);
    // Only the first n moves are read.
    if (!moves.step() || !read_replay_row(moves, codes, start, [&](const Board&, size_t ply) { return ply < n; }) ||
        codes.size() < n || !same_position(start, sequence.positions[0]))
      continue;
    bool same = true;
    for (size_t ply = 0; ply < n && same; ++ply) {
      Move m;
      same = decode_stored_move(sequence.positions[ply], codes[ply], m) && m == sequence.moves[ply];
    }
    if (same) ids.push_back(id);
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

}  // namespace pgnbase::search
