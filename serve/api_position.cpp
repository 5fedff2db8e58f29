// GET /api/position: the board's rules for the page (core's perft-proven move generator
// answers which moves are legal, so the page carries no chess rules of its own).
#include "core/fen.h"
#include "core/movegen.h"
#include "core/san.h"
#include "query/json_object.h"
#include "serve/api.h"

namespace pgnbase::serve {

std::string position_json(const ApiRequest& request) {
  request.check_names({"fen", "play"});
  std::vector<std::string> line;
  const Board board = request.position(nullptr, &line);
  MoveList legal;
  generate_legal_moves(board, legal);
  std::string out;
  query::JsonObject top(out);
  top.text("fen", write_fen(board)).text("turn", board.side_to_move() == WHITE ? "white" : "black");
  top.key("check") += board.in_check() ? "true" : "false";
  std::string& sans = top.key("line");
  sans += '[';
  for (const std::string& san : line) {
    if (sans.back() != '[') sans += ',';
    query::append_json_string(san, sans);
  }
  sans += ']';
  std::string& moves = top.key("legal");
  moves += '[';
  std::string uci;
  for (const Move m : legal) {
    if (moves.back() != '[') moves += ',';
    uci.clear();
    append_move(board, m, MoveStyle::Uci, english(), uci);
    query::JsonObject o(moves);
    o.text("uci", uci).text("san", to_san(board, m));
  }
  moves += ']';
  return out;
}

}  // namespace pgnbase::serve
