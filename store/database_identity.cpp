#include "store/database_identity.h"

namespace pgnbase::store {

namespace {

std::string first_text(Database& db, std::string_view sql, std::string_view bound = {}) {
  Statement s = db.prepare(sql);
  if (!bound.empty()) s.bind_text(1, bound);
  return s.step() && !s.column_is_null(0) ? std::string(s.column_text(0)) : std::string();
}

}  // namespace

std::string database_identity(Database& db) {
  std::string id = first_text(db, "SELECT value FROM meta WHERE key = ?1", kDatabaseId);
  if (id.empty()) id = first_text(db, "SELECT content_hash FROM sources ORDER BY id LIMIT 1");
  return id;
}

void pin_database_identity(Database& db) {
  if (!first_text(db, "SELECT value FROM meta WHERE key = ?1", kDatabaseId).empty()) return;
  const std::string id = first_text(db, "SELECT content_hash FROM sources ORDER BY id LIMIT 1");
  if (id.empty()) return;
  Statement s = db.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES (?1, ?2)");
  s.bind_text(1, kDatabaseId);
  s.bind_text(2, id);
  s.run();
}

}  // namespace pgnbase::store
