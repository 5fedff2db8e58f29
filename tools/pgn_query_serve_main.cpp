// pgn-query-serve: the `serve` command of pgn-query, in a program of its own so that the
// other commands do not load the HTTP library and what it brings (cpp-httplib, OpenSSL,
// brotli, zlib: about 4 ms at every start of pgn-query). pgn-query runs it in its own
// place with the same arguments (tools/pgn_query_main.cpp); run by hand, it takes them
// as pgn-query does: pgn-query-serve serve DB [options].
#include <cstdio>
#include <string_view>

#include "tools/query_commands.h"

using namespace pgnbase::tools;

int main(int argc, char** argv) {
  const QueryCommand serve{"serve", kServeSummary, kServeUsage, kDatabase, nullptr, run_serve};
  if (argc < 2 || std::string_view(argv[1]) != "serve") {
    std::fprintf(stderr, "pgn-query-serve: run as pgn-query serve DB [options] (pgn-query serve --help)\n");
    return kExitUsage;
  }
  return run_query_command(serve, argc, argv);
}
