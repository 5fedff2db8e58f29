#include "store/database.h"

#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <mutex>
#include <thread>
#include <utility>

#include "store/write_behind_vfs.h"

namespace pgnbase::store {

namespace {

StoreErrorKind kind_of(int code) {
  switch (code & 0xff) {
    case SQLITE_CANTOPEN: return StoreErrorKind::CannotOpen;
    case SQLITE_NOTADB: return StoreErrorKind::NotADatabase;
    case SQLITE_BUSY:
    case SQLITE_LOCKED: return StoreErrorKind::Busy;
    case SQLITE_READONLY: return StoreErrorKind::ReadOnly;
    case SQLITE_FULL: return StoreErrorKind::Full;
    case SQLITE_CORRUPT: return StoreErrorKind::Corrupt;
    case SQLITE_CONSTRAINT: return StoreErrorKind::Constraint;
    case SQLITE_INTERRUPT: return StoreErrorKind::Interrupted;
    case SQLITE_ERROR:
    case SQLITE_MISUSE:
    case SQLITE_RANGE: return StoreErrorKind::Misuse;
    default: return StoreErrorKind::Other;
  }
}

// Keeps error lines short: the first line of the SQL, at most 80 characters.
std::string abbreviate_sql(std::string_view sql) {
  while (!sql.empty() && (sql.front() == ' ' || sql.front() == '\n' || sql.front() == '\t'))
    sql.remove_prefix(1);
  std::string_view first_line = sql.substr(0, sql.find('\n'));
  constexpr size_t kMaxLength = 80;
  if (first_line.size() > kMaxLength) return std::string(first_line.substr(0, kMaxLength)) + "...";
  if (first_line.size() < sql.size()) return std::string(first_line) + " ...";
  return std::string(first_line);
}

// The message SQLite attached to the connection, or the generic text of the code
// when the connection has none (e.g. allocation failed), on one line: SQLite may quote
// the file's own text in it (a damaged schema's SQL), newlines and all.
std::string message_of(sqlite3* db, int code) {
  const char* message = db ? sqlite3_errmsg(db) : nullptr;
  if (!message || !*message || std::strcmp(message, "not an error") == 0) message = sqlite3_errstr(code);
  constexpr size_t kMaxLength = 300;
  std::string line;
  for (const char* c = message; *c && line.size() < kMaxLength; ++c)
    line += static_cast<unsigned char>(*c) < 0x20 || *c == 0x7f ? ' ' : *c;
  if (std::strlen(message) > kMaxLength) line += "...";
  return line;
}

// The one-line error for a failure on an open connection.
StoreError make_error(sqlite3* db, int code, const std::string& path, std::string_view while_doing) {
  std::string line = "database '" + path + "': " + message_of(db, code);
  if (!while_doing.empty()) line += " (while " + std::string(while_doing) + ")";
  return StoreError(kind_of(code), code, line);
}

int open_flags(Database::Mode mode) {
  switch (mode) {
    case Database::Mode::ReadOnly: return SQLITE_OPEN_READONLY;
    case Database::Mode::ReadWrite: return SQLITE_OPEN_READWRITE;
    case Database::Mode::Create: return SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
  }
  return SQLITE_OPEN_READONLY;
}

}  // namespace

std::string_view to_string(StoreErrorKind kind) {
  switch (kind) {
    case StoreErrorKind::CannotOpen: return "cannot open";
    case StoreErrorKind::NotADatabase: return "not a database";
    case StoreErrorKind::Busy: return "busy";
    case StoreErrorKind::ReadOnly: return "read-only";
    case StoreErrorKind::Full: return "full";
    case StoreErrorKind::Corrupt: return "corrupt";
    case StoreErrorKind::Constraint: return "constraint";
    case StoreErrorKind::Misuse: return "misuse";
    case StoreErrorKind::Interrupted: return "interrupted";
    case StoreErrorKind::Other: return "other";
  }
  return "other";
}

// ---------------------------------------------------------------- Database

namespace {

// SQLite's memory statistics take one process-wide mutex on every allocation, which
// threads confirming positions on their own connections then queue on. We never read
// the statistics. The sorter's runs are never smaller than its minimum run size (250
// pages, 1 MiB, by default), whatever cache_size says: build_indexes's helper runs of
// kHelperRunKib came out at 1 MiB, and the thread that runs the statement merges the
// first half run of the output itself (SQLite fills the top merger's first buffer on
// it): 8% of the import writer's instructions with helpers (bench/README.md). At one
// page, cache_size alone sets the runs. Must run before SQLite initialises; a no-op if
// it already has.
void configure_sqlite_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    sqlite3_config(SQLITE_CONFIG_PMASZ, 1u);
  });
}

