// pgn-query book: a Polyglot opening book from the games the filters select.
#include <cstdio>
#include <string>

#include "core/plural.h"
#include "query/polyglot_book.h"
#include "tools/query_commands.h"
#include "tools/query_filters.h"

namespace pgnbase::tools {

using namespace pgnbase::query;

namespace {

struct BookCommand {
  FilterText filter_text;
  std::string output;
  int64_t max_ply = 20, min_games = 3;

  void options(po::options_description& d) {
    add_filter_options(d, filter_text, false);
    d.add_options()
        ("output,o", po::value(&output), "the book file to write (- for stdout)")
        ("max-ply", po::value(&max_ply)->default_value(max_ply), "moves from the first N plies of each game")
        ("min-games", po::value(&min_games)->default_value(min_games), "only moves played in at least N games");
  }

  int run(QueryContext& ctx) {
    if (output.empty()) throw UsageError{"book needs -o FILE (the Polyglot book to write)"};
    if (max_ply < 1 || max_ply > 1000) throw UsageError{"--max-ply must be from 1 to 1000"};
    if (min_games < 1) throw UsageError{"--min-games must be at least 1"};
    BookOptions options;
    options.search.filter = make_filter(filter_text);
    options.max_ply = uint32_t(max_ply);
    options.min_games = uint32_t(min_games);
    store::Database& db = ctx.open(output);
    int64_t games = 0;
    const std::vector<BookEntry> entries = build_book(db, options, games);
    write_book(entries, ctx.output());
    ctx.close_output();
    if (output != "-")
      std::fprintf(stderr, "pgn-query: %s from %s written to %s\n", plural(int64_t(entries.size()), "book entry", "book entries").c_str(),
                   plural(games, "game").c_str(), output.c_str());
    return kExitOk;
  }
};

}  // namespace

int run_book(QueryContext& ctx) { return run_as<BookCommand>(ctx); }

}  // namespace pgnbase::tools
