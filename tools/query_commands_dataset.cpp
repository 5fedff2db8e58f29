// pgn-query export-dataset and key: the database as a Parquet dataset, and a position's
// key as the dataset stores it.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

#include "core/fen.h"
#include "dataset/dataset_export.h"
#include "dataset/dataset_key.h"
#include "core/plural.h"
#include "query/text_encoding.h"
#include "tools/query_commands.h"

namespace pgnbase::tools {

using namespace pgnbase::query;

namespace {

struct ExportDatasetCommand {
  dataset::ExportOptions export_options;

  void options(po::options_description& d) {
    d.add_options()
        ("bucket-bits", po::value<int>()->notifier([this](int v) { export_options.bucket_bits = v; }),
         "positions/ and explorer/ buckets kb=N: the key's top bits (0-12; default 6 for a new dataset, "
         "an existing one's own)");
  }

  int run(QueryContext& ctx) {
    std::string dir;
    if (ctx.given("dir")) dir = ctx.vm()["dir"].as<std::string>();
    if (dir.empty()) throw UsageError{"missing the dataset folder DIR"};
    const std::optional<int>& bits = export_options.bucket_bits;
    if (bits && (*bits < 0 || *bits > dataset::kMaxBucketBits))
      throw UsageError{"--bucket-bits must be 0.." + std::to_string(dataset::kMaxBucketBits)};
    // What an export killed with kill -9 left in DIR is removed first, in one line.
    export_options.on_stale_files = [&dir](const dataset::StaleExportFiles& stale) {
      std::string pids;
      for (pid_t pid : stale.pids) pids += (pids.empty() ? "" : ", ") + std::to_string(pid);
      std::fprintf(stderr, "pgn-query export-dataset: removed %s (%.1f MiB) left in %s by ended exports (pid %s)\n",
                   plural(int64_t(stale.files), "temporary file").c_str(), double(stale.bytes) / double(1 << 20),
                   printable(dir).c_str(), pids.c_str());
    };
    store::Database& db = ctx.open();
    const auto started = std::chrono::steady_clock::now();
    const dataset::ExportSummary s = dataset::export_dataset(db, dir, export_options);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    // A game too long for the dataset is skipped and named; the command then exits 1, as
    // export does for the games it cannot write.
    for (const auto& [id, plies] : s.skipped_games)
      std::fprintf(stderr, "pgn-query export-dataset: game %lld skipped: %lld plies, more than the dataset's %zu\n",
                   (long long)id, (long long)plies, dataset::kMaxPlies);
    if (s.export_number == 0) {
      std::printf("%s: nothing new to export (every game is in the dataset)\n", dir.c_str());
      return kExitOk;
    }
    std::string changes;
    if (s.moved_games > 0)
      changes += ", " + plural(int64_t(s.moved_games), "game") + " written again under the source they moved to";
    if (!s.removed_sources.empty()) {
      changes += ", removed source" + std::string(s.removed_sources.size() == 1 ? "" : "s");
      for (int64_t id : s.removed_sources) changes += " " + std::to_string(id);
      changes += " (" + plural(int64_t(s.removed_games), "game") + " gone)";
    }
    const std::string games = s.games > 0 ? "games " + std::to_string(s.first_game_id) + ".." +
                                                std::to_string(s.last_game_id) + ", " + plural(int64_t(s.games), "game")
                                          : std::string("no new games");
    if (!s.skipped_games.empty()) changes += ", " + plural(int64_t(s.skipped_games.size()), "game") + " skipped";
    std::printf("%s: export %d: %s%s, %s, %s, %s, %s in %.2f s (%.0f games/s)\n", dir.c_str(), s.export_number,
                games.c_str(), changes.c_str(), plural(int64_t(s.postings), "position").c_str(),
                plural(int64_t(s.explorer_rows), "explorer row").c_str(), plural(int64_t(s.files), "file").c_str(),
                plural(int64_t(s.bytes), "byte").c_str(), seconds,
                double(s.games + s.moved_games) / std::max(seconds, 1e-9));
    return s.skipped_games.empty() ? kExitOk : kExitFailure;
  }
};

struct KeyCommand {
  int bucket_bits = dataset::ExportOptions::kDefaultBucketBits;

  void options(po::options_description& d) {
    d.add_options()("bucket-bits", po::value(&bucket_bits)->default_value(bucket_bits),
                    "the dataset's bucket bits, for kb=N");
  }

  int run(QueryContext& ctx) {
    if (bucket_bits < 0 || bucket_bits > 12) throw UsageError{"--bucket-bits must be 0..12"};
    ctx.start_clock();
    const Parsed<Board> fen = parse_fen(ctx.first());
    if (!fen) throw UsageError{"bad FEN: " + fen.error()};
    const Board& board = *fen;
    std::printf("%016llx kb=%u %lld\n", (unsigned long long)board.key(), dataset::key_bucket(board.key(), bucket_bits),
                (long long)dataset::signed_key(board.key()));
    return kExitOk;
  }
};

}  // namespace

int run_export_dataset(QueryContext& ctx) { return run_as<ExportDatasetCommand>(ctx); }
int run_key(QueryContext& ctx) { return run_as<KeyCommand>(ctx); }

}  // namespace pgnbase::tools
