#include "search/position_search.h"

#include <algorithm>

#include "store/blob_codec.h"
#include "store/moves_codec.h"
#include "store/position_index_reader.h"
#include "store/game_row.h"

namespace pgnbase::search {

namespace {

Square capturable_en_passant(const Board& b) {
  return b.en_passant_capturable_pseudo() ? b.en_passant() : SQ_NONE;
}

}  // namespace

bool same_position(const Board& a, const Board& b) {
  if (a.key() != b.key() || a.side_to_move() != b.side_to_move() || a.castling_rights() != b.castling_rights())
    return false;
  if (a.pieces(WHITE) != b.pieces(WHITE) || a.pieces(BLACK) != b.pieces(BLACK)) return false;
  for (int pt = PAWN; pt <= KING; ++pt)
    if (a.pieces(PieceType(pt)) != b.pieces(PieceType(pt))) return false;
  return capturable_en_passant(a) == capturable_en_passant(b);
}

void find_candidates(store::Database& db, const Board& position, PositionCandidates& out) {
  store::PositionIndexReader reader(db);
  reader.set_decode_threads(store::PositionIndexReader::default_decode_threads());
  out.postings = reader.lookup(position.key());
  out.games.clear();
  for (uint32_t i = 0; i < out.postings.size(); ++i) {
    const uint32_t id = out.postings[i].game_id;
    if (out.games.empty() || out.games.back().game_id != id) out.games.push_back({id, i, 0});
    ++out.games.back().count;
  }
}

namespace {

// The moves blob of a kGameMovesById row, with start set to the game's start position;
// nullopt when its start FEN does not parse.
std::optional<std::string_view> moves_and_start(const store::Statement& row, Board& start) {
  std::optional<std::string_view> start_fen;
  if (!row.column_is_null(2)) start_fen = row.column_text(2);
  if (!store::stored_start_position(store::Variant(row.column_int64(1)), start_fen, start)) return std::nullopt;
  const std::span<const std::byte> blob = row.column_blob(0);
  return std::string_view(reinterpret_cast<const char*>(blob.data()), blob.size());
}

}  // namespace

bool read_replay_row(const store::Statement& row, std::vector<MoveCode>& codes, Board& start) {
  const std::optional<std::string_view> blob = moves_and_start(row, start);
  return blob && store::decode_moves(*blob, start, codes);
}

bool read_replay_row(const store::Statement& row, std::vector<MoveCode>& codes, Board& start,
                     const store::PositionVisit& visit) {
  const std::optional<std::string_view> blob = moves_and_start(row, start);
  return blob && store::decode_moves(*blob, start, codes, visit);
}

bool confirm_plies(const Board& start, std::span<const MoveCode> codes, const Board& position,
                   std::span<const store::Posting> candidate_postings, std::vector<uint32_t>& confirmed_plies) {
  Board board = start;
  size_t ply = 0;
  UndoInfo undo;
  auto advance_to = [&](size_t target) {
    for (; ply < target; ++ply) {
      Move m;
      if (!decode_stored_move(board, codes[ply], m)) return false;
      play(board, m, undo);
    }
    return true;
  };
  const bool plies_known = std::none_of(candidate_postings.begin(), candidate_postings.end(),
                                        [](const store::Posting& p) { return p.ply == store::kUnknownPly; });
  if (!plies_known) {
    // A lean segment does not store plies: look at every position of the game.
    for (size_t target = 0; target <= codes.size(); ++target) {
      if (!advance_to(target)) return false;
      if (same_position(board, position)) confirmed_plies.push_back(uint32_t(target));
    }
    return true;
  }
  for (const store::Posting& p : candidate_postings) {
    const size_t target = p.ply;
    if (target > codes.size()) break;
    if (!advance_to(target)) return false;
    if (same_position(board, position)) confirmed_plies.push_back(uint32_t(target));
  }
  return true;
}

Reachability::Reachability(const Board& position) {
  home_pawns_ = {position.pieces(WHITE, PAWN) & rank_bb(RANK_2), position.pieces(BLACK, PAWN) & rank_bb(RANK_7)};
  men_ = {popcount(position.pieces(WHITE)), popcount(position.pieces(BLACK))};
}

bool Reachability::lost(const Board& board) const {
  return (home_pawns_[WHITE] & ~board.pieces(WHITE, PAWN)) || (home_pawns_[BLACK] & ~board.pieces(BLACK, PAWN)) ||
         popcount(board.pieces(WHITE)) < men_[WHITE] || popcount(board.pieces(BLACK)) < men_[BLACK];
}

bool read_and_confirm(const store::Statement& row, const Board& position,
                      std::span<const store::Posting> candidate_postings, std::vector<MoveCode>& codes, Board& start,
                      std::vector<uint32_t>& confirmed_plies, bool& read_all) {
  read_all = true;
  const bool plies_known = std::none_of(candidate_postings.begin(), candidate_postings.end(),
                                        [](const store::Posting& p) { return p.ply == store::kUnknownPly; });
  if (plies_known)
    return read_replay_row(row, codes, start) &&
           confirm_plies(start, codes, position, candidate_postings, confirmed_plies);
  const std::optional<std::string_view> blob = moves_and_start(row, start);
  const Reachability reachability(position);
  return blob && store::decode_moves(*blob, start, codes, [&](const Board& board, size_t ply) {
           if (same_position(board, position)) confirmed_plies.push_back(uint32_t(ply));
           else if (reachability.lost(board)) read_all = false;
           return read_all;
         });
}

}  // namespace pgnbase::search