// Settings for a file that may come from anyone (https://sqlite.org/security.html):
// defensive mode (no writable schema, no corrupting pragmas), functions in the schema
// limited to innocuous ones, every b-tree cell's size checked as it is read, no
// triggers or views (pgnbase has none; a hostile file's would run inside our queries),
// and, for readers, no string or blob over kMaxReadValueBytes (a generated column of
// zeroblob(1e9) could otherwise make every row cost a gigabyte). Returns the first
// failing code, or SQLITE_OK.
constexpr int kMaxReadValueBytes = 256 << 20;

int harden_for_untrusted_files(sqlite3* db, Database::Mode mode) {
  for (auto [option, value] : {std::pair{SQLITE_DBCONFIG_DEFENSIVE, 1}, std::pair{SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0},
                               std::pair{SQLITE_DBCONFIG_ENABLE_TRIGGER, 0}, std::pair{SQLITE_DBCONFIG_ENABLE_VIEW, 0}})
    if (int code = sqlite3_db_config(db, option, value, nullptr); code != SQLITE_OK) return code;
  if (mode == Database::Mode::ReadOnly) sqlite3_limit(db, SQLITE_LIMIT_LENGTH, kMaxReadValueBytes);
  return sqlite3_exec(db, "PRAGMA cell_size_check=ON", nullptr, nullptr, nullptr);
}

}  // namespace

Database::Database(const std::string& path, Mode mode, Writes writes)
    : path_(std::make_shared<const std::string>(path)), mode_(mode), writes_(writes) {
  configure_sqlite_once();
  int code = sqlite3_open_v2(path.c_str(), &db_, open_flags(mode) | SQLITE_OPEN_NOMUTEX,
                             writes == Writes::Behind ? write_behind_vfs() : nullptr);
  if (code != SQLITE_OK) {
    std::string message = message_of(db_, code);
    if (int system_error = db_ ? sqlite3_system_errno(db_) : 0; system_error != 0)
      message += std::string(" (") + std::strerror(system_error) + ")";
    sqlite3_close(db_);
    db_ = nullptr;
    throw StoreError(kind_of(code), code, "cannot open database '" + path + "': " + message);
  }
  sqlite3_extended_result_codes(db_, 1);
  sqlite3_busy_timeout(db_, static_cast<int>(kDefaultBusyTimeout.count()));
  if (int failed = harden_for_untrusted_files(db_, mode); failed != SQLITE_OK) {
    std::string message = message_of(db_, failed);
    sqlite3_close(db_);
    db_ = nullptr;
    throw StoreError(kind_of(failed), failed, "cannot open database '" + path + "': " + message);
  }

  // SQLite reads the file header lazily; read it now so a PGN or a truncated file
  // passed as the database is reported at open with a clear message.
  code = sqlite3_exec(db_, "SELECT count(*) FROM sqlite_master", nullptr, nullptr, nullptr);
  if (code != SQLITE_OK) {
    std::string message = message_of(db_, code);
    sqlite3_close(db_);
    db_ = nullptr;
    throw StoreError(kind_of(code), code, "cannot open database '" + path + "': " + message);
  }
}

