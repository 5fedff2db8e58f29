// Issue 22 item 3: export holds a bounded number of bytes, not just of games. 100 games
// with an 8 MiB comment each took 1.66 GB in `export -o /dev/null` (a batch of 256 games
// and its formatted text); batches now end at a few megabytes of stored text.
#include <gtest/gtest.h>

#include <algorithm>

#include "tests/support/bundled_sample.h"
#include "indexer/input_source.h"
#include "query/search_output.h"
#include "query_test_support.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"

namespace pgnbase::query {
namespace {


using test::games_with_long_comments;

TEST(ExportMemory, BatchesAreBoundedInBytes) {
  test::TempDir dir;
  const std::string pgn = dir.file("long-comments.pgn"), db_path = dir.file("g.db");
  test::write_file(pgn, games_with_long_comments(30, size_t{1} << 20));
  query_test::import_files(db_path, {pgn});
  store::Database db(db_path, store::Database::Mode::ReadOnly);
  SearchOutputOptions output;
  output.format = OutputFormat::Pgn;
  output.threads = 2;
  size_t largest = 0, batches = 0;
  output.on_batch_written = [&](size_t, size_t bytes) {
    largest = std::max(largest, bytes);
    ++batches;
  };
  io::OutputFile out(dir.file("out.pgn"));
  const SearchSummary summary = run_search(db, search::SearchOptions{}, output, out);
  out.close();
  EXPECT_EQ(summary.games, 30);
  EXPECT_GE(batches, 5u);
  // A batch ends once its stored text passes 4 MiB: at most one more game of about 1 MiB.
  EXPECT_LT(largest, size_t{6} << 20);
  EXPECT_GT(std::filesystem::file_size(dir.file("out.pgn")), size_t{30} << 20);
}

}  // namespace
}  // namespace pgnbase::query
