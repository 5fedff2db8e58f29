#include "query/explorer_pgn.h"

#include <cstdio>

#include "core/fen.h"
#include "core/san.h"

namespace pgnbase::query {

namespace {

// "12." before White's move, "12..." before Black's (every move follows a comment or
// opens a variation, so Black's always needs its number).
std::string move_number(const Board& board) {
  return std::to_string(board.fullmove_number()) + (board.side_to_move() == WHITE ? ". " : "... ");
}

std::string stats_comment(const search::ExplorerMove& m) {
  char text[96];
  auto percent = [&](uint64_t n) { return m.games ? 100.0 * double(n) / double(m.games) : 0.0; };
  std::snprintf(text, sizeof text, "{%llu game%s, +%.1f%% =%.1f%% -%.1f%%}", (unsigned long long)m.games,
                m.games == 1 ? "" : "s", percent(m.white_wins), percent(m.draws), percent(m.black_wins));
  return text;
}

class TreeWriter {
 public:
  TreeWriter(store::Database& db, const search::ExplorerOptions& options, const ExplorerTreeOptions& tree)
      : db_(db), options_(options), tree_(tree) {
    options_.top_games = 0;
    options_.path_keys.clear();
  }

  // Appends the moves from board (already explored as result), depth plies deep.
  void write(const Board& board, const search::ExplorerResult& result, size_t depth, std::string& out) {
    if (depth == 0) return;
    uint64_t with_moves = 0;
    for (const search::ExplorerMove& m : result.moves) with_moves += m.games;
    std::vector<const search::ExplorerMove*> kept;
    for (const search::ExplorerMove& m : result.moves)
      if (kept.size() < tree_.max_moves && double(m.games) >= tree_.min_share * double(with_moves)) kept.push_back(&m);
    if (kept.empty()) return;
    // The main move, then the others as variations (each with its own subtree), then the
    // main move's subtree.
    out += ' ' + move_number(board) + kept[0]->san + ' ' + stats_comment(*kept[0]);
    for (size_t i = 1; i < kept.size(); ++i) {
      out += " (" + move_number(board) + kept[i]->san + ' ' + stats_comment(*kept[i]);
      write_child(*kept[i], depth, out);
      out += ')';
    }
    write_child(*kept[0], depth, out);
  }

 private:
  void write_child(const search::ExplorerMove& m, size_t depth, std::string& out) {
    if (depth <= 1) return;
    Parsed<Board> child = parse_fen(m.fen);
    if (!child) return;
    search::ExplorerOptions options = options_;
    options.filter.position = *child;
    write(*child, search::explore(db_, options), depth - 1, out);
  }

  store::Database& db_;
  search::ExplorerOptions options_;
  const ExplorerTreeOptions& tree_;
};

}  // namespace

void print_explorer_pgn(store::Database& db, const search::ExplorerOptions& options, const search::MoveSequence* path,
                        const ExplorerTreeOptions& tree, io::OutputFile& out) {
  const Board& root = *options.filter.position;
  std::string text = "[Event \"pgnbase explorer\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n"
                     "[Black \"?\"]\n[Result \"*\"]\n";
  if (!path) text += "[SetUp \"1\"]\n[FEN \"" + write_fen(root) + "\"]\n";
  text += '\n';
  std::string moves;
  if (path) {
    for (size_t i = 0; i < path->moves.size(); ++i) {
      const Board& b = path->positions[i];
      if (b.side_to_move() == WHITE || i == 0) moves += move_number(b);
      append_san(b, path->moves[i], moves);
      moves += ' ';
    }
  }
  const search::ExplorerResult result = search::explore(db, options);
  std::string tree_text;
  TreeWriter(db, options, tree).write(root, result, tree.depth, tree_text);
  moves += tree_text.empty() ? "" : tree_text.substr(1);
  moves += (moves.empty() || moves.back() == ' ' ? "" : " ") + std::string("*");
  // Lines of at most 80 columns, broken at blanks (comments may hold blanks; PGN allows it).
  size_t column = 0;
  size_t start = 0;
  while (start < moves.size()) {
    size_t end = moves.find(' ', start);
    if (end == std::string::npos) end = moves.size();
    const size_t length = end - start;
    if (column && column + 1 + length > 79) {
      text += '\n';
      column = 0;
    } else if (column) {
      text += ' ';
      ++column;
    }
    text.append(moves, start, length);
    column += length;
    start = end + 1;
  }
  text += "\n\n";
  out.buffer() += text;
}

}  // namespace pgnbase::query