// The busy handler of wait_for_locks: SQLite calls it while a lock is held elsewhere.
struct Database::LockWait {
  std::function<void()> on_long_wait;
  std::chrono::steady_clock::time_point started;
  bool told = false;

  static int retry(void* self, int attempt) {
    auto& wait = *static_cast<LockWait*>(self);
    const auto now = std::chrono::steady_clock::now();
    if (attempt == 0) {
      wait.started = now;
      wait.told = false;
    } else if (!wait.told && now - wait.started >= std::chrono::seconds(1)) {
      wait.told = true;
      if (wait.on_long_wait) wait.on_long_wait();
    }
    // Polls often at first (the other transaction may be about to end), then every 100 ms.
    std::this_thread::sleep_for(std::chrono::milliseconds(std::min(attempt + 1, 100)));
    return 1;
  }
};

Database::~Database() {
  // sqlite3_close_v2 defers the close until every Statement is finalized.
  if (db_) sqlite3_close_v2(db_);
}

Database::Database(Database&& other) noexcept
    : db_(std::exchange(other.db_, nullptr)),
      path_(std::move(other.path_)),
      mode_(other.mode_),
      writes_(other.writes_),
      lock_wait_(std::move(other.lock_wait_)),
      cached_(std::move(other.cached_)),
      deadline_(std::move(other.deadline_)) {}

Database& Database::operator=(Database&& other) noexcept {
  if (this != &other) {
    cached_.clear();
    if (db_) sqlite3_close_v2(db_);
    db_ = std::exchange(other.db_, nullptr);
    cached_ = std::move(other.cached_);
    path_ = std::move(other.path_);
    mode_ = other.mode_;
    writes_ = other.writes_;
    lock_wait_ = std::move(other.lock_wait_);
    deadline_ = std::move(other.deadline_);
  }
  return *this;
}

void Database::fail(int code, std::string_view while_doing) const {
  throw make_error(db_, code, *path_, while_doing);
}

void Database::exec(std::string_view sql) {
  // sqlite3_exec needs a terminated string; SQL texts are short, the copy is cheap.
  std::string terminated(sql);
  char* error = nullptr;
  int code = sqlite3_exec(db_, terminated.c_str(), nullptr, nullptr, &error);
  sqlite3_free(error);  // the same text is still available from sqlite3_errmsg
  if (code != SQLITE_OK) fail(code, "running: " + abbreviate_sql(sql));
}

size_t Database::blob_bytes(const char* table, const char* column, int64_t rowid) {
  sqlite3_blob* blob = nullptr;
  int code = sqlite3_blob_open(db_, "main", table, column, rowid, 0, &blob);
  const int bytes = code == SQLITE_OK ? sqlite3_blob_bytes(blob) : 0;
  sqlite3_blob_close(blob);  // a null blob is a no-op
  if (code == SQLITE_OK && bytes > sqlite3_limit(db_, SQLITE_LIMIT_LENGTH, -1)) code = SQLITE_TOOBIG;
  if (code != SQLITE_OK) fail(code, std::string("reading the blob ") + table + "." + column + " of row " + std::to_string(rowid));
  return size_t(bytes);
}

void Database::read_blob(const char* table, const char* column, int64_t rowid, std::span<std::byte> out) {
  sqlite3_blob* blob = nullptr;
  int code = sqlite3_blob_open(db_, "main", table, column, rowid, 0, &blob);
  if (code == SQLITE_OK && size_t(sqlite3_blob_bytes(blob)) < out.size()) code = SQLITE_CORRUPT;
  if (code == SQLITE_OK && !out.empty()) code = sqlite3_blob_read(blob, out.data(), int(out.size()), 0);
  sqlite3_blob_close(blob);
  if (code != SQLITE_OK) fail(code, std::string("reading the blob ") + table + "." + column + " of row " + std::to_string(rowid));
}

