// The one check of a database's schema version, made by the writer before it appends and
// by every reader when it opens a database (the file may come from anyone).
#pragma once

#include <optional>
#include <stdexcept>
#include <string>

#include "core/error.h"
#include "store/database.h"

namespace pgnbase::store {

// A database this build must not read or write: not pgnbase's, or from another version.
class SchemaError : public Error {
 public:
  explicit SchemaError(const std::string& message) : Error(ErrorKind::Schema, message) {}
};

// meta's schema_version, or nullopt when meta has no such row (a database being
// created). Throws SchemaError, one line naming `shown_path`, when the value is not a
// plain number, is newer than this build's (store::kSchemaVersion) or older than the
// oldest it reads (store::older_schema_message says how to rebuild).
std::optional<int> check_schema_version(Database& db, const std::string& shown_path);

// Opens a pgnbase database read-only (queries may run while an import writes, WAL), for
// every reader. Throws StoreError when it cannot be opened, SchemaError when it is SQLite
// but not a pgnbase database or was written by a version this build does not read.
Database open_for_reading(const std::string& path);

// For the writer, after it created the tables: a new database gets its version row
// (and the pgnbase version that made it); an existing one must be one this build reads,
// and an older one that it reads becomes this version (its new tables were just created).
void check_or_write_schema_version(Database& db);

}  // namespace pgnbase::store
