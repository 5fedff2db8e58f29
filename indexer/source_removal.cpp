#include "indexer/source_removal.h"

#include <charconv>

#include "indexer/store/position_segments.h"

namespace pgnbase::indexer {

namespace {

uint64_t count(store::Database& db, std::string_view sql, int64_t source_id) {
  store::Statement s = db.prepare(sql);
  s.bind_int64(1, source_id);
  return s.step() ? uint64_t(s.column_int64(0)) : 0;
}

}  // namespace

std::vector<int64_t> find_sources_named(store::Database& db, std::string_view id_or_path) {
  std::vector<int64_t> ids;
  int64_t id = 0;
  const char* end = id_or_path.data() + id_or_path.size();
  auto [at, error] = std::from_chars(id_or_path.data(), end, id);
  store::Statement s = db.prepare("SELECT id FROM sources WHERE path = ?1 OR id = ?2 ORDER BY id");
  s.bind_text(1, std::string(id_or_path));
  s.bind_int64(2, error == std::errc() && at == end ? id : -1);
  while (s.step()) ids.push_back(s.column_int64(0));
  return ids;
}

RemovedSource remove_source(store::Database& db, int64_t source_id) {
  RemovedSource removed;
  removed.id = source_id;
  {
    store::Statement s = db.prepare("SELECT path FROM sources WHERE id = ?1");
    s.bind_int64(1, source_id);
    if (s.step()) removed.path = std::string(s.column_text(0));
  }
  // A source's games are one id range (each file is imported in one transaction), which
  // its segment records: the deletes then walk that range, not the whole table.
  int64_t first = 0, last = INT64_MAX;
  {
    store::Statement s = db.prepare("SELECT first_game_id, last_game_id, postings FROM position_segments WHERE segment_id = ?1");
    s.bind_int64(1, source_id);
    if (s.step()) {
      first = s.column_int64(0);
      last = s.column_int64(1);
      removed.postings = uint64_t(s.column_int64(2));
    }
  }
  for (std::string_view sql : {"SELECT count(*) FROM games WHERE id BETWEEN ?2 AND ?3 AND source_id = ?1",
                               "DELETE FROM game_annotations WHERE id IN "
                               "(SELECT id FROM games WHERE id BETWEEN ?2 AND ?3 AND source_id = ?1)",
                               "DELETE FROM game_material WHERE id IN "
                               "(SELECT id FROM games WHERE id BETWEEN ?2 AND ?3 AND source_id = ?1)",
                               "DELETE FROM games WHERE id BETWEEN ?2 AND ?3 AND source_id = ?1"}) {
    store::Statement s = db.prepare(sql);
    s.bind_int64(1, source_id);
    s.bind_int64(2, first);
    s.bind_int64(3, last);
    if (s.step()) removed.games = uint64_t(s.column_int64(0));
  }
  removed.rejects = count(db, "SELECT count(*) FROM rejects WHERE source_id = ?1", source_id);
  for (std::string_view sql : {"DELETE FROM rejects WHERE source_id = ?1", "DELETE FROM sources WHERE id = ?1"}) {
    store::Statement s = db.prepare(sql);
    s.bind_int64(1, source_id);
    s.run();
  }
  // The segment holds only this source's games: dropping it removes every posting of
  // them, so no search or explorer count can meet a removed game.
  delete_position_segment(db, source_id);
  return removed;
}

std::string describe(const RemovedSource& removed) {
  return "source " + std::to_string(removed.id) + " (" + removed.path + "): " + std::to_string(removed.games) +
         (removed.games == 1 ? " game, " : " games, ") + std::to_string(removed.rejects) +
         (removed.rejects == 1 ? " reject, " : " rejects, ") + std::to_string(removed.postings) + " positions removed";
}

}  // namespace pgnbase::indexer