Statement Database::prepare(std::string_view sql) {
  sqlite3_stmt* stmt = nullptr;
  int code = sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &stmt, nullptr);
  if (code != SQLITE_OK) {
    sqlite3_finalize(stmt);
    fail(code, "preparing: " + abbreviate_sql(sql));
  }
  if (!stmt) fail(SQLITE_MISUSE, "preparing an empty statement");
  return Statement(stmt, path_);
}

void Database::savepoint(std::string_view name) { exec("SAVEPOINT " + std::string(name)); }

void Database::release_savepoint(std::string_view name) { exec("RELEASE " + std::string(name)); }

void Database::rollback_to_savepoint(std::string_view name) { exec("ROLLBACK TO " + std::string(name)); }

Statement& Database::cached(std::string_view sql) {
  auto it = cached_.find(std::string(sql));
  if (it == cached_.end()) return cached_.emplace(std::string(sql), prepare(sql)).first->second;
  it->second.reset();
  it->second.clear_bindings();
  return it->second;
}

int64_t Database::last_insert_rowid() const { return sqlite3_last_insert_rowid(db_); }

int64_t Database::changes() const { return sqlite3_changes64(db_); }

bool Database::in_transaction() const { return db_ && sqlite3_get_autocommit(db_) == 0; }

bool Database::has_table(std::string_view name) {
  Statement& s = cached("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1");
  s.bind_text(1, name);
  const bool found = s.step();
  s.reset();  // a cached statement left on a row would hold its read transaction open
  return found;
}

std::optional<std::string> Database::column_collation(const std::string& table, const std::string& column) {
  const char* collation = nullptr;
  if (sqlite3_table_column_metadata(db_, "main", table.c_str(), column.c_str(), nullptr, &collation, nullptr, nullptr,
                                    nullptr) != SQLITE_OK)
    return std::nullopt;
  return std::string(collation ? collation : "BINARY");
}

void Database::set_busy_timeout(std::chrono::milliseconds timeout) {
  sqlite3_busy_timeout(db_, static_cast<int>(timeout.count()));
}

void Database::wait_for_locks(std::function<void()> on_long_wait) {
  lock_wait_ = std::make_unique<LockWait>();
  lock_wait_->on_long_wait = std::move(on_long_wait);
  sqlite3_busy_handler(db_, &LockWait::retry, lock_wait_.get());
}

void Database::set_deadline(std::optional<std::chrono::steady_clock::time_point> deadline) {
  if (!deadline) {
    sqlite3_progress_handler(db_, 0, nullptr, nullptr);
    deadline_.reset();
    return;
  }
  deadline_ = std::make_unique<std::chrono::steady_clock::time_point>(*deadline);
  // Non-zero from the handler interrupts the running statement (SQLITE_INTERRUPT).
  constexpr int kStepsBetweenChecks = 4096;
  sqlite3_progress_handler(
      db_, kStepsBetweenChecks,
      [](void* at) { return std::chrono::steady_clock::now() >= *static_cast<std::chrono::steady_clock::time_point*>(at) ? 1 : 0; },
      deadline_.get());
}

namespace {
// Negative = KiB: 32 MiB imports the bench files as fast as 64 MiB did, and keeps
// pgn-index's peak under 300 MB on the 1.6 GB TCEC x10 file (bench/README.md).
constexpr std::string_view kBulkLoadCacheSize = "PRAGMA cache_size=-32768";
constexpr int64_t kBulkLoadCacheBytes = int64_t{32768} << 10;
// Dirty pages are written out mid-transaction only past this many KiB (SQLite's default,
// 1 page, means past cache_size).
constexpr std::string_view kBulkLoadSpillSize = "PRAGMA cache_spill=-32768";  // as kBulkLoadCacheSize
constexpr std::string_view kDefaultSpillSize = "PRAGMA cache_spill=1";
}  // namespace

