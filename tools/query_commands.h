// The run functions of pgn-query's commands, for the table in pgn_query_main.cpp.
#pragma once

#include "tools/query_command.h"

namespace pgnbase::tools {

// The help of the DB argument, which most commands take first.
inline constexpr const char* kDatabase = "the database path";

// query_commands_games.cpp
int run_search(QueryContext& ctx);
int run_export(QueryContext& ctx);
int run_show(QueryContext& ctx);
// query_commands_reports.cpp
int run_explore(QueryContext& ctx);
int run_stats(QueryContext& ctx);
int run_rejects(QueryContext& ctx);
int run_player(QueryContext& ctx);
int run_players(QueryContext& ctx);
int run_events(QueryContext& ctx);
// query_commands_dataset.cpp
int run_export_dataset(QueryContext& ctx);
int run_key(QueryContext& ctx);
// query_commands_book.cpp
int run_book(QueryContext& ctx);
int run_event(QueryContext& ctx);
// query_commands_serve.cpp, linked into pgn-query-serve only (pgn_query_serve_main.cpp):
// pgn-query lists serve and runs that program for it.
int run_serve(QueryContext& ctx);
inline constexpr const char* kServeSummary =
    "the database in a browser (explorer, search, games, players) and its JSON API";
inline constexpr const char* kServeUsage = "pgn-query serve DB [--port 8080] [--host 127.0.0.1] [--threads N]";

}  // namespace pgnbase::tools
