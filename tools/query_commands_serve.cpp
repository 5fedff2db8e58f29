// pgn-query serve: the database in a browser, and its JSON API (serve/http_server.h).
#include <cstdio>
#include <string>

#include "serve/http_server.h"
#include "tools/query_commands.h"

namespace pgnbase::tools {

namespace {

struct ServeCommand {
  serve::ServeOptions serve;
  int64_t time_limit = 10;

  void options(po::options_description& d) {
    d.add_options()
        ("port", po::value(&serve.port)->default_value(serve.port), "TCP port (0: any free one)")
        ("host", po::value(&serve.host)->default_value(serve.host),
         "address to listen on; anything but 127.0.0.1 or ::1 lets other machines in")
        ("threads", po::value(&serve.threads)->default_value(0), "worker threads (0: one per core, 2 to 8)")
        ("time-limit", po::value(&time_limit)->default_value(time_limit),
         "seconds of database work one request may take before it is stopped");
  }

  int run(QueryContext& ctx) {
    if (serve.port < 0 || serve.port > 65535) throw UsageError{"--port must be 0 to 65535"};
    if (time_limit < 1 || time_limit > 3600) throw UsageError{"--time-limit must be 1 to 3600 seconds"};
    if (serve.threads > 64) throw UsageError{"--threads must be at most 64"};
    serve.time_limit = std::chrono::seconds(time_limit);
    serve.database = ctx.first();
    ctx.open();  // a path that is no pgnbase database fails here, with one line
    serve::HttpServer server(serve);
    const int port = server.bind();
    if (port < 0)
      throw CommandFailure{"cannot listen on " + serve.host + " port " + std::to_string(serve.port) +
                           " (in use, or not an address of this machine)"};
    const bool local = serve.host == "127.0.0.1" || serve.host == "localhost" || serve.host == "::1";
    if (!local)
      std::fprintf(stderr, "pgn-query serve: listening on %s: other machines can reach it (no login, read-only)\n",
                   serve.host.c_str());
    const std::string shown_host = serve.host.find(':') != std::string::npos ? "[" + serve.host + "]" : serve.host;
    std::printf("pgn-query serve: %s at http://%s:%d/ (Ctrl-C stops it)\n", serve.database.c_str(),
                shown_host.c_str(), port);
    std::fflush(stdout);
    server.run();
    return kExitOk;
  }
};

}  // namespace

int run_serve(QueryContext& ctx) { return run_as<ServeCommand>(ctx); }

}  // namespace pgnbase::tools
