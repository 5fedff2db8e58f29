// The JSON API of `pgn-query serve` (docs/api.md): one function per endpoint, each
// answering from one read-only connection inside one read snapshot. They throw
// RequestError (400), NotFound (404), or the store's errors (500; 503 when the request's
// deadline interrupted it); http_server.cpp turns them into answers.
#pragma once

#include <cstdint>
#include <string>

#include "search/game_search.h"
#include "serve/api_request.h"
#include "store/database.h"

namespace pgnbase::serve {

// No such game or player (404): what was asked, in one line.
struct NotFound {
  std::string message;
};

// GET /api/explorer: the opening explorer in the shape of the lichess explorer API.
std::string explorer_json(store::Database& db, const ApiRequest& request);
// GET /api/search: one page of the games matching the filters, whether more follow, and
// how many match where counting them examines at most count_max_games games
// (search::GameSearch::count_all_examining_at_most; null otherwise).
std::string search_json(store::Database& db, const ApiRequest& request,
                        uint64_t count_max_games = search::kCheapCountGames);
// GET /api/game/ID: the game's header, moves (SAN, UCI, FEN per ply, annotations) and PGN.
std::string game_json(store::Database& db, int64_t id);
// GET /api/player?name=NAME: `pgn-query player --json`, plus the rating of every game.
std::string player_json(store::Database& db, const ApiRequest& request);
// GET /api/stats: `pgn-query stats --json`.
std::string stats_json(store::Database& db);
// GET /api/position?fen=FEN&play=MOVES: the position after the moves, its legal moves
// (for the page's board) and the line in SAN. Needs no database.
std::string position_json(const ApiRequest& request);

}  // namespace pgnbase::serve
