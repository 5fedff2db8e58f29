// RAII handles over SQLite: Database, Statement, Transaction.
//
// This storage layer is the only code in pgnbase that includes <sqlite3.h>; it
// knows nothing of the schema. Every fatal failure throws StoreError, whose what()
// is one line naming the database path and SQLite's own message, ready for main
// to print: "cannot open database 'x.db': unable to open database file",
// "database 'x.db': database is locked (while running: BEGIN IMMEDIATE)".
//
// Thread safety: a Database and its Statements belong to one thread at a time
// (connections are opened with SQLITE_OPEN_NOMUTEX). Open one Database per thread.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "core/error.h"

struct sqlite3;
struct sqlite3_stmt;

namespace pgnbase::store {

// What went wrong, for callers that react differently (retry when Busy, etc.).
enum class StoreErrorKind {
  CannotOpen,     // the file cannot be opened or created
  NotADatabase,   // the file exists but is not SQLite (or is encrypted/corrupt header)
  Busy,           // another connection holds the lock longer than the busy timeout
  ReadOnly,       // a write on a read-only connection or file
  Full,           // disk (or quota) full
  Corrupt,        // the database file is malformed
  Constraint,     // UNIQUE, NOT NULL, CHECK, FOREIGN KEY ...
  Misuse,         // a bug in the caller: bad SQL, bind index out of range ...
  Interrupted,    // the connection's deadline (set_deadline) passed while a statement ran
  Other,
};

// Returns a short lowercase name of the kind ("busy", "not a database", ...).
std::string_view to_string(StoreErrorKind kind);

class StoreError : public Error {
 public:
  StoreError(StoreErrorKind kind, int sqlite_code, const std::string& message)
      : Error(ErrorKind::Store, message), store_kind_(kind), sqlite_code_(sqlite_code) {}

  // What SQLite said went wrong (Error::kind() is ErrorKind::Store).
  StoreErrorKind store_kind() const { return store_kind_; }
  // The extended SQLite result code, for logs and tests.
  int sqlite_code() const { return sqlite_code_; }

 private:
  StoreErrorKind store_kind_;
  int sqlite_code_;
};

class Database;

// A whole database's bytes, as sqlite3_serialize gives them (Database::image): the
// memory is SQLite's, freed with sqlite3_free unless Database::load_image takes it.
class DatabaseImage {
 public:
  DatabaseImage() = default;
  DatabaseImage(unsigned char* bytes, int64_t size) : bytes_(bytes), size_(size) {}
  ~DatabaseImage();
  DatabaseImage(DatabaseImage&& other) noexcept
      : bytes_(std::exchange(other.bytes_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  DatabaseImage& operator=(DatabaseImage&& other) noexcept;
  DatabaseImage(const DatabaseImage&) = delete;
  DatabaseImage& operator=(const DatabaseImage&) = delete;

 private:
  friend class Database;
  unsigned char* bytes_ = nullptr;
  int64_t size_ = 0;
};

// A prepared statement. Bind indexes are 1-based (as in SQL's ?1, ?2 ...);
// column indexes are 0-based (as in SQLite's C API). Views returned by column_*
// stay valid until the next step(), reset() or destruction of the statement.
// Must not outlive the Database that prepared it (moving the Database is fine).
// Movable, not copyable.
class Statement {
 public:
  Statement() = default;
  ~Statement();
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&& other) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  void bind_int64(int index, int64_t value);
  void bind_double(int index, double value);
  void bind_null(int index);
  // Copies the bytes (SQLITE_TRANSIENT): the caller's buffer may die right away.
  void bind_text(int index, std::string_view text);
  void bind_blob(int index, std::span<const std::byte> bytes);
  void bind_blob(int index, std::span<const uint8_t> bytes);
  // Does not copy (SQLITE_STATIC): the bytes must stay alive and unchanged until
  // the statement is stepped to completion and reset, or rebound.
  void bind_text_static(int index, std::string_view text);
  void bind_blob_static(int index, std::span<const std::byte> bytes);
  void bind_blob_static(int index, std::span<const uint8_t> bytes);

  // Runs one step. Returns true when a row is ready, false when done.
  bool step();
  // Steps to completion, ignoring rows (for INSERT/UPDATE/DELETE), then resets.
  void run();
  // Makes the statement ready to run again; bindings are kept.
  void reset();
  void clear_bindings();

  int column_count() const;
  enum class ColumnType { Integer, Float, Text, Blob, Null };
  ColumnType column_type(int column) const;
  bool column_is_null(int column) const;
  int64_t column_int64(int column) const;
  double column_double(int column) const;
  std::string_view column_text(int column) const;       // empty for NULL
  std::span<const std::byte> column_blob(int column) const;  // empty for NULL

  std::string_view sql() const;
  explicit operator bool() const { return stmt_ != nullptr; }

 private:
  friend class Database;
  Statement(sqlite3_stmt* stmt, std::shared_ptr<const std::string> database_path)
      : stmt_(stmt), database_path_(std::move(database_path)) {}
  [[noreturn]] void fail(int code, std::string_view while_doing) const;
  void check_bind(int code, int index) const;

  sqlite3_stmt* stmt_ = nullptr;
  std::shared_ptr<const std::string> database_path_;  // for error messages
};

// An open SQLite connection. Movable, not copyable; closes on destruction.
class Database {
 public:
  enum class Mode {
    ReadOnly,   // SQLITE_OPEN_READONLY: never writes, can query while another process writes (WAL)
    ReadWrite,  // the file must exist
    Create,     // read-write, created when missing
  };

