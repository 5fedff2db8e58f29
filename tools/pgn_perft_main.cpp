// pgn-perft: counts the leaf nodes of the legal move tree of a position, to check the
// move generator against published tables (tools/perft_suite.sh runs whole suites).
#include <charconv>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/board.h"
#include "core/fen.h"
#include "core/san.h"
#include "core/movegen.h"

namespace {

using namespace pgnbase;

constexpr int kMaxDepth = 20;

constexpr const char* kUsage =
    "usage: pgn-perft FEN DEPTH [--divide] [--chess960]\n"
    "       pgn-perft --batch [--chess960] < LINES\n"
    "\n"
    "Counts the leaf nodes of the legal move tree of FEN to DEPTH plies and prints the\n"
    "count as the last line of output.\n"
    "\n"
    "  FEN         4 to 6 fields, in one argument (quote it) or spread over several;\n"
    "              castling as KQkq, X-FEN or Shredder-FEN (HAha)\n"
    "  DEPTH       0 to 20\n"
    "  --divide    first print '<uci move>: <count>' for every legal move of FEN\n"
    "              (castling as e1g1, or king takes rook in Chess960)\n"
    "  --chess960  treat FEN as Chess960 even when its castling field looks standard\n"
    "  --batch     read 'DEPTH FEN' lines from stdin and answer each with one line:\n"
    "              the count, or 'error: <why>' (the exit status is then 2)\n"
    "  --help      print this text\n";

std::optional<int> parse_depth(std::string_view text) {
  int depth = -1;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), depth);
  if (ec != std::errc() || end != text.data() + text.size() || depth < 0 || depth > kMaxDepth) return std::nullopt;
  return depth;
}

std::string bad_depth(std::string_view text) {
  return "depth '" + std::string(text) + "' is not a number from 0 to " + std::to_string(kMaxDepth);
}

// Prints '<uci move>: <count>' per legal move and returns the total.
uint64_t divide(Board& board, int depth) {
  if (depth == 0) return 1;
  MoveList list;
  generate_legal_moves(board, list);
  uint64_t nodes = 0;
  for (Move m : list) {
    UndoInfo undo;
    std::string uci;
    append_move(board, m, MoveStyle::Uci, english(), uci);
    board.do_move(m, undo);
    const uint64_t count = perft(board, depth - 1);
    board.undo_move(m, undo);
    std::printf("%s: %llu\n", uci.c_str(), static_cast<unsigned long long>(count));
    nodes += count;
  }
  return nodes;
}

// Answers 'DEPTH FEN' lines; one process for a whole suite saves the start-up cost
// (the attack tables) per position.
int run_batch(bool chess960) {
  bool any_error = false;
  std::string line;
  while (std::getline(std::cin, line)) {
    const size_t space = line.find(' ');
    const std::string_view depth_text = std::string_view(line).substr(0, space);
    const std::string_view fen = space == std::string::npos ? "" : std::string_view(line).substr(space + 1);
    Board board;
    std::string error;
    const auto depth = parse_depth(depth_text);
    if (!depth) error = bad_depth(depth_text);
    else if (Parsed<Board> parsed = parse_fen(fen, chess960)) board = *parsed;
    else error = parsed.error();
    if (!error.empty()) {
      std::printf("error: %s\n", error.c_str());
      any_error = true;
    } else {
      std::printf("%llu\n", static_cast<unsigned long long>(perft(board, *depth)));
    }
    std::fflush(stdout);
  }
  return any_error ? 2 : 0;
}

int fail(const std::string& message) {
  std::fprintf(stderr, "pgn-perft: %s\n", message.c_str());
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  bool want_divide = false, chess960 = false, batch = false;
  std::vector<std::string_view> positional;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    if (arg == "--divide") want_divide = true;
    else if (arg == "--chess960") chess960 = true;
    else if (arg == "--batch") batch = true;
    else if (arg.size() > 2 && arg.substr(0, 2) == "--") return fail("unknown option '" + std::string(arg) + "' (see --help)");
    else positional.push_back(arg);
  }
  if (batch) {
    if (!positional.empty() || want_divide) return fail("--batch reads its positions from stdin and cannot --divide");
    return run_batch(chess960);
  }
  if (positional.size() < 2) return fail("expected a FEN and a depth (see --help)");

  // The depth is the last word, so an unquoted FEN also works.
  const auto depth = parse_depth(positional.back());
  if (!depth) return fail(bad_depth(positional.back()));
  positional.pop_back();
  std::string fen;
  for (std::string_view word : positional) fen += (fen.empty() ? "" : " ") + std::string(word);

  const Parsed<Board> parsed = parse_fen(fen, chess960);
  if (!parsed) return fail(parsed.error());
  Board board = *parsed;
  const uint64_t nodes = want_divide ? divide(board, *depth) : perft(board, *depth);
  std::printf("%llu\n", static_cast<unsigned long long>(nodes));
  return 0;
}
