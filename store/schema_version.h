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

}  // namespace pgnbase::store
