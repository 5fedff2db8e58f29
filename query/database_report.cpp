#include "query/database_report.h"

#include <cstdio>
#include <algorithm>
#include <map>
#include <stdexcept>
#include <vector>

#include "store/position_segments.h"
#include "store/schema_version.h"
#include "search/game_filter.h"
#include "store/game_query.h"
#include "store/read_snapshot.h"
#include "store/database_sql.h"
#include "store/games_sql.h"
#include "store/sources_sql.h"
#include "query/csv_writer.h"
#include "query/json_writer.h"
#include "query/text_encoding.h"
#include "query/text_table.h"

namespace pgnbase::query {

namespace {

// 20190500 -> "2019.05.??".
std::string date_of_key(int64_t key) {
  char buffer[64];
  const int64_t year = key / 10000, month = key / 100 % 100, day = key % 100;
  std::string m = month ? (month < 10 ? "0" : "") + std::to_string(month) : "??";
  std::string d = day ? (day < 10 ? "0" : "") + std::to_string(day) : "??";
  std::snprintf(buffer, sizeof buffer, "%04lld.%s.%s", (long long)year, m.c_str(), d.c_str());
  return buffer;
}

std::string megabytes(double bytes) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2f MB", bytes / 1e6);
  return buffer;
}

// Which part of the database a table or index belongs to.
std::string part_of(const std::string& name, const std::map<std::string, std::string>& table_of) {
  auto it = table_of.find(name);
  std::string table = it == table_of.end() ? name : it->second;
  if (table == "games") return name == "games" ? "games (rows and blobs)" : "games indexes";
  if (table == "position_blocks" || table == "position_segments") return "position index";
  if (table == "names") return "names";
  if (table == "rejects") return "rejects";
  if (table == "sqlite_schema" || table == "sqlite_master") return "schema";
  return "other (" + table + ")";
}

struct StorageLine {
  std::string part;
  int64_t bytes = 0;
};

std::vector<StorageLine> storage(store::Database& db, bool& from_dbstat) {
  std::map<std::string, std::string> table_of;
  {
    store::Statement s = db.prepare(store::sql::kObjectNames);
    while (s.step()) table_of[std::string(s.column_text(0))] = std::string(s.column_text(2));
  }
  std::map<std::string, int64_t> bytes;
  from_dbstat = false;
  try {
    store::Statement s = db.prepare(store::sql::kObjectSizes);
    while (s.step()) bytes[part_of(std::string(s.column_text(0)), table_of)] += s.column_int64(1);
    from_dbstat = true;
  } catch (const store::StoreError&) {
    bytes.clear();  // no dbstat in this SQLite: the file's size only
  }
  store::Statement pages = db.prepare(store::sql::kPageInfo);
  int64_t total = 0, free_bytes = 0;
  if (pages.step()) total = pages.column_int64(0), free_bytes = pages.column_int64(1);
  if (free_bytes) bytes["free pages"] += free_bytes;
  std::vector<StorageLine> lines;
  for (auto& [part, n] : bytes) lines.push_back({part, n});
  std::sort(lines.begin(), lines.end(), [](const StorageLine& a, const StorageLine& b) { return a.bytes > b.bytes; });
  lines.push_back({"file", total});
  return lines;
}

}  // namespace

