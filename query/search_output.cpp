#include "query/search_output.h"

#include <algorithm>
#include <deque>
#include <future>
#include <memory>
#include <optional>
#include <thread>

#include "core/bounded_queue.h"
#include "core/plural.h"
#include "core/thread_group.h"
#include "store/blob_codec.h"
#include "store/games_sql.h"
#include "store/read_snapshot.h"
#include "query/csv_writer.h"
#include "query/json_writer.h"
#include "query/text_encoding.h"
#include "query/text_table.h"

namespace pgnbase::query {

namespace {

constexpr size_t kBatchGames = 256;
// A batch also ends once its games' stored text (annotations counted decoded) passes
// this, so that games with megabytes of comments keep the batches in flight, and the
// text they format to, to tens of megabytes (100 games of 8 MiB comments took 1.66 GB
// without this bound).
constexpr size_t kBatchBytes = size_t{4} << 20;
constexpr unsigned kMaxThreads = 8;

template <typename N>
std::string optional_number(const std::optional<N>& n) {
  return n ? std::to_string(*n) : "";
}

std::string plies_text(std::span<const uint32_t> plies) {
  std::string s;
  for (size_t i = 0; i < plies.size(); ++i) {
    if (i) s += ',';
    s += std::to_string(plies[i]);
  }
  return s;
}

// A game copied out of the statement, so that another thread can format it. Its row
// views point into its own strings: never move an OwnedGame after fill().
struct OwnedGame {
  store::GameRow row;
  std::string text[11];
  std::string moves, tags, annotations;
  std::vector<MoveCode> codes;
  std::vector<uint32_t> plies;
  std::optional<uint32_t> pattern_ply;
  bool codes_ok = false;

  OwnedGame() = default;
  OwnedGame(const OwnedGame&) = delete;
  OwnedGame& operator=(const OwnedGame&) = delete;

  void fill(const store::GameRow& source, std::span<const MoveCode> source_codes, bool decoded,
            std::span<const uint32_t> source_plies, std::optional<uint32_t> source_pattern_ply) {
    row = source;
    pattern_ply = source_pattern_ply;
    int i = 0;
    for (std::optional<std::string_view>* field :
         {&row.event, &row.site, &row.date, &row.round, &row.white, &row.black, &row.result_tag, &row.eco,
          &row.opening, &row.time_control, &row.start_fen}) {
      if (*field) {
        text[i].assign(**field);
        *field = text[i];
      }
      ++i;
    }
    row.language = {};
    moves.assign(source.moves);
    tags.assign(source.tags);
    annotations.assign(source.annotations);
    row.moves = moves;
    row.tags = tags;
    row.annotations = annotations;
    codes.assign(source_codes.begin(), source_codes.end());
    codes_ok = decoded;
    plies.assign(source_plies.begin(), source_plies.end());
  }
};

struct Batch {
  std::vector<OwnedGame> games{kBatchGames};  // the first size of them are in use
  size_t size = 0;
  std::string text;
  int64_t written = 0;
  std::vector<std::pair<int64_t, std::string>> corrupt;  // game id, reason
  std::promise<void> done;
};

// Formats one game with a writer of the given format; false when it is corrupt.
struct GameFormatter {
  OutputFormat format;
  PgnWriter pgn;
  JsonGameWriter json;
  bool pgn_annotations;

  GameFormatter(OutputFormat f, const PgnWriteOptions& options)
      : format(f), pgn(options), pgn_annotations(options.annotations) {}

  bool write(const store::GameRow& row, std::span<const MoveCode> codes, bool codes_ok, std::span<const uint32_t> plies,
             std::optional<uint32_t> pattern_ply, std::string& out) {
    if (!codes_ok || codes.size() != size_t(row.plies)) return false;
    return format == OutputFormat::Pgn ? pgn.write(row, codes, out, pattern_ply)
                                       : json.write(row, codes, plies, out, pattern_ply);
  }