void Database::configure_for_bulk_load(unsigned sort_threads, Journal journal) {
  const bool shared = journal == Journal::Shared;
  const std::string wanted = shared ? "wal" : "memory";
  // journal_mode answers with the mode in force: a locked or in-memory database
  // keeps its old mode without an error, so check the answer.
  Statement set = prepare("PRAGMA journal_mode=" + wanted);
  std::string mode = set.step() ? std::string(set.column_text(0)) : std::string();
  set.reset();
  const char* filename = sqlite3_db_filename(db_, "main");
  bool on_disk = filename && *filename;
  if (on_disk && mode != wanted)
    throw StoreError(StoreErrorKind::Other, SQLITE_ERROR,
                     "database '" + *path_ + "': cannot switch to " + wanted + " journal mode (still '" + mode + "')");
  // A file written behind syncs at each commit: its VFS then waits for the commit's
  // pages and reports a failed write, without an fsync (write_behind_vfs.h).
  exec(shared || writes_ == Writes::Behind ? "PRAGMA synchronous=NORMAL" : "PRAGMA synchronous=OFF");
  exec(kBulkLoadCacheSize);
  // Sorts in files, not memory: only a sorter whose runs go to files uses helper threads
  // (build_indexes).
  exec("PRAGMA temp_store=FILE");
  // SQLite caps it at its compile-time SQLITE_MAX_WORKER_THREADS (8 in Debian's build).
  exec("PRAGMA threads=" + std::to_string(std::min(sort_threads, 8u)));
}

void Database::build_indexes(std::string_view sql, const std::function<void()>& after_each, int helper_run_kib) {
  // The sorter's run size is the page cache's size when the sort starts: 4 MiB runs for
  // the helper threads. A database that fits the bulk-load cache keeps it: its sorts are
  // under 4 MiB anyway, and its tables are then read from the cache, not from the file
  // once per index.
  Statement pages = prepare("SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()");
  const bool fits_cache = pages.step() && pages.column_int64(0) <= kBulkLoadCacheBytes;
  pages.reset();
  if (!fits_cache) {
    exec("PRAGMA cache_size=-4096");
  } else if (helper_run_kib > 0) {
    // The sorter's runs follow cache_size; cache_spill keeps the pages it no longer
    // counts in memory up to the bulk-load cache's size, as before.
    exec(kBulkLoadSpillSize);
    exec("PRAGMA cache_size=-" + std::to_string(helper_run_kib));
  }
  struct RestoreCache {
    sqlite3* db;
    ~RestoreCache() {
      sqlite3_exec(db, kBulkLoadCacheSize.data(), nullptr, nullptr, nullptr);
      sqlite3_exec(db, kDefaultSpillSize.data(), nullptr, nullptr, nullptr);
    }
  } restore{db_};
  if (!after_each) return exec(sql);
  const std::string terminated(sql);
  for (const char* rest = terminated.c_str(); *rest != '\0';) {
    sqlite3_stmt* stmt = nullptr;
    const char* tail = nullptr;
    const int code = sqlite3_prepare_v2(db_, rest, -1, &stmt, &tail);
    if (code != SQLITE_OK) {
      sqlite3_finalize(stmt);
      fail(code, "preparing: " + abbreviate_sql(rest));
    }
    rest = tail;
    if (!stmt) continue;  // only white space or a comment was left
    Statement(stmt, path_).run();
    after_each();
  }
}

void Database::checkpoint_wal() { exec("PRAGMA wal_checkpoint(TRUNCATE)"); }

DatabaseImage::~DatabaseImage() { sqlite3_free(bytes_); }

