#include "query/explorer_summary.h"

#include <bit>
#include <cstring>
#include <deque>
#include <unordered_set>

#include "core/fen.h"
#include "core/move_code.h"
#include "core/movegen.h"
#include "core/san.h"
#include "store/eco_table.h"
#include "query/game_row.h"

namespace pgnbase::query {

namespace {

static_assert(std::endian::native == std::endian::little, "summaries are stored in the machine's order");

// Row data, little-endian, packed:
// | part   | fields                                                                      |
// |--------|-----------------------------------------------------------------------------|
// | header | u32 games, u32 ended_here, u16 moves, u16 top games                         |
// | move   | u16 MoveCode, u32 games, u32 white_wins, u32 draws, u32 black_wins,         |
// |        | u32 rated_games, u64 sum of the mover's ratings                             |
// | top    | u32 game id, u16 MoveCode of the move it played here (0xFFFF: it ended)     |
constexpr uint16_t kEndedHere = 0xFFFF;

constexpr std::string_view kCreate =
    "CREATE TABLE IF NOT EXISTS explorer_summaries (key INTEGER PRIMARY KEY, stamp INTEGER NOT NULL, "
    "data BLOB NOT NULL)";
constexpr std::string_view kHasTable =
    "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'explorer_summaries'";
// What the stored answers were computed from: the content version (store/counters.h,
// bumped by every import, removal and replacement, in its own transaction) and the
// posting count (all a version 4 database has).
constexpr std::string_view kStamp =
    "SELECT coalesce(sum(postings), 0) + 1099511627776 * "
    "coalesce((SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'content_version'), 0) FROM position_segments";
constexpr std::string_view kSelect = "SELECT stamp, data FROM explorer_summaries WHERE key = ?1";
constexpr std::string_view kCreateEco =
    "CREATE TABLE IF NOT EXISTS eco_positions (key INTEGER PRIMARY KEY, eco TEXT NOT NULL, name TEXT NOT NULL)";
constexpr std::string_view kHasEcoTable =
    "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'eco_positions'";
constexpr std::string_view kSelectEco = "SELECT eco, name FROM eco_positions WHERE key = ?1";
constexpr std::string_view kInsertEco = "INSERT OR REPLACE INTO eco_positions(key, eco, name) VALUES (?1, ?2, ?3)";
constexpr std::string_view kInsert = "INSERT OR REPLACE INTO explorer_summaries(key, stamp, data) VALUES (?1, ?2, ?3)";

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

int64_t stamp_of(store::Database& db) {
  store::Statement s = db.prepare(kStamp);
  return s.step() ? s.column_int64(0) : 0;
}

std::string encode(const Board& position, const ExplorerResult& r) {
  std::string out;
  put(out, uint32_t(r.games));
  put(out, uint32_t(r.ended_here));
  put(out, uint16_t(r.moves.size()));
  put(out, uint16_t(r.top_games.size()));
  for (const ExplorerMove& m : r.moves) {
    put(out, encode_move(position, m.move));
    for (uint64_t v : {m.games, m.white_wins, m.draws, m.black_wins, m.rated_games}) put(out, uint32_t(v));
    put(out, uint64_t(m.rating_sum));
  }
  for (const TopGame& g : r.top_games) {
    put(out, uint32_t(g.id));
    uint16_t code = kEndedHere;
    for (const ExplorerMove& m : r.moves)
      if (m.san == g.san) code = encode_move(position, m.move);
    put(out, code);
  }
  return out;
}

// Writes the builtin ECO table's positions into eco_positions (replacing what is there).
void write_eco_positions(store::Database& db) {
  db.exec(kCreateEco);
  db.exec("DELETE FROM eco_positions");
  store::Statement insert = db.prepare(kInsertEco);
  store::EcoTable::builtin().for_each_position([&](uint64_t key, const store::EcoEntry& e) {
    insert.reset();
    insert.bind_int64(1, int64_t(key));
    insert.bind_text(2, e.eco);
    insert.bind_text(3, e.name);
    insert.run();
  });
}

}  // namespace

OpeningName name_opening(store::Database& db, std::span<const uint64_t> keys) {
  bool stored;
  {
    store::Statement has = db.prepare(kHasEcoTable);
    stored = has.step() && has.column_int64(0) == 1;
  }
  if (stored) {  // an import that built no summaries left it empty
    store::Statement any = db.prepare("SELECT EXISTS (SELECT 1 FROM eco_positions)");
    stored = any.step() && any.column_int64(0) == 1;
  }
  if (!stored) {
    const store::EcoTable& table = store::EcoTable::builtin();
    for (size_t i = keys.size(); i-- > 0;)
      if (const store::EcoEntry* e = table.find(keys[i])) return {std::string(e->eco), std::string(e->name)};
    return {};
  }
  store::Statement s = db.prepare(kSelectEco);
  for (size_t i = keys.size(); i-- > 0;) {
    s.reset();
    s.bind_int64(1, int64_t(keys[i]));
    if (s.step()) return {std::string(s.column_text(0)), std::string(s.column_text(1))};
  }
  return {};
}

SummaryBuildStats build_explorer_summaries(store::Database& db, uint64_t min_games) {
  SummaryBuildStats stats;
  write_eco_positions(db);
  db.exec(kCreate);
  db.exec("DELETE FROM explorer_summaries");
  const std::optional<store::GameFacets> facets = store::read_game_facets(db);
  if (!facets) return stats;
  const int64_t stamp = stamp_of(db);
  store::Statement insert = db.prepare(kInsert);
  const Board start = parse_fen(kStartFen).value();
  std::deque<Board> queue = {start};
  std::unordered_set<uint64_t> seen = {start.key()};
  while (!queue.empty()) {
    const Board position = queue.front();
    queue.pop_front();
    ExplorerOptions options;
    options.filter.position = position;
    options.use_summaries = false;
    options.facets = &*facets;
    options.top_games = kSummaryTopGames;
    const ExplorerResult r = explore(db, options);
    if (r.games < min_games) continue;
    const std::string data = encode(position, r);
    insert.reset();
    insert.bind_int64(1, int64_t(position.key()));
    insert.bind_int64(2, stamp);
    insert.bind_blob(3, std::as_bytes(std::span(data)));
    insert.run();
    ++stats.positions;
    stats.bytes += data.size();
    for (const ExplorerMove& m : r.moves) {
      if (m.games < min_games) continue;
      Board next = position;
      UndoInfo undo;
      next.do_move(m.move, undo);
      if (seen.insert(next.key()).second) queue.push_back(next);
    }
  }
  return stats;
}

std::optional<ExplorerResult> read_explorer_summary(store::Database& db, const Board& position) {
  {
    store::Statement has = db.prepare(kHasTable);
    if (!has.step() || has.column_int64(0) == 0) return std::nullopt;
  }
  store::Statement s = db.prepare(kSelect);
  s.bind_int64(1, int64_t(position.key()));
  if (!s.step() || s.column_int64(0) != stamp_of(db)) return std::nullopt;
  const std::span<const std::byte> data = s.column_blob(1);
  size_t at = 0;
  uint32_t games, ended;
  uint16_t move_count, top_count;
  if (!get(data, at, games) || !get(data, at, ended) || !get(data, at, move_count) || !get(data, at, top_count))
    return std::nullopt;
  MoveList legal;
  generate_legal_moves(position, legal);
  ExplorerResult r;
  r.fen = write_fen(position);
  r.games = games;
  r.ended_here = ended;
  r.used_facets = true;
  for (uint16_t i = 0; i < move_count; ++i) {
    uint16_t code;
    uint32_t v[5];
    uint64_t rating_sum;
    if (!get(data, at, code)) return std::nullopt;
    for (uint32_t& x : v)
      if (!get(data, at, x)) return std::nullopt;
    if (!get(data, at, rating_sum)) return std::nullopt;
    ExplorerMove& m = r.moves.emplace_back();
    // A stored key shared with another position (a 64-bit collision) gives moves that
    // are not legal here: the summary is not this position's.
    if (!decode_stored_move(position, code, m.move) || !legal.contains(m.move)) return std::nullopt;
    append_san(position, m.move, m.san);
    append_move(position, m.move, MoveStyle::Uci, english(), m.uci);
    m.games = v[0], m.white_wins = v[1], m.draws = v[2], m.black_wins = v[3], m.rated_games = v[4];
    m.rating_sum = double(rating_sum);
  }
  for (uint16_t i = 0; i < top_count; ++i) {
    uint32_t id;
    uint16_t code;
    if (!get(data, at, id) || !get(data, at, code)) return std::nullopt;
    TopGame& g = r.top_games.emplace_back();
    g.id = id;
    Move m;
    if (code != kEndedHere && decode_stored_move(position, code, m))
      for (const ExplorerMove& em : r.moves)
        if (em.move == m) g.san = em.san;
  }
  return r;
}

}  // namespace pgnbase::query
