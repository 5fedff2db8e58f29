// Statements about the database file itself rather than one table: what it holds, its
// pages, its change counter.
#pragma once

#include <string_view>

namespace pgnbase::store::sql {

// Ordinary tables only: a virtual table of that name would run a module's code.
inline constexpr std::string_view kHasGamesTable =
    "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('games', 'names', 'sources', 'rejects', "
    "'meta') AND sql LIKE 'CREATE TABLE%'";
inline constexpr std::string_view kPageInfo = "SELECT page_count * page_size, freelist_count * page_size "
                                              "FROM pragma_page_count(), pragma_page_size(), pragma_freelist_count()";
// Fails (no such table) when SQLite was built without SQLITE_ENABLE_DBSTAT_VTAB.
inline constexpr std::string_view kObjectSizes =
    "SELECT name, sum(pgsize), count(*) FROM dbstat GROUP BY name ORDER BY 2 DESC";
inline constexpr std::string_view kObjectNames =
    "SELECT name, type, tbl_name FROM sqlite_master WHERE type IN ('table', 'index') ORDER BY name";
// Changes when another connection commits (never for this connection's own writes).
inline constexpr std::string_view kDataVersion = "PRAGMA data_version";

}  // namespace pgnbase::store::sql
