#include "store/game_facets.h"

#include <bit>
#include <cstring>
#include <unordered_map>

#include "store/counters.h"

namespace pgnbase::store {

namespace {

static_assert(std::endian::native == std::endian::little, "facet arrays are stored in the machine's order");

// Megabytes on a big database (2 or 4 bytes a game): read straight into the array.
template <typename T>
void read_column(Database& db, std::string_view name, std::vector<T>& out) {
  Statement s = db.prepare("SELECT rowid FROM game_facets WHERE name = ?1");
  s.bind_text(1, name);
  out.clear();
  if (!s.step()) return;
  const int64_t rowid = s.column_int64(0);
  s.reset();
  out.resize(db.blob_bytes("game_facets", "data", rowid) / sizeof(T));
  db.read_blob("game_facets", "data", rowid, std::as_writable_bytes(std::span(out)));
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

template <typename T>
void write_column(Database& db, std::string_view name, const std::vector<T>& column) {
  write_blob(db, name, std::as_bytes(std::span(column)));
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

void load(Database& db, GameFacets& f, FacetColumns columns = {}) {
  if (columns.ratings) {
    read_column(db, "white_elo", f.white_elo);
    read_column(db, "black_elo", f.black_elo);
  }
  if (columns.date) read_column(db, "date_key", f.date_key);
  if (columns.time_control) {
    read_column(db, "time_control", f.time_control);
    f.time_controls = split_lines(read_text(db, "time_controls"));
  }
  const std::string last = read_text(db, "last_id");
  f.last_id = last.empty() ? 0 : uint32_t(std::stoul(last));
}

uint16_t clamp_rating(const Statement& s, int column) {
  if (s.column_is_null(column)) return 0;
  const int64_t v = s.column_int64(column);
  return v > 0 && v < 65536 ? uint16_t(v) : 0;
}

}  // namespace

void append_game_facets(Database& db, uint32_t last_game_id) {
  GameFacets f;
  load(db, f);
  const uint32_t last = last_game_id;
  const size_t size = size_t(last) + 1;
  f.white_elo.resize(size);
  f.black_elo.resize(size);
  f.date_key.resize(size);
  f.time_control.resize(size);
  std::unordered_map<std::string, uint16_t> tc_index;
  for (size_t i = 0; i < f.time_controls.size(); ++i) tc_index.emplace(f.time_controls[i], uint16_t(i + 1));
  Statement s = db.prepare("SELECT id, white_elo, black_elo, date_key, time_control FROM games WHERE id > ?1");
  s.bind_int64(1, f.last_id);
  while (s.step()) {
    const size_t id = size_t(s.column_int64(0));
    if (id >= size) continue;
    f.white_elo[id] = clamp_rating(s, 1);
    f.black_elo[id] = clamp_rating(s, 2);
    f.date_key[id] = s.column_is_null(3) ? 0 : int32_t(s.column_int64(3));
    if (!s.column_is_null(4)) {
      const std::string value(s.column_text(4));
      auto it = tc_index.find(value);
      if (it == tc_index.end() && tc_index.size() < 65535 && value.find('\n') == std::string::npos) {
        f.time_controls.push_back(value);
        it = tc_index.emplace(value, uint16_t(f.time_controls.size())).first;
      }
      if (it != tc_index.end()) f.time_control[id] = it->second;
    }
  }
  write_column(db, "white_elo", f.white_elo);
  write_column(db, "black_elo", f.black_elo);
  write_column(db, "date_key", f.date_key);
  write_column(db, "time_control", f.time_control);
  std::string names;
  for (const std::string& name : f.time_controls) names += name + "\n";
  write_blob(db, "time_controls", std::as_bytes(std::span(names)));
  const std::string last_text = std::to_string(last);
  write_blob(db, "last_id", std::as_bytes(std::span(last_text)));
}

void clear_game_facets(Database& db, std::span<const int64_t> ids) {
  if (ids.empty() || !has_facets_table(db)) return;
  GameFacets f;
  load(db, f);
  auto clear = [&](auto& column) {
    for (int64_t id : ids)
      if (id >= 0 && size_t(id) < column.size()) column[size_t(id)] = 0;
  };
  clear(f.white_elo);
  clear(f.black_elo);
  clear(f.date_key);
  clear(f.time_control);
  write_column(db, "white_elo", f.white_elo);
  write_column(db, "black_elo", f.black_elo);
  write_column(db, "date_key", f.date_key);
  write_column(db, "time_control", f.time_control);
}

std::optional<GameFacets> read_game_facets(Database& db, FacetColumns columns) {
  if (!has_facets_table(db)) return std::nullopt;
  GameFacets f;
  load(db, f, columns);
  const size_t size = size_t(f.last_id) + 1;
  if (f.last_id != max_game_id(db) || (columns.ratings && (f.white_elo.size() != size || f.black_elo.size() != size)) ||
      (columns.date && f.date_key.size() != size) || (columns.time_control && f.time_control.size() != size))
    return std::nullopt;
  return f;
}

}  // namespace pgnbase::store