void print_stats(store::Database& db, const StatsOptions& options, io::OutputFile& out) {
  std::optional<store::ReadSnapshot> snapshot;
  snapshot.emplace(db);  // one snapshot for every number, even while an import writes
  int64_t games = 0, players = 0, chess960 = 0, setups = 0, eco_tag = 0, eco_computed = 0;
  double plies = 0, moves_bytes = 0, tags_bytes = 0, annotation_bytes = 0;
  std::optional<int64_t> first_date, last_date;
  {
    store::Statement s = db.prepare(store::sql::kPlyTotals);
    if (s.step()) {
      games = s.column_int64(0);
      plies = s.column_double(1);
      moves_bytes = s.column_double(2);
      tags_bytes = s.column_double(3);
      annotation_bytes = s.column_double(4);
      chess960 = s.column_int64(5);
      setups = s.column_int64(6);
      eco_tag = s.column_int64(7);
      eco_computed = s.column_int64(8);
    }
  }
  {
    store::Statement s = db.prepare(store::sql::kPlayerCount);
    if (s.step()) players = s.column_int64(0);
  }
  {
    store::Statement s = db.prepare(store::sql::kDateRange);
    if (s.step() && !s.column_is_null(0)) first_date = s.column_int64(0), last_date = s.column_int64(1);
  }
  std::vector<std::pair<std::string, int64_t>> languages, reject_kinds;
  {
    store::Statement s = db.prepare(store::sql::kLanguageCounts);
    while (s.step()) languages.emplace_back(std::string(s.column_text(0)), s.column_int64(1));
  }
  int64_t rejects = 0;
  {
    store::Statement s = db.prepare(store::sql::kRejectKinds);
    while (s.step()) {
      reject_kinds.emplace_back(std::string(s.column_text(0)), s.column_int64(1));
      rejects += s.column_int64(1);
    }
  }
  // Games that more than one source held (game_copies; a schema 4 database has none).
  int64_t copies = 0, copied_games = 0;
  if (db.has_table("game_copies")) {
    store::Statement s = db.prepare(store::sql::kCopyCounts);
    if (s.step()) copies = s.column_int64(0), copied_games = s.column_int64(1);
  }
  struct Source {
    int64_t id, games_found, imported, rejected, duplicates;
    std::string path, imported_at, hash;
    double seconds;
  };
  std::vector<Source> sources;
  {
    store::Statement s = db.prepare(store::sql::kSources);
    while (s.step())
      sources.push_back({s.column_int64(0), s.column_int64(4), s.column_int64(5), s.column_int64(6), s.column_int64(7),
                         std::string(s.column_text(1)), std::string(s.column_text(9)), std::string(s.column_text(3)),
                         s.column_double(10)});
  }
  std::vector<store::SegmentStats> segments = store::read_position_segments(db);
  uint64_t postings = 0, index_bytes = 0;
  for (const auto& seg : segments) postings += seg.postings, index_bytes += seg.block_bytes;
  bool from_dbstat = false;
  std::vector<StorageLine> sizes = storage(db, from_dbstat);
  snapshot.reset();

  std::string& o = out.buffer();
  if (options.format == OutputFormat::Csv) {
    // One line per figure: section, item, value (the sources table has its own lines).
    CsvWriter csv({"section", "item", "value"}, out);
    auto line = [&](const std::string& section, const std::string& item, const std::string& value) {
      csv.add_row({section, item, value});
    };
    line("games", "games", std::to_string(games));
    line("games", "chess960", std::to_string(chess960));
    line("games", "setup", std::to_string(setups));
    line("games", "plies", std::to_string(int64_t(plies)));
    line("games", "players", std::to_string(players));
    line("games", "first_date", first_date ? date_of_key(*first_date) : "");
    line("games", "last_date", last_date ? date_of_key(*last_date) : "");
    line("games", "eco_from_tag", std::to_string(eco_tag));
    line("games", "eco_computed", std::to_string(eco_computed));
    line("games", "copies", std::to_string(copies));
    line("games", "games_with_copies", std::to_string(copied_games));
    for (const auto& [code, n] : languages) line("piece_letters", code, std::to_string(n));
    line("rejects", "total", std::to_string(rejects));
    for (const auto& [kind, n] : reject_kinds) line("rejects", kind, std::to_string(n));
    for (const Source& src : sources) {
      const std::string section = "source " + std::to_string(src.id);
      line(section, "path", src.path);
      line(section, "games_found", std::to_string(src.games_found));
      line(section, "imported", std::to_string(src.imported));
      line(section, "rejected", std::to_string(src.rejected));
      line(section, "duplicates", std::to_string(src.duplicates));
      line(section, "imported_at", src.imported_at);
    }
    line("position_index", "segments", std::to_string(segments.size()));
    line("position_index", "postings", std::to_string(postings));
    line("position_index", "block_bytes", std::to_string(index_bytes));
    for (const StorageLine& st : sizes) line("storage_bytes", st.part, std::to_string(st.bytes));
    return;
  }
  if (options.format == OutputFormat::Json) {
    o += "{\"games\":" + std::to_string(games) + ",\"players\":" + std::to_string(players);
    o += ",\"chess960_games\":" + std::to_string(chess960) + ",\"setup_games\":" + std::to_string(setups);
    o += ",\"plies\":" + std::to_string(int64_t(plies));
    o += ",\"eco_from_tag\":" + std::to_string(eco_tag) + ",\"eco_computed\":" + std::to_string(eco_computed);
    o += ",\"copies\":" + std::to_string(copies) + ",\"games_with_copies\":" + std::to_string(copied_games);
    o += ",\"first_date\":";
    if (first_date) append_json_string(date_of_key(*first_date), o);
    else o += "null";
    o += ",\"last_date\":";
    if (last_date) append_json_string(date_of_key(*last_date), o);
    else o += "null";
    o += ",\"languages\":{";
    for (size_t i = 0; i < languages.size(); ++i) {
      if (i) o += ',';
      append_json_string(languages[i].first, o);
      o += ':' + std::to_string(languages[i].second);
    }
    o += "},\"rejects\":" + std::to_string(rejects) + ",\"rejects_by_kind\":{";
    for (size_t i = 0; i < reject_kinds.size(); ++i) {
      if (i) o += ',';
      append_json_string(reject_kinds[i].first, o);
      o += ':' + std::to_string(reject_kinds[i].second);
    }
    o += "},\"sources\":[";
    for (size_t i = 0; i < sources.size(); ++i) {
      const Source& s = sources[i];
      if (i) o += ',';
      o += "{\"id\":" + std::to_string(s.id) + ",\"path\":";
      append_json_string(s.path, o);
      o += ",\"games_found\":" + std::to_string(s.games_found) + ",\"imported\":" + std::to_string(s.imported) +
           ",\"rejected\":" + std::to_string(s.rejected) + ",\"duplicates\":" + std::to_string(s.duplicates) +
           ",\"imported_at\":";
      append_json_string(s.imported_at, o);
      o += ",\"content_hash\":";
      append_json_string(s.hash, o);
      o += "}";
    }
    o += "],\"position_index\":{\"segments\":" + std::to_string(segments.size()) +
         ",\"postings\":" + std::to_string(postings) + ",\"block_bytes\":" + std::to_string(index_bytes) + "}";
    o += ",\"blob_bytes\":{\"moves\":" + std::to_string(int64_t(moves_bytes)) +
         ",\"tags\":" + std::to_string(int64_t(tags_bytes)) +
         ",\"annotations\":" + std::to_string(int64_t(annotation_bytes)) + "}";
    o += ",\"storage_source\":\"" + std::string(from_dbstat ? "dbstat" : "page counts") + "\",\"storage\":{";
    for (size_t i = 0; i < sizes.size(); ++i) {
      if (i) o += ',';
      append_json_string(sizes[i].part, o);
      o += ':' + std::to_string(sizes[i].bytes);
    }
    o += "}}\n";
    return;
  }

  char line[256];
  std::snprintf(line, sizeof line, "games          %lld (%lld Chess960, %lld from a set-up position)\n",
                (long long)games, (long long)chess960, (long long)setups);
  o += line;
  std::snprintf(line, sizeof line, "plies          %lld (%.1f per game)\n", (long long)plies,
                games ? plies / double(games) : 0.0);
  o += line;
  o += "players        " + std::to_string(players) + "\n";
  o += "dates          " + (first_date ? date_of_key(*first_date) + " .. " + date_of_key(*last_date) : "none known") + "\n";
  std::snprintf(line, sizeof line, "ECO            %lld from tags, %lld computed, %lld none\n", (long long)eco_tag,
                (long long)eco_computed, (long long)(games - eco_tag - eco_computed));
  o += line;
  o += "piece letters ";
  for (const auto& [code, n] : languages) o += " " + printable(code) + "=" + std::to_string(n);
  if (copies > 0)
    o += "copies         " + std::to_string(copies) + " more of " + std::to_string(copied_games) +
         (copied_games == 1 ? " game" : " games") + " in other sources (kept when one source is removed)\n";
  o += "\nrejects        " + std::to_string(rejects) + "\n";
  for (const auto& [kind, n] : reject_kinds) o += "  " + printable(kind) + ": " + std::to_string(n) + "\n";
  o += "\nsources\n";
  {
    TextTable::Column path{"path", false, 60};
    path.keep_end = true;  // the file name identifies the source, not its directory
    TextTable table({{"id", true, 12}, path, {"found", true, 10}, {"imported", true, 10}, {"rejected", true, 10},
                     {"dupes", true, 8}, {"imported at", false, 20}, {"seconds", true, 10}},
                    out, options.wide);
    for (const Source& s : sources) {
      std::snprintf(line, sizeof line, "%.2f", s.seconds);
      table.add_row({std::to_string(s.id), s.path, std::to_string(s.games_found), std::to_string(s.imported),
                     std::to_string(s.rejected), std::to_string(s.duplicates), s.imported_at, line});
    }
    table.finish();
  }
  std::snprintf(line, sizeof line, "\nposition index %zu segments, %llu postings, %s of blocks (%.2f bytes/posting)\n",
                segments.size(), (unsigned long long)postings, megabytes(double(index_bytes)).c_str(),
                postings ? double(index_bytes) / double(postings) : 0.0);
  o += line;
  std::snprintf(line, sizeof line, "blobs          moves %s, tags %s, annotations %s\n", megabytes(moves_bytes).c_str(),
                megabytes(tags_bytes).c_str(), megabytes(annotation_bytes).c_str());
  o += line;
  o += std::string("\nstorage (") + (from_dbstat ? "dbstat" : "page counts; this SQLite has no dbstat") + ")\n";
  TextTable table({{"part", false, 40}, {"bytes", true, 16}, {"MB", true, 12}}, out, options.wide);
  for (const StorageLine& s : sizes) {
    std::snprintf(line, sizeof line, "%.2f", double(s.bytes) / 1e6);
    table.add_row({s.part, std::to_string(s.bytes), line});
  }
  table.finish();
}