  // Where the file's writes are made. Behind: on a thread of the file's own
  // (store/write_behind_vfs.h), for a new database that no other process reads while it
  // is built; with Journal::Private (configure_for_bulk_load), each commit waits for its
  // pages and fails when one could not be written.
  enum class Writes { InPlace, Behind };

  static constexpr std::chrono::milliseconds kDefaultBusyTimeout{5000};

  // Opens (or creates) the database and reads its header, so a file that is not
  // SQLite fails here with StoreErrorKind::NotADatabase rather than on first use.
  // Every file is treated as untrusted (it may come from anyone): defensive mode,
  // trusted_schema off, cell_size_check on, no triggers or views, and in ReadOnly mode
  // no string or blob over 256 MiB (database.cpp says why).
  Database(const std::string& path, Mode mode, Writes writes = Writes::InPlace);
  ~Database();
  Database(Database&& other) noexcept;
  Database& operator=(Database&& other) noexcept;
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  // Runs one or more SQL statements separated by ';', discarding any rows.
  void exec(std::string_view sql);
  // A stored blob (table.column of row rowid) read straight into memory the caller sizes:
  // a SELECT of a value of megabytes copies it whole into a buffer of SQLite's first.
  // blob_bytes refuses (SQLITE_TOOBIG) a blob over the connection's length limit, as a
  // SELECT would; read_blob throws when the row is gone or the blob is shorter than out.
  size_t blob_bytes(const char* table, const char* column, int64_t rowid);
  void read_blob(const char* table, const char* column, int64_t rowid, std::span<std::byte> out);
  Statement prepare(std::string_view sql);
  // The same statement, prepared once per connection and reset (bindings cleared) on each
  // call: for short statements run once per source or per commit, where preparing costs
  // more than running. The reference is good until the next cached() call with the same
  // SQL; do not use it for a statement whose rows are still being read.
  Statement& cached(std::string_view sql);

  // A savepoint inside the open transaction (SQLite's SAVEPOINT, RELEASE, ROLLBACK TO):
  // the name must be a plain identifier.
  void savepoint(std::string_view name);
  void release_savepoint(std::string_view name);
  void rollback_to_savepoint(std::string_view name);

  int64_t last_insert_rowid() const;
  // Rows changed by the most recent INSERT, UPDATE or DELETE.
  int64_t changes() const;
  bool in_transaction() const;
  // Whether the database has a table of this name (an older file may lack a newer table).
  bool has_table(std::string_view name);
  // The collating sequence a column of a table of the main database declares ("BINARY"
  // when none); nullopt when there is no such column.
  std::optional<std::string> column_collation(const std::string& table, const std::string& column);

  // How long a statement waits for another connection's lock before failing Busy.
  void set_busy_timeout(std::chrono::milliseconds timeout);
  // Waits for another connection's lock as long as it is held (no Busy failure), e.g. a
  // second import queuing behind the first; on_long_wait runs once per wait, on the
  // waiting thread, when the wait has lasted a second. Replaces the busy timeout.
  void wait_for_locks(std::function<void()> on_long_wait);

  // Makes every statement that is still running once DEADLINE has passed fail with
  // StoreErrorKind::Interrupted (SQLite's progress handler, checked every few thousand
  // virtual machine steps), so a server's request ends instead of holding its thread;
  // nullopt removes the bound. The connection stays usable afterwards.
  void set_deadline(std::optional<std::chrono::steady_clock::time_point> deadline);

