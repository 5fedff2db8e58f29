#include "store/schema_version.h"

#include <charconv>

#include "store/database_sql.h"
#include "store/schema.h"

namespace pgnbase::store {

std::optional<int> check_schema_version(Database& db, const std::string& shown_path) {
  Statement s = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'");
  if (!s.step()) return std::nullopt;
  // The version is shown only as the number it must be: the text may be anything.
  int version = 0;
  const std::string_view text = s.column_text(0);
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), version);
  if (text.empty() || error != std::errc() || end != text.data() + text.size())
    throw SchemaError(shown_path + " is not a pgnbase database (no numeric schema_version in its meta table)");
  if (version > store::kSchemaVersion)
    throw SchemaError(shown_path + " was written by a newer pgnbase (schema version " + std::to_string(version) +
                      ", this build reads up to " + std::to_string(store::kSchemaVersion) + ")");
  if (version < store::kOldestReadableSchemaVersion)
    throw SchemaError(store::older_schema_message(shown_path, std::to_string(version)));
  return version;
}

Database open_for_reading(const std::string& path) {
  Database db(path, Database::Mode::ReadOnly);
  Statement tables = db.prepare(sql::kHasGamesTable);
  if (!tables.step() || tables.column_int64(0) != 5)
    throw SchemaError("'" + path + "' is not a pgnbase database (no games, names, sources, rejects and meta tables)");
  if (!check_schema_version(db, "'" + path + "'"))
    throw SchemaError("'" + path + "' is not a pgnbase database (no numeric schema_version in its meta table)");
  return db;
}

void check_or_write_schema_version(Database& db) {
  if (std::optional<int> version = check_schema_version(db, db.path())) {
    if (*version < kSchemaVersion) {
      Statement update = db.prepare("UPDATE meta SET value = ?1 WHERE key = 'schema_version'");
      update.bind_text(1, std::to_string(kSchemaVersion));
      update.run();
    }
    return;
  }
  Statement insert = db.prepare("INSERT INTO meta(key, value) VALUES ('schema_version', ?1), ('created_by', ?2)");
  insert.bind_text(1, std::to_string(kSchemaVersion));
  insert.bind_text(2, "pgnbase " PGNBASE_VERSION);
  insert.run();
}

}  // namespace pgnbase::store