DatabaseImage& DatabaseImage::operator=(DatabaseImage&& other) noexcept {
  if (this != &other) {
    sqlite3_free(bytes_);
    bytes_ = std::exchange(other.bytes_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

void Database::register_built_indexes(std::span<const BuiltIndex> indexes) {
  // Defensive mode refuses writable_schema; it is back on before this returns.
  struct Defensive {
    sqlite3* db;
    ~Defensive() {
      sqlite3_exec(db, "PRAGMA writable_schema=OFF", nullptr, nullptr, nullptr);
      sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
    }
  } restore{db_};
  if (int code = sqlite3_db_config(db_, SQLITE_DBCONFIG_DEFENSIVE, 0, nullptr); code != SQLITE_OK)
    fail(code, "allowing writes to the schema");
  Statement cookie = prepare("PRAGMA schema_version");
  const int64_t version = cookie.step() ? cookie.column_int64(0) : 0;
  cookie.reset();
  exec("PRAGMA writable_schema=ON");
  exec("BEGIN IMMEDIATE");
  try {
    Statement insert =
        prepare("INSERT INTO sqlite_schema (type, name, tbl_name, rootpage, sql) VALUES ('index', ?, ?, ?, ?)");
    for (const BuiltIndex& index : indexes) {
      insert.bind_text(1, index.name);
      insert.bind_text(2, index.table);
      insert.bind_int64(3, index.root_page);
      insert.bind_text(4, index.sql);
      insert.run();
    }
    exec("PRAGMA schema_version=" + std::to_string(version + 1));
    exec("COMMIT");
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

DatabaseImage Database::image() {
  sqlite3_int64 size = 0;
  unsigned char* bytes = sqlite3_serialize(db_, "main", &size, 0);
  if (!bytes) fail(SQLITE_NOMEM, "copying the database into memory");
  return DatabaseImage(bytes, size);
}

void Database::attach_in_memory(std::string_view schema) { exec("ATTACH ':memory:' AS " + std::string(schema)); }

bool Database::load_image(std::string_view schema, DatabaseImage image) {
  const std::string name(schema);
  // Not SQLITE_DESERIALIZE_READONLY: BEGIN IMMEDIATE takes every attached database's
  // write lock, and a read-only one refuses it.
  const int code = sqlite3_deserialize(db_, name.c_str(), image.bytes_, image.size_, image.size_,
                                       SQLITE_DESERIALIZE_FREEONCLOSE);
  // SQLite owns the bytes now, even when it failed (it frees them then).
  image.bytes_ = nullptr;
  if (code == SQLITE_BUSY) return false;
  if (code != SQLITE_OK) fail(code, "loading an image into " + name);
  return true;
}

std::string Database::integrity_check() {
  Statement check = prepare("PRAGMA integrity_check");
  std::string result;
  while (check.step()) {
    if (!result.empty()) result += '\n';
    result += check.column_text(0);
  }
  return result;
}

// ---------------------------------------------------------------- Statement

Statement::~Statement() { sqlite3_finalize(stmt_); }

Statement::Statement(Statement&& other) noexcept
    : stmt_(std::exchange(other.stmt_, nullptr)), database_path_(std::move(other.database_path_)) {}

Statement& Statement::operator=(Statement&& other) noexcept {
  if (this != &other) {
    sqlite3_finalize(stmt_);
    stmt_ = std::exchange(other.stmt_, nullptr);
    database_path_ = std::move(other.database_path_);
  }
  return *this;
}

void Statement::fail(int code, std::string_view while_doing) const {
  throw make_error(sqlite3_db_handle(stmt_), code, *database_path_,
                   std::string(while_doing) + ": " + abbreviate_sql(sql()));
}

void Statement::check_bind(int code, int index) const {
  if (code != SQLITE_OK) fail(code, "binding ?" + std::to_string(index) + " of");
}

void Statement::bind_int64(int index, int64_t value) {
  check_bind(sqlite3_bind_int64(stmt_, index, value), index);
}

void Statement::bind_double(int index, double value) {
  check_bind(sqlite3_bind_double(stmt_, index, value), index);
}

void Statement::bind_null(int index) { check_bind(sqlite3_bind_null(stmt_, index), index); }

void Statement::bind_text(int index, std::string_view text) {
  check_bind(sqlite3_bind_text64(stmt_, index, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8),
             index);
}

void Statement::bind_text_static(int index, std::string_view text) {
  check_bind(sqlite3_bind_text64(stmt_, index, text.data(), text.size(), SQLITE_STATIC, SQLITE_UTF8),
             index);
}

// An empty span may carry a null pointer, which SQLite would store as NULL;
// a zero-length blob is what the caller meant.
void Statement::bind_blob(int index, std::span<const std::byte> bytes) {
  const void* data = bytes.empty() ? static_cast<const void*>("") : bytes.data();
  check_bind(sqlite3_bind_blob64(stmt_, index, data, bytes.size(), SQLITE_TRANSIENT), index);
}

void Statement::bind_blob(int index, std::span<const uint8_t> bytes) {
  bind_blob(index, std::as_bytes(bytes));
}

void Statement::bind_blob_static(int index, std::span<const std::byte> bytes) {
  const void* data = bytes.empty() ? static_cast<const void*>("") : bytes.data();
  check_bind(sqlite3_bind_blob64(stmt_, index, data, bytes.size(), SQLITE_STATIC), index);
}

void Statement::bind_blob_static(int index, std::span<const uint8_t> bytes) {
  bind_blob_static(index, std::as_bytes(bytes));
}

bool Statement::step() {
  int code = sqlite3_step(stmt_);
  if (code == SQLITE_ROW) return true;
  if (code == SQLITE_DONE) return false;
  // Take the message first, then reset so the statement can be used again after a Busy.
  StoreError error = make_error(sqlite3_db_handle(stmt_), code, *database_path_,
                                "running: " + abbreviate_sql(sql()));
  sqlite3_reset(stmt_);
  throw error;
}

void Statement::run() {
  while (step()) {
  }
  reset();
}

void Statement::reset() {
  // The result of sqlite3_reset repeats the last step's error, already reported.
  sqlite3_reset(stmt_);
}

void Statement::clear_bindings() { sqlite3_clear_bindings(stmt_); }

int Statement::column_count() const { return sqlite3_column_count(stmt_); }

bool Statement::column_is_null(int column) const {
  return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

Statement::ColumnType Statement::column_type(int column) const {
  switch (sqlite3_column_type(stmt_, column)) {
    case SQLITE_INTEGER: return ColumnType::Integer;
    case SQLITE_FLOAT: return ColumnType::Float;
    case SQLITE_TEXT: return ColumnType::Text;
    case SQLITE_BLOB: return ColumnType::Blob;
    default: return ColumnType::Null;
  }
}

int64_t Statement::column_int64(int column) const { return sqlite3_column_int64(stmt_, column); }

double Statement::column_double(int column) const { return sqlite3_column_double(stmt_, column); }

std::string_view Statement::column_text(int column) const {
  // Ask for the pointer first, then the size, as SQLite's docs require.
  const unsigned char* text = sqlite3_column_text(stmt_, column);
  if (!text) return {};
  return {reinterpret_cast<const char*>(text), static_cast<size_t>(sqlite3_column_bytes(stmt_, column))};
}

std::span<const std::byte> Statement::column_blob(int column) const {
  const void* blob = sqlite3_column_blob(stmt_, column);
  if (!blob) return {};
  return {static_cast<const std::byte*>(blob), static_cast<size_t>(sqlite3_column_bytes(stmt_, column))};
}

std::string_view Statement::sql() const {
  const char* text = stmt_ ? sqlite3_sql(stmt_) : nullptr;
  return text ? std::string_view(text) : std::string_view();
}

// ---------------------------------------------------------------- Transaction

Transaction::Transaction(Database& db) : db_(db) { db_.exec("BEGIN IMMEDIATE"); }

Transaction::~Transaction() {
  if (committed_ || !db_.in_transaction()) return;  // SQLite may already have rolled back (e.g. disk full)
  try {
    db_.exec("ROLLBACK");
  } catch (const StoreError&) {
    // A destructor must not throw; the connection closes the transaction anyway.
  }
}

void Transaction::commit() {
  db_.exec("COMMIT");
  committed_ = true;
}

}  // namespace pgnbase::store