  // How a bulk load journals its writes. Shared: the WAL, so that readers see each
  // commit and a crash keeps the last one. Private: for a file that no other process
  // opens (a new database built under a private name, indexer/fresh_build.h): the
  // rollback journal in memory and no syncs (written behind: syncs that only wait for
  // the file's writes), since a crash throws that file away;
  // savepoints still roll back. A WAL writes every page twice (the log, then the
  // checkpoint): the private journal takes 4% off the writing thread's CPU on 1.48M
  // games without comments, half on TCEC's long comments (bench/README.md).
  enum class Journal { Shared, Private };
  // Sets the bulk-load pragmas: the journal, synchronous=NORMAL for the WAL (durable at
  // checkpoints, never corrupt), a 32 MiB page cache, and up to sort_threads helper
  // threads for SQLite's own sorts (build_indexes).
  void configure_for_bulk_load(unsigned sort_threads = 0, Journal journal = Journal::Shared);
  // Runs CREATE INDEX statements with SQLite's sorter cutting its input into sorted runs
  // of 4 MiB in temporary files (unlinked at once; SQLITE_TMPDIR, else TMPDIR, else
  // /var/tmp or /tmp), which the helper threads of configure_for_bulk_load, if it gave
  // any, sort and merge beside the writing thread. A database that fits the 32 MiB bulk-load cache keeps that
  // cache: its sorts are under 4 MiB anyway, and its tables are read once, not once per
  // index (0.95 of the import's wall time on the bench files). A sort held in memory
  // (temp_store=MEMORY, or runs as large as the page cache) stays on the writing thread
  // alone, and its memory grows with the table: 14.1 s against 8.7 s for the games
  // indexes of 1.48M games on 2 cores (bench/README.md). (Mapping the file meanwhile
  // saved system time but put the mapped table in the resident set: 746 MB peak on 1.48M
  // games.) after_each, when given, runs after each statement of sql (the import's writer
  // inserts the position blocks that are ready meanwhile). helper_run_kib > 0 (when the
  // helper threads have cores of their own): a database that fits the cache is sorted in
  // runs of that many KiB too, which the helpers sort, and its pages stay in the cache
  // (the spill threshold stays at the cache's size); kHelperRunKib took a quarter off
  // the writing thread's instructions for the master-style bench file's indexes, for
  // about twice that on the helpers (bench/README.md). Those runs really are that size
  // since SQLite's minimum run size is one page (configured at start-up): before, they
  // came out at 1 MiB, and the writing thread merged the first half MiB of each index.
  void build_indexes(std::string_view sql, const std::function<void()>& after_each = {}, int helper_run_kib = 0);
  static constexpr int kHelperRunKib = 256;
  // Copies the WAL's pages into the database file and empties the WAL (a file's size
  // then is what it holds).
  void checkpoint_wal();

  // Names B-trees made outside SQLite (store/index_bulk_build.h) as indexes: one row of
  // sqlite_schema each (type 'index', name, table, root page, the CREATE INDEX text as
  // SQLite keeps it), in one transaction that also bumps the schema cookie, so that every
  // connection reads the schema anew. Call with no other connection open.
  struct BuiltIndex {
    std::string name, table, sql;
    uint32_t root_page;
  };
  void register_built_indexes(std::span<const BuiltIndex> indexes);

  // A copy of the main database's bytes (an in-memory one's, above all).
  DatabaseImage image();
  // Attaches an empty in-memory database as `schema` (outside a transaction only, as any
  // ATTACH), which load_image then fills.
  void attach_in_memory(std::string_view schema);
  // Makes the attached `schema` hold image in place of what it held (SQLite's
  // sqlite3_deserialize). The schema owns the bytes from then on. SQLite 3.40 allows it
  // inside a transaction; later releases refuse it there (SQLITE_BUSY): false then,
  // nothing loaded.
  bool load_image(std::string_view schema, DatabaseImage image);

  // Runs PRAGMA integrity_check and returns its rows joined by '\n' ("ok" when fine).
  std::string integrity_check();

  // The path as given to the constructor.
  const std::string& path() const { return *path_; }
  Mode mode() const { return mode_; }

 private:
  [[noreturn]] void fail(int code, std::string_view while_doing) const;

  sqlite3* db_ = nullptr;
  std::shared_ptr<const std::string> path_;  // shared with Statements, for messages
  Mode mode_ = Mode::ReadOnly;
  Writes writes_ = Writes::InPlace;
  struct LockWait;
  std::unique_ptr<LockWait> lock_wait_;  // wait_for_locks' state; SQLite holds its address
  std::unordered_map<std::string, Statement> cached_;
  std::unique_ptr<std::chrono::steady_clock::time_point> deadline_;  // SQLite holds its address
};

// BEGIN IMMEDIATE on construction (takes the write lock now, so a second writer
// fails early with Busy instead of deadlocking mid-transaction); ROLLBACK on
// destruction unless commit() succeeded. Not movable; one per scope.
class Transaction {
 public:
  explicit Transaction(Database& db);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

  void commit();
  bool committed() const { return committed_; }

 private:
  Database& db_;
  bool committed_ = false;
};

}  // namespace pgnbase::store
