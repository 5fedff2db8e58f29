// Adds indexes to a database file that no connection has open, built on helper threads:
// SQLite can only build them one after another on one connection's thread (CREATE INDEX
// reads the whole table once per index), which was half the CPU of a new database's
// writing thread, the import's ceiling. Helpers sort rowid ranges of the table, each on
// a read-only connection of its own (SELECT ... ORDER BY the index's columns and the
// rowid: SQLite's sorter, the index's order); one helper per index merges its ranges and
// lays the records out as B-tree pages (store/index_btree.h) in a temporary file beside
// the database; the calling thread appends the pages to the database file and names the
// new trees in sqlite_schema (Database::register_built_indexes).
//
// Only for a file nobody else reads or writes meanwhile (a new database under its private
// name, indexer/fresh_build.h): the pages go in with plain writes, no journal. An index
// the helpers do not build is built by SQLite's CREATE INDEX instead: a value other than
// NULL, an integer or text; a record over a quarter page; a column of another collation
// than BINARY; a form they do not read (UNIQUE, expressions, COLLATE, DESC); every index
// of a file in WAL mode, with auto-vacuum, not in UTF-8, or whose size and header differ.
#pragma once

#include <string>
#include <string_view>

namespace pgnbase::store {

struct BulkIndexReport {
  int built_beside = 0;    // by the helpers
  int built_by_sqlite = 0;  // by CREATE INDEX
  double wall_seconds = 0;
  // The CPU seconds of the longest chain of work that one index needs: the sort of its
  // slowest part, then the merge of its parts into pages. With a helper for each, the
  // indexes take no less.
  double serial_seconds = 0;
};

// An import builds a new database's games indexes so with this many threads or more.
// With fewer, SQLite's CREATE INDEX on the writer's thread ends the import sooner: it
// runs beside the position index's last merge, where these run after it (2 cores: x8 at
// -j 2 0.98-1.17 of the wall time, at -j 4 1.00-1.05; bench/README.md).
inline constexpr unsigned kFewestThreadsForBulkIndexes = 4;

// statements: CREATE INDEX IF NOT EXISTS NAME ON TABLE(COLUMN, ...) [WHERE ...], separated
// by ';'. Builds those the database at path lacks, on up to `threads` threads (the caller's
// waits). The helpers' CPU counts in ThreadRole::Indexes. Throws StoreError (SQLite) or
// std::system_error (the files); the database file is then unusable, as a write that
// failed halfway leaves any file.
BulkIndexReport add_indexes_in_bulk(const std::string& path, std::string_view statements, unsigned threads);

}  // namespace pgnbase::store
