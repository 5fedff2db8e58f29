#include "core/replay.h"

#include "core/compact_move.h"

namespace pgnbase {

namespace {

bool replay_with(const Board& start, std::span<const std::string_view> tokens, const PieceLetters& letters,
                 ReplayOutput& out, ReplayFailure& failure) {
  out.clear();
  out.codes.reserve(tokens.size());
  out.moves.reserve(tokens.size());
  out.keys.reserve(tokens.size() + 1);
  out.compact.reserve(tokens.size() + 8);
  out.taken.reserve(tokens.size());
  Board board = start;
  out.keys.push_back(board.key());
  UndoInfo undo;
  for (size_t i = 0; i < tokens.size(); ++i) {
    Move m;
    SanError e = parse_move(board, tokens[i], letters, m);
    if (e != SanError::None) {
      failure = {int(i + 1), e, tokens[i]};
      return false;
    }
    out.codes.push_back(encode_move(board, m));
    out.moves.push_back(m);
    append_compact_move(board, out.codes.back(), out.compact);
    if (m.is_null()) board.do_null_move(undo);
    else board.do_move(m, undo);
    out.keys.push_back(board.key());
    out.taken.push_back(m.is_null() || undo.captured == NO_PIECE ? uint8_t(NO_PIECE_TYPE) : uint8_t(type_of(undo.captured)));
  }
  return true;
}

}  // namespace

const PieceLetters* replay_moves(const Board& start, std::span<const std::string_view> tokens,
                                 const PieceLetters* letters, ReplayOutput& out, ReplayFailure& failure) {
  if (letters) return replay_with(start, tokens, *letters, out, failure) ? letters : nullptr;
  // Most games are English: try it first without scanning the tokens.
  if (replay_with(start, tokens, english(), out, failure)) return &english();
  ReplayFailure english_failure = failure;
  std::vector<const PieceLetters*> candidates;
  candidate_languages(tokens, candidates);
  bool english_candidate = false;
  ReplayFailure first_failure{};
  bool have_first = false;
  for (const PieceLetters* candidate : candidates) {
    if (candidate == &english()) {
      english_candidate = true;
      continue;
    }
    if (replay_with(start, tokens, *candidate, out, failure)) return candidate;
    if (!have_first) first_failure = failure, have_first = true;
  }
  failure = (english_candidate || !have_first) ? english_failure : first_failure;
  return nullptr;
}

}  // namespace pgnbase
