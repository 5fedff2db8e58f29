// What names a database across its whole life, for copies kept elsewhere (the Parquet
// dataset's _meta checks it before appending): the content hash of the first source it
// ever imported. While that source is there, it is read from the sources table; a
// removal pins it first in the meta table (key database_id), so removing or replacing
// the first source, or every source, does not change it.
#pragma once

#include <string>
#include <string_view>

#include "store/database.h"

namespace pgnbase::store {

inline constexpr std::string_view kDatabaseId = "database_id";

// The database's identity: meta's database_id, else its first source's content hash;
// "" for a database that never imported a file.
std::string database_identity(Database& db);

// Stores the identity in meta unless it is there already; call in the transaction of a
// removal, before any source is deleted.
void pin_database_identity(Database& db);

}  // namespace pgnbase::store
