#include "store/explorer_summaries.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "store/eco_table.h"
#include "store/multi_row_insert.h"

namespace pgnbase::store {

namespace {

static_assert(std::endian::native == std::endian::little, "summaries are stored in the machine's order");

// Row data, little-endian, packed:
// | part   | fields                                                                      |
// |--------|-----------------------------------------------------------------------------|
// | header | u32 games, u32 ended_here, u16 moves, u16 top games                         |
// | move   | u16 MoveCode, u32 games, u32 white_wins, u32 draws, u32 black_wins,         |
// |        | u32 rated_games, u64 sum of the mover's ratings                             |
// | top    | u32 game id, u16 MoveCode of the move it played here (0xFFFF: it ended)     |

// What the stored answers were computed from: the content version (store/counters.h,
// bumped by every import, removal and replacement, in its own transaction) and the
// posting count (all a version 4 database has).
constexpr std::string_view kStamp =
    "SELECT coalesce(sum(postings), 0) + 1099511627776 * "
    "coalesce((SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'content_version'), 0) FROM position_segments";
constexpr std::string_view kSelect = "SELECT stamp, data FROM explorer_summaries WHERE key = ?1";
constexpr std::string_view kSegmentTotals =
    "SELECT count(*), coalesce(sum(postings), 0), coalesce(max(segment_id), 0) FROM position_segments "
    "WHERE segment_id < ?1";
constexpr std::string_view kSelectStamped = "SELECT key, data FROM explorer_summaries WHERE stamp = ?1";
constexpr std::string_view kInsert = "INSERT OR REPLACE INTO explorer_summaries(key, stamp, data) VALUES (?1, ?2, ?3)";
constexpr std::string_view kAnyEcoPosition = "SELECT EXISTS (SELECT 1 FROM eco_positions)";
constexpr std::string_view kSelectEco = "SELECT eco, name FROM eco_positions WHERE key = ?1";
constexpr std::string_view kInsertEco = "INSERT OR REPLACE INTO eco_positions(key, eco, name) VALUES (?1, ?2, ?3)";
constexpr int kEcoRowsPerInsert = 16;
constexpr std::string_view kEcoPositionsInKeyOrder = "SELECT key, eco, name FROM eco_positions ORDER BY key";

template <typename T>
void put(std::string& out, T value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

// Reads a T at offset, advancing it; false past the end.
template <typename T>
bool get(std::span<const std::byte> data, size_t& offset, T& value) {
  if (offset + sizeof value > data.size()) return false;
  std::memcpy(&value, data.data() + offset, sizeof value);
  offset += sizeof value;
  return true;
}

std::string encode(const ExplorerSummary& summary) {
  std::string out;
  put(out, summary.games);
  put(out, summary.ended_here);
  put(out, uint16_t(summary.moves.size()));
  put(out, uint16_t(summary.top_games.size()));
  for (const ExplorerSummary::Move& m : summary.moves) {
    put(out, m.code);
    for (uint32_t v : {m.games, m.white_wins, m.draws, m.black_wins, m.rated_games}) put(out, v);
    put(out, m.rating_sum);
  }
  for (const ExplorerSummary::TopGame& g : summary.top_games) {
    put(out, g.id);
    put(out, g.code);
  }
  return out;
}

std::optional<ExplorerSummary> decode(std::span<const std::byte> data) {
  ExplorerSummary summary;
  size_t at = 0;
  uint16_t move_count, top_count;
  if (!get(data, at, summary.games) || !get(data, at, summary.ended_here) || !get(data, at, move_count) ||
      !get(data, at, top_count))
    return std::nullopt;
  for (uint16_t i = 0; i < move_count; ++i) {
    ExplorerSummary::Move& m = summary.moves.emplace_back();
    if (!get(data, at, m.code) || !get(data, at, m.games) || !get(data, at, m.white_wins) ||
        !get(data, at, m.draws) || !get(data, at, m.black_wins) || !get(data, at, m.rated_games) ||
        !get(data, at, m.rating_sum))
      return std::nullopt;
  }
  for (uint16_t i = 0; i < top_count; ++i) {
    ExplorerSummary::TopGame& g = summary.top_games.emplace_back();
    if (!get(data, at, g.id) || !get(data, at, g.code)) return std::nullopt;
  }
  return summary;
}

}  // namespace

int64_t summary_stamp(Database& db) {
  Statement s = db.prepare(kStamp);
  return s.step() ? s.column_int64(0) : 0;
}

ExplorerSummaryWriter::ExplorerSummaryWriter(Database& db) {
  db.exec("DELETE FROM explorer_summaries");
  stamp_ = summary_stamp(db);
  insert_ = db.prepare(kInsert);
}

size_t ExplorerSummaryWriter::write(uint64_t key, const ExplorerSummary& summary) {
  const std::string data = encode(summary);
  insert_.reset();
  insert_.bind_int64(1, int64_t(key));
  insert_.bind_int64(2, stamp_);
  insert_.bind_blob(3, std::as_bytes(std::span(data)));
  insert_.run();
  return data.size();
}

std::optional<ExplorerSummary> read_explorer_summary(Database& db, uint64_t key) {
  if (!db.has_table("explorer_summaries")) return std::nullopt;
  Statement s = db.prepare(kSelect);
  s.bind_int64(1, int64_t(key));
  if (!s.step() || s.column_int64(0) != summary_stamp(db)) return std::nullopt;
  return decode(s.column_blob(1));
}

SegmentTotals segment_totals(Database& db, int64_t below_id) {
  Statement s = db.prepare(kSegmentTotals);
  s.bind_int64(1, below_id);
  if (!s.step()) return {};
  return {s.column_int64(0), s.column_int64(1), s.column_int64(2)};
}

std::unordered_map<uint64_t, ExplorerSummary> read_explorer_summaries(Database& db, int64_t stamp) {
  std::unordered_map<uint64_t, ExplorerSummary> rows;
  if (!db.has_table("explorer_summaries")) return rows;
  Statement s = db.prepare(kSelectStamped);
  s.bind_int64(1, stamp);
  while (s.step())
    if (std::optional<ExplorerSummary> summary = decode(s.column_blob(1))) rows.emplace(uint64_t(s.column_int64(0)), std::move(*summary));
  return rows;
}

void write_eco_positions(Database& db) {
  // In key order (as SQLite orders the rowid: signed), each row goes in as an append,
  // not a B-tree search and a split page: a quarter of the instructions.
  std::vector<std::pair<int64_t, const EcoEntry*>> rows;
  EcoTable::builtin().for_each_position([&](uint64_t key, const EcoEntry& e) { rows.emplace_back(int64_t(key), &e); });
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  // The table is this build's constant: a database that holds it already (an append)
  // keeps it, instead of having its 3,807 rows deleted and written again.
  {
    Statement stored = db.prepare(kEcoPositionsInKeyOrder);
    size_t same = 0;
    bool held = true;
    while (held && stored.step()) {
      held = same < rows.size() && stored.column_int64(0) == rows[same].first &&
             stored.column_text(1) == rows[same].second->eco && stored.column_text(2) == rows[same].second->name;
      same += held;
    }
    if (held && same == rows.size()) return;
  }
  db.exec("DELETE FROM eco_positions");
  static const std::string kInsertEcoBatch = multi_row_insert(kInsertEco, kEcoRowsPerInsert);
  insert_rows(db.cached(kInsertEco), db.cached(kInsertEcoBatch), kEcoRowsPerInsert, 3, rows.size(),
              [&](Statement& s, int first, size_t row) {
                s.bind_int64(first, rows[row].first);
                s.bind_text_static(first + 1, rows[row].second->eco);  // the builtin table lives as long as the process
                s.bind_text_static(first + 2, rows[row].second->name);
              });
}

OpeningName name_opening(Database& db, std::span<const uint64_t> keys) {
  bool stored = db.has_table("eco_positions");
  if (stored) {  // an import that built no summaries left it empty
    Statement any = db.prepare(kAnyEcoPosition);
    stored = any.step() && any.column_int64(0) == 1;
  }
  if (!stored) {
    const EcoTable& table = EcoTable::builtin();
    for (size_t i = keys.size(); i-- > 0;)
      if (const EcoEntry* e = table.find(keys[i])) return {std::string(e->eco), std::string(e->name)};
    return {};
  }
  Statement s = db.prepare(kSelectEco);
  for (size_t i = keys.size(); i-- > 0;) {
    s.reset();
    s.bind_int64(1, int64_t(keys[i]));
    if (s.step()) return {std::string(s.column_text(0)), std::string(s.column_text(1))};
  }
  return {};
}

}  // namespace pgnbase::store