int64_t print_rejects(store::Database& db, const RejectsOptions& options, io::OutputFile& out) {
  store::Statement s = db.prepare(store::sql::kRejects);
  s.bind_text(1, options.kind);
  std::string pattern;
  if (!options.reason.empty()) {
    pattern = search::like_pattern(search::NamePattern{options.reason});
    if (options.reason.find('*') == std::string::npos) pattern = "%" + pattern + "%";
  }
  s.bind_text(2, pattern);
  std::unique_ptr<io::OutputFile> texts;
  if (!options.text_path.empty()) texts = std::make_unique<io::OutputFile>(options.text_path);
  std::unique_ptr<TextTable> table;
  if (options.list && options.format == OutputFormat::Table)
    table = std::make_unique<TextTable>(
        std::vector<TextTable::Column>{{"id", true, 12}, {"source", false, 40, true}, {"game", true, 12},
                                       {"line", true, 12}, {"kind", false, 28}, {"reason", false, 100}},
        out, options.wide);
  int64_t n = 0;
  while (s.step()) {
    ++n;
    if (table) {
      table->add_row({std::to_string(s.column_int64(0)), std::string(s.column_text(1)), std::to_string(s.column_int64(2)),
                      std::to_string(s.column_int64(4)), std::string(s.column_text(5)), std::string(s.column_text(6))});
    } else if (options.list) {
      std::string& o = out.buffer();
      o += "{\"id\":" + std::to_string(s.column_int64(0)) + ",\"source\":";
      append_json_string(s.column_text(1), o);
      o += ",\"game_number\":" + std::to_string(s.column_int64(2)) + ",\"byte_offset\":" +
           std::to_string(s.column_int64(3)) + ",\"line\":" + std::to_string(s.column_int64(4)) + ",\"kind\":";
      append_json_string(s.column_text(5), o);
      o += ",\"reason\":";
      append_json_string(s.column_text(6), o);
      o += "}\n";
      out.maybe_flush();
    }
    if (texts) {
      std::span<const std::byte> bytes = s.column_blob(7);
      const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
      std::string& t = texts->buffer();
      // A file gets the bytes as they were (it re-imports); a terminal a safe view.
      if (texts->is_terminal()) append_printable(text, t, LineBreaks::Keep);
      else t += text;
      if (!t.empty() && t.back() != '\n') t += '\n';
      t += '\n';  // a blank line between games
      texts->maybe_flush();
    }
  }
  if (table) table->finish();
  if (texts) texts->close();
  return n;
}

}  // namespace pgnbase::query
