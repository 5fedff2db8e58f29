#include "store/game_facets.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <unordered_map>

#include "store/counters.h"

namespace pgnbase::store {

namespace {

static_assert(std::endian::native == std::endian::little, "facet arrays are stored in the machine's order");

// A column is stored in chunks of kChunkGames elements, row "NAME.K" holding ids
// K * kChunkGames up to the next chunk (the last chunk only up to last_id), so that an
// import appends to the last chunk and adds new ones instead of rewriting whole columns
// (20 MB on a 10M-game database, at every source).
constexpr size_t kChunkGames = size_t{1} << 16;

std::string chunk_name(std::string_view column, size_t chunk) { return std::string(column) + "." + std::to_string(chunk); }

// Elements of a chunk when the facets cover ids 0 to last_id.
size_t chunk_size(size_t chunk, uint32_t last_id) {
  const size_t games = size_t(last_id) + 1;
  return std::min(kChunkGames, games - std::min(games, chunk * kChunkGames));
}

// Reads chunk `chunk` of a column into out, starting at element (chunk - first) * kChunkGames;
// false when it is missing or not `expected` elements long (stale or damaged facets).
template <typename T>
bool read_chunk(Database& db, std::string_view column, size_t chunk, size_t first, size_t expected, std::vector<T>& out) {
  Statement s = db.prepare("SELECT rowid FROM game_facets WHERE name = ?1");
  s.bind_text(1, chunk_name(column, chunk));
  if (!s.step()) return false;
  const int64_t rowid = s.column_int64(0);
  s.reset();
  if (db.blob_bytes("game_facets", "data", rowid) != expected * sizeof(T)) return false;
  const size_t at = (chunk - first) * kChunkGames;
  if (out.size() < at + expected) out.resize(at + expected);
  db.read_blob("game_facets", "data", rowid, std::as_writable_bytes(std::span(out).subspan(at, expected)));
  return true;
}

// Chunks first to end - 1 of a column covering ids 0 to last_id, into out from element 0.
template <typename T>
bool read_chunks(Database& db, std::string_view column, size_t first, size_t end, uint32_t last_id, std::vector<T>& out) {
  out.clear();
  size_t total = 0;  // reserved at once: growing chunk by chunk copied each column about twice
  for (size_t chunk = first; chunk < end; ++chunk) total += chunk_size(chunk, last_id);
  out.reserve(total);
  for (size_t chunk = first; chunk < end; ++chunk)
    if (!read_chunk(db, column, chunk, first, chunk_size(chunk, last_id), out)) return false;
  return true;
}

std::string read_text(Database& db, std::string_view name) {
  Statement s = db.prepare("SELECT data FROM game_facets WHERE name = ?1");
  s.bind_text(1, name);
  if (!s.step()) return {};
  const std::span<const std::byte> blob = s.column_blob(0);
  return {reinterpret_cast<const char*>(blob.data()), blob.size()};
}

void write_blob(Database& db, std::string_view name, std::span<const std::byte> bytes) {
  Statement s = db.prepare("INSERT OR REPLACE INTO game_facets(name, data) VALUES (?1, ?2)");
  s.bind_text(1, name);
  s.bind_blob(2, bytes);
  s.run();
}

// Writes chunks first to end - 1 of a column from `column` (element 0 = chunk first's first).
template <typename T>
void write_chunks(Database& db, std::string_view name, const std::vector<T>& column, size_t first, size_t end,
                  uint32_t last_id) {
  for (size_t chunk = first; chunk < end; ++chunk)
    write_blob(db, chunk_name(name, chunk),
               std::as_bytes(std::span(column).subspan((chunk - first) * kChunkGames, chunk_size(chunk, last_id))));
}

uint32_t read_last_id(Database& db) {
  const std::string last = read_text(db, "last_id");
  return last.empty() ? 0 : uint32_t(std::stoul(last));
}

bool has_facets_table(Database& db) {
  Statement s = db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'game_facets'");
  return s.step() && s.column_int64(0) == 1;
}

// The largest id given to a game, removed ones included (ids are never reused), so that
// removing the newest games leaves the facets current.
uint32_t max_game_id(Database& db) { return uint32_t(next_game_id(db) - 1); }

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

// Every chunk of the columns asked for; false when one is missing or of the wrong size.
bool load(Database& db, GameFacets& f, FacetColumns columns) {
  f.last_id = read_last_id(db);
  const size_t chunks = size_t(f.last_id) / kChunkGames + 1;
  if (columns.ratings && !(read_chunks(db, "white_elo", 0, chunks, f.last_id, f.white_elo) &&
                           read_chunks(db, "black_elo", 0, chunks, f.last_id, f.black_elo)))
    return false;
  if (columns.date && !read_chunks(db, "date_key", 0, chunks, f.last_id, f.date_key)) return false;
  if (columns.time_control) {
    if (!read_chunks(db, "time_control", 0, chunks, f.last_id, f.time_control)) return false;
    f.time_controls = split_lines(read_text(db, "time_controls"));
  }
  return true;
}

// The number of a time control in names (1 + its index), added when new; 0 for one that
// cannot be stored: holding a line break (names are stored one per line), or past 65,535.
uint16_t time_control_number(const std::string& value, std::vector<std::string>& names,
                             std::unordered_map<std::string, uint16_t>& numbers) {
  if (auto it = numbers.find(value); it != numbers.end()) return it->second;
  if (numbers.size() >= 65535 || value.find('\n') != std::string::npos) return 0;
  names.push_back(value);
  return numbers.emplace(value, uint16_t(names.size())).first->second;
}

uint16_t clamp_rating(std::optional<int64_t> rating) {
  const int64_t v = rating.value_or(0);
  return v > 0 && v < 65536 ? uint16_t(v) : 0;
}

}  // namespace

void NewGameFacets::add(uint32_t id, std::optional<int64_t> white_elo, std::optional<int64_t> black_elo,
                        std::optional<int64_t> date_key, const std::optional<std::string>& time_control) {
  if (white_elo_.empty() || id < first_id_) {
    clear();
    first_id_ = id;
  }
  const size_t i = size_t(id - first_id_);
  white_elo_.resize(i + 1);  // zeros for ids skipped
  black_elo_.resize(i + 1);
  date_key_.resize(i + 1);
  time_control_.resize(i + 1);
  white_elo_[i] = clamp_rating(white_elo);
  black_elo_[i] = clamp_rating(black_elo);
  date_key_[i] = date_key ? int32_t(*date_key) : 0;
  time_control_[i] = time_control ? time_control_number(*time_control, time_controls_, time_control_index_) : 0;
}

void NewGameFacets::drop_from(uint32_t id) {
  if (id <= first_id_) {
    clear();
    return;
  }
  const size_t keep = std::min(white_elo_.size(), size_t(id - first_id_));
  white_elo_.resize(keep);
  black_elo_.resize(keep);
  date_key_.resize(keep);
  time_control_.resize(keep);
}

void NewGameFacets::clear() {
  first_id_ = 0;
  white_elo_ = {};
  black_elo_ = {};
  date_key_ = {};
  time_control_ = {};
  time_controls_.clear();
  time_control_index_.clear();
}

void append_game_facets(Database& db, uint32_t last_game_id, const NewGameFacets& games) {
  const uint32_t old_last = read_last_id(db);
  const size_t first = (size_t(old_last) + 1) / kChunkGames, end = size_t(last_game_id) / kChunkGames + 1;
  // The stored time controls, then the new games' own, renumbered into them.
  std::vector<std::string> time_controls = split_lines(read_text(db, "time_controls"));
  std::unordered_map<std::string, uint16_t> tc_index;
  for (size_t i = 0; i < time_controls.size(); ++i) tc_index.emplace(time_controls[i], uint16_t(i + 1));
  std::vector<uint16_t> stored_tc(games.time_controls().size() + 1, 0);  // by the games' own number
  for (size_t i = 0; i < games.time_controls().size(); ++i)
    stored_tc[i + 1] = time_control_number(games.time_controls()[i], time_controls, tc_index);
  // One chunk at a time: the old last chunk, partly filled, is read first (on a fresh
  // database it is absent: zeros).
  std::vector<uint16_t> white(kChunkGames), black(kChunkGames), tc(kChunkGames);
  std::vector<int32_t> date(kChunkGames);
  for (size_t chunk = first; chunk < end; ++chunk) {
    std::fill(white.begin(), white.end(), 0);
    std::fill(black.begin(), black.end(), 0);
    std::fill(date.begin(), date.end(), 0);
    std::fill(tc.begin(), tc.end(), 0);
    const size_t old_size = chunk_size(chunk, old_last);
    if (old_size > 0) {
      read_chunk(db, "white_elo", chunk, chunk, old_size, white);
      read_chunk(db, "black_elo", chunk, chunk, old_size, black);
      read_chunk(db, "date_key", chunk, chunk, old_size, date);
      read_chunk(db, "time_control", chunk, chunk, old_size, tc);
    }
    // The new games of this chunk: ids above old_last, up to last_game_id.
    const size_t base = chunk * kChunkGames;
    const size_t from = std::max({base, size_t(old_last) + 1, size_t(games.first_id())});
    const size_t to = std::min({base + kChunkGames, size_t(last_game_id) + 1, size_t(games.first_id()) + games.size()});
    for (size_t id = from; id < to; ++id) {
      const size_t g = id - games.first_id(), i = id - base;
      white[i] = games.white_elo()[g];
      black[i] = games.black_elo()[g];
      date[i] = games.date_key()[g];
      tc[i] = stored_tc[games.time_control()[g]];
    }
    const size_t size = chunk_size(chunk, last_game_id);
    write_blob(db, chunk_name("white_elo", chunk), std::as_bytes(std::span(white).first(size)));
    write_blob(db, chunk_name("black_elo", chunk), std::as_bytes(std::span(black).first(size)));
    write_blob(db, chunk_name("date_key", chunk), std::as_bytes(std::span(date).first(size)));
    write_blob(db, chunk_name("time_control", chunk), std::as_bytes(std::span(tc).first(size)));
  }
  std::string names;
  for (const std::string& name : time_controls) names += name + "\n";
  write_blob(db, "time_controls", std::as_bytes(std::span(names)));
  const std::string last_text = std::to_string(last_game_id);
  write_blob(db, "last_id", std::as_bytes(std::span(last_text)));
}

void clear_game_facets(Database& db, std::span<const int64_t> ids) {
  if (ids.empty() || !has_facets_table(db)) return;
  const uint32_t last_id = read_last_id(db);
  std::vector<int64_t> sorted(ids.begin(), ids.end());
  std::sort(sorted.begin(), sorted.end());
  // One chunk at a time: read, zero its removed games, write back.
  for (size_t i = 0; i < sorted.size();) {
    if (sorted[i] < 0 || sorted[i] > int64_t(last_id)) {
      ++i;
      continue;
    }
    const size_t chunk = size_t(sorted[i]) / kChunkGames, first_id = chunk * kChunkGames;
    size_t j = i;
    while (j < sorted.size() && sorted[j] <= int64_t(last_id) && size_t(sorted[j]) / kChunkGames == chunk) ++j;
    auto clear = [&](std::string_view name, auto column) {
      if (!read_chunk(db, name, chunk, chunk, chunk_size(chunk, last_id), column)) return;
      for (size_t k = i; k < j; ++k) column[size_t(sorted[k]) - first_id] = 0;
      write_chunks(db, name, column, chunk, chunk + 1, last_id);
    };
    clear("white_elo", std::vector<uint16_t>{});
    clear("black_elo", std::vector<uint16_t>{});
    clear("date_key", std::vector<int32_t>{});
    clear("time_control", std::vector<uint16_t>{});
    i = j;
  }
}

std::optional<GameFacets> read_game_facets(Database& db, FacetColumns columns) {
  if (!has_facets_table(db)) return std::nullopt;
  GameFacets f;
  if (!load(db, f, columns) || f.last_id != max_game_id(db)) return std::nullopt;
  return f;
}

}  // namespace pgnbase::store