  // Why write() refused the row (run only then).
  std::string why_corrupt(const store::GameRow& row) const {
    // JSON reads the annotations for its clocks and evaluations.
    std::string reason = search::diagnose_game(row, format != OutputFormat::Pgn || pgn_annotations);
    return reason.empty() ? "its stored data does not decode" : reason;
  }
};

// Appends formatted games to out: as they are to a file or a pipe, as printable text
// to a terminal (tag values and comments are stored as the PGN file had them).
void append_games(std::string_view text, io::OutputFile& out) {
  if (out.is_terminal()) append_printable(text, out.buffer(), LineBreaks::Keep);
  else out.buffer() += text;
}

// Decodes the current game's codes (a position search has them already).
bool current_codes(search::GameSearch& search, std::span<const MoveCode>& codes) {
  codes = search.codes();
  return !(codes.empty() && search.row().plies > 0);
}

// The columns of the table and CSV outputs, and a game's cells in them.
std::vector<TextTable::Column> list_columns(bool with_position, bool with_pattern) {
  std::vector<TextTable::Column> columns = {
      {"id", true, 12},     {"White", false, 28}, {"Elo", true, 5},    {"Black", false, 28},
      {"Elo", true, 5},     {"Result", false, 7}, {"Date", false, 10}, {"ECO", false, 4},
      {"Event", false, 32}, {"Plies", true, 6}};
  if (with_position) columns.push_back({"At ply", false, 24});
  if (with_pattern) columns.push_back({"Match ply", true, 9});
  return columns;
}

const std::vector<std::string> kCsvHeader = {"id",  "white", "white_elo", "black", "black_elo", "result",
                                             "date", "eco",  "event",     "site",  "round",     "plies"};

std::vector<std::string> list_cells(const store::GameRow& row, bool csv) {
  std::vector<std::string> cells = {std::to_string(row.id),
                                    std::string(row.white.value_or(csv ? "" : "?")),
                                    optional_number(row.white_elo),
                                    std::string(row.black.value_or(csv ? "" : "?")),
                                    optional_number(row.black_elo),
                                    std::string(store::result_token(row.result)),
                                    std::string(row.date.value_or("")),
                                    std::string(row.eco.value_or("")),
                                    std::string(row.event.value_or(""))};
  if (csv) {
    cells.emplace_back(row.site.value_or(""));
    cells.emplace_back(row.round.value_or(""));
  }
  cells.push_back(std::to_string(row.plies));
  return cells;
}

void write_table(search::GameSearch& search, bool with_position, bool with_pattern, bool wide, io::OutputFile& out,
                 SearchSummary& summary) {
  TextTable table(list_columns(with_position, with_pattern), out, wide);
  while (search.next()) {
    std::vector<std::string> cells = list_cells(search.row(), false);
    if (with_position) cells.push_back(plies_text(search.plies()));
    if (with_pattern) cells.push_back(optional_number(search.pattern_ply()));
    table.add_row(std::move(cells));
    ++summary.games;
  }
  table.finish();
}

// "3 of 1,622 games" after a table: the games found and those in the database. When
// --limit or --offset cut the list, "20 shown, 302,064 of 1,459,666 games" (a second
// search counts them, as --count would) where that examines at most max_games games
// (GameSearch::count_all_examining_at_most); otherwise "20 shown of 1,459,666 games
// (--count for how many match)".
void append_total_line(store::Database& db, const search::SearchOptions& options, search::GameSearch& listed,
                       int64_t shown, uint64_t max_games, std::string& out) {
  int64_t total = 0;
  {
    store::Statement s = db.prepare(store::sql::kGameCount);
    if (s.step()) total = s.column_int64(0);
  }
  out += "\n";
  const bool cut = options.offset > 0 || (options.limit && shown >= *options.limit);
  if (!cut) {
    out += thousands(shown) + " of " + plural_thousands(total, "game") + "\n";
    return;
  }
  const std::optional<int64_t> found = listed.count_all_examining_at_most(max_games);
  if (!found) {
    out += thousands(shown) + " shown of " + plural_thousands(total, "game") + " (--count for how many match)\n";
    return;
  }
  out += thousands(shown) + " shown, " + thousands(*found) + " of " + plural_thousands(total, "game") + "\n";
}

void write_csv(search::GameSearch& search, bool with_position, io::OutputFile& out, SearchSummary& summary) {
  std::vector<std::string> header = kCsvHeader;
  if (with_position) header.push_back("at_plies");
  CsvWriter csv(header, out);
  while (search.next()) {
    std::vector<std::string> cells = list_cells(search.row(), true);
    if (with_position) cells.push_back(plies_text(search.plies()));
    csv.add_row(cells);
    ++summary.games;
  }
}

void write_serial(search::GameSearch& search, const SearchOutputOptions& output, io::OutputFile& out, SearchSummary& summary) {
  GameFormatter formatter(output.format, output.pgn);
  std::string game;
  while (search.next()) {
    std::span<const MoveCode> codes;
    const bool ok = current_codes(search, codes);
    game.clear();
    if (formatter.write(search.row(), codes, ok, search.plies(), search.pattern_ply(), game)) ++summary.games;
    else output.on_corrupt(search.row().id, formatter.why_corrupt(search.row()));
    append_games(game, out);
    out.maybe_flush();
  }
}

// The reading thread fills batches; workers format them; batches are written in order.
void write_parallel(search::GameSearch& search, const SearchOutputOptions& output, unsigned threads, io::OutputFile& out,
                    SearchSummary& summary) {
  BoundedQueue<std::shared_ptr<Batch>> work(threads * 2);
  ThreadGroup workers;  // joined on every path, never std::terminate
  auto format_batches = [&] {
    std::optional<GameFormatter> formatter;
    while (std::optional<std::shared_ptr<Batch>> batch = work.pop()) {
      Batch& b = **batch;
      try {  // an exception (out of memory) travels to the reading thread with the batch
        if (!formatter) formatter.emplace(output.format, output.pgn);
        for (size_t i = 0; i < b.size; ++i) {
          const OwnedGame& g = b.games[i];
          if (formatter->write(g.row, g.codes, g.codes_ok, g.plies, g.pattern_ply, b.text)) ++b.written;
          else b.corrupt.emplace_back(g.row.id, formatter->why_corrupt(g.row));
        }
        b.done.set_value();
      } catch (...) {
        b.done.set_exception(std::current_exception());
      }
    }
  };
  std::deque<std::pair<std::shared_ptr<Batch>, std::future<void>>> in_flight;
  auto write_oldest = [&] {
    auto& [batch, done] = in_flight.front();
    done.get();  // rethrows a worker's exception
    append_games(batch->text, out);
    if (output.on_batch_written) output.on_batch_written(batch->size, batch->text.size());
    summary.games += batch->written;
    for (const auto& [id, reason] : batch->corrupt) output.on_corrupt(id, reason);
    out.maybe_flush();
    in_flight.pop_front();
  };
  try {
    for (unsigned t = 0; t < threads; ++t)
      workers.start(format_batches, "formatting thread " + std::to_string(t + 1) + " of " + std::to_string(threads));
    bool more = true;
    while (more) {
      auto batch = std::make_shared<Batch>();
      size_t bytes = 0;
      while (batch->size < kBatchGames && bytes < kBatchBytes && (more = search.next())) {
        std::span<const MoveCode> codes;
        const bool ok = current_codes(search, codes);
        const store::GameRow& row = search.row();
        bytes += row.tags.size() + 8 * size_t(std::max<int64_t>(row.plies, 0)) +
                 (output.pgn.annotations ? store::decoded_blob_size(row.annotations) : 0);
        batch->games[batch->size++].fill(row, codes, ok, search.plies(), search.pattern_ply());
      }
      if (batch->size == 0) break;
      in_flight.emplace_back(batch, batch->done.get_future());
      work.push(batch);
      while (in_flight.size() > threads * 2) write_oldest();
    }
    while (!in_flight.empty()) write_oldest();
  } catch (...) {
    work.close();
    workers.join();  // the workers keep their errors in the batches: this does not throw
    throw;
  }
  work.close();
  workers.join();
}

}  // namespace

SearchSummary run_search(store::Database& db, const search::SearchOptions& search_options,
                         const SearchOutputOptions& output_options, io::OutputFile& out) {
  SearchSummary summary;
  // Every corrupt game, from the search or a formatter, is counted and passed on.
  SearchOutputOptions output = output_options;
  output.on_corrupt = [&](int64_t id, const std::string& reason) {
    ++summary.corrupt;
    if (output_options.on_corrupt) output_options.on_corrupt(id, reason);
  };
  search::SearchOptions options = search_options;
  options.on_corrupt = output.on_corrupt;
  store::ReadSnapshot snapshot(db);  // one snapshot for the whole search, even while an import writes
  search::GameSearch search(db, options);
  if (output.count_only) {
    summary.games = search.count();
    out.buffer() += std::to_string(summary.games) + "\n";
  } else if (output.format == OutputFormat::Table) {
    write_table(search, options.filter.position.has_value(), options.filter.pattern.has_value(), output.wide, out,
                summary);
    append_total_line(db, options, search, summary.games, output.total_line_max_games, out.buffer());
  } else if (output.format == OutputFormat::Csv) {
    write_csv(search, options.filter.position.has_value(), out, summary);
  } else {
    unsigned threads = output.threads ? output.threads : std::min(kMaxThreads, std::thread::hardware_concurrency());
    // Few games are not worth the threads.
    if (threads <= 1 || (options.limit && *options.limit <= int64_t(kBatchGames))) write_serial(search, output, out, summary);
    else write_parallel(search, output, threads, out, summary);
  }
  summary.pattern = search.pattern_stats();
  return summary;
}

}  // namespace pgnbase::query
