#include "store/counters.h"

#include <algorithm>
#include <charconv>
#include <string>

namespace pgnbase::store {

namespace {

int64_t single_value(Database& db, std::string_view sql) {
  Statement& s = db.cached(sql);
  const int64_t value = s.step() ? s.column_int64(0) : 0;
  s.reset();  // a cached statement left on a row would hold its read transaction open
  return value;
}

}  // namespace

int64_t read_counter(Database& db, std::string_view key) {
  if (!db.has_table("meta")) return 0;
  Statement& s = db.cached("SELECT value FROM meta WHERE key = ?1");
  s.bind_text(1, key);
  if (!s.step()) return 0;
  const std::string_view text = s.column_text(0);
  int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  const bool valid = error == std::errc() && end == text.data() + text.size() && value > 0;
  s.reset();
  return valid ? value : 0;
}

void raise_counter(Database& db, std::string_view key, int64_t value) {
  if (value <= read_counter(db, key)) return;
  Statement& s = db.cached("INSERT OR REPLACE INTO meta(key, value) VALUES (?1, ?2)");
  s.bind_text(1, key);
  s.bind_text(2, std::to_string(value));
  s.run();
}

int64_t next_game_id(Database& db) {
  int64_t last = std::max(read_counter(db, kLastGameId), single_value(db, "SELECT coalesce(max(id), 0) FROM games"));
  if (db.has_table("position_segments"))
    last = std::max(last, single_value(db, "SELECT coalesce(max(last_game_id), 0) FROM position_segments"));
  return last + 1;
}

int64_t allocate_source_id(Database& db) {
  int64_t last = std::max(read_counter(db, kLastSourceId), single_value(db, "SELECT coalesce(max(id), 0) FROM sources"));
  if (db.has_table("position_segments"))
    last = std::max(last, single_value(db, "SELECT coalesce(max(segment_id), 0) FROM position_segments"));
  raise_counter(db, kLastSourceId, last + 1);
  return last + 1;
}

void bump_content_version(Database& db) {
  const int64_t next = read_counter(db, kContentVersion) + 1;
  Statement& s = db.cached("INSERT OR REPLACE INTO meta(key, value) VALUES (?1, ?2)");
  s.bind_text(1, kContentVersion);
  s.bind_text(2, std::to_string(next));
  s.run();
}

}  // namespace pgnbase::store
