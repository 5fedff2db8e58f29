#include "store/index_bulk_build.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "core/thread_cpu.h"
#include "io/file_io.h"
#include "store/database.h"
#include "store/index_btree.h"

namespace pgnbase::store {

namespace {

[[noreturn]] void fail_system(int error, const std::string& what) {
  throw std::system_error(error, std::generic_category(), what);
}

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(Fd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  Fd& operator=(Fd&& other) noexcept {
    std::swap(fd_, other.fd_);
    return *this;
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

void pwrite_all(int fd, const uint8_t* data, size_t size, uint64_t offset, const std::string& path) {
  if (const int error = io::pwrite_all(fd, data, size, offset)) fail_system(error, "writing index pages into " + path);
}

void pread_all(int fd, uint8_t* data, size_t size, uint64_t offset, const std::string& what) {
  if (const int error = io::pread_exactly(fd, data, size, offset)) fail_system(error, "reading " + what);
}

// A file for one index's leaves beside the database (the same file system, so that the
// kernel can copy them over without reading them back), gone once closed.
Fd temporary_file_beside(const std::string& path) {
  std::string dir = std::filesystem::path(path).parent_path().string();
  if (dir.empty()) dir = ".";
  int fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd < 0) {  // a file system without O_TMPFILE: a named file, unlinked at once
    std::string name = dir + "/.pgnbase-index-XXXXXX";
    fd = ::mkostemp(name.data(), O_CLOEXEC);
    if (fd < 0) fail_system(errno, "creating a temporary file in " + dir);
    ::unlink(name.c_str());
  }
  return Fd(fd);
}

// The memory of the helpers' sorts together (SQLite's sorters, in runs of at least
// kLeastSortKib each; more goes to temporary files).
constexpr int kSortMemoryKib = 128 << 10, kLeastSortKib = 1 << 10;

// No one else opens the file, a crash discards it, and its publish syncs it.
constexpr std::string_view kPrivateFileSettings = "PRAGMA journal_mode=MEMORY; PRAGMA synchronous=OFF";

// What the database header says (https://www.sqlite.org/fileformat2.html, "The Database
// Header"), and whether pages can go in after its last one.
struct Header {
  uint8_t bytes[100];
  uint32_t page_size = 0, usable_size = 0, pages = 0;
  bool appendable = false;
};

Header read_header(int fd, const std::string& path) {
  Header h;
  pread_all(fd, h.bytes, sizeof h.bytes, 0, "the header of " + path);
  const uint32_t size_field = uint32_t(h.bytes[16]) << 8 | h.bytes[17];
  h.page_size = size_field == 1 ? 65536 : size_field;
  h.usable_size = h.page_size - h.bytes[20];
  h.pages = get32(&h.bytes[28]);
  struct stat st;
  if (::fstat(fd, &st) != 0) fail_system(errno, "reading the size of " + path);
  const bool count_valid = get32(&h.bytes[24]) == get32(&h.bytes[92]) && h.pages > 0;
  h.appendable = count_valid && h.page_size >= 512 && uint64_t(st.st_size) == uint64_t(h.pages) * h.page_size &&
                 h.bytes[18] == 1 && h.bytes[19] == 1 &&  // a rollback journal, not the WAL
                 get32(&h.bytes[52]) == 0 &&               // no auto-vacuum (no pointer maps)
                 get32(&h.bytes[56]) == 1 &&               // UTF-8
                 get32(&h.bytes[44]) == 4;                 // serial types 8 and 9 for 0 and 1
  return h;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(uint8_t(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(uint8_t(s.back()))) s.remove_suffix(1);
  return s;
}

bool is_identifier(std::string_view s) {
  if (s.empty() || std::isdigit(uint8_t(s[0]))) return false;
  for (char c : s)
    if (!std::isalnum(uint8_t(c)) && c != '_') return false;
  return true;
}

struct IndexPlan {
  std::string statement;  // as given, for SQLite
  std::string name, table, where, stored_sql;
  std::vector<std::string> columns;
  bool helpers_read_it = false;  // of the one form the helpers build
};

// "CREATE INDEX IF NOT EXISTS name ON table(a, b) WHERE ...": SQLite keeps the statement
// from the name on, after "CREATE INDEX ".
IndexPlan plan_of(std::string_view statement) {
  IndexPlan plan;
  plan.statement = std::string(statement);
  constexpr std::string_view kPrefix = "CREATE INDEX IF NOT EXISTS ";
  if (!statement.starts_with(kPrefix)) return plan;
  const std::string_view from_name = statement.substr(kPrefix.size());
  const size_t on = from_name.find(" ON ");
  const size_t open = from_name.find('(');
  const size_t close = from_name.find(')');
  if (on == std::string_view::npos || open == std::string_view::npos || close == std::string_view::npos ||
      !(on < open && open < close))
    return plan;
  plan.name = trim(from_name.substr(0, on));
  plan.table = trim(from_name.substr(on + 4, open - on - 4));
  std::string_view columns = from_name.substr(open + 1, close - open - 1);
  while (!columns.empty()) {
    const size_t comma = columns.find(',');
    plan.columns.emplace_back(trim(columns.substr(0, comma)));
    columns = comma == std::string_view::npos ? std::string_view() : columns.substr(comma + 1);
  }
  const std::string_view rest = trim(from_name.substr(close + 1));
  if (!rest.empty() && !rest.starts_with("WHERE ")) return plan;
  plan.where = rest;
  plan.stored_sql = "CREATE INDEX " + std::string(from_name);
  bool plain = is_identifier(plan.name) && is_identifier(plan.table) && !plan.columns.empty();
  for (const std::string& column : plan.columns) plain = plain && is_identifier(column);
  plan.helpers_read_it = plain;
  return plan;
}

std::vector<IndexPlan> plans_of(std::string_view sql) {
  std::string without_comments;  // "--" to the end of the line
  for (size_t at = 0; at < sql.size();) {
    const size_t comment = sql.find("--", at);
    without_comments.append(sql.substr(at, comment - at));
    if (comment == std::string_view::npos) break;
    at = sql.find('\n', comment);
  }
  std::string_view statements = without_comments;
  std::vector<IndexPlan> plans;
  while (!statements.empty()) {
    const size_t end = statements.find(';');
    const std::string_view statement = trim(statements.substr(0, end));
    if (!statement.empty()) plans.push_back(plan_of(statement));
    statements = end == std::string_view::npos ? std::string_view() : statements.substr(end + 1);
  }
  return plans;
}

// One index built by the helpers: its leaves in a file, its upper pages in memory.
struct BuiltTree {
  std::optional<Fd> leaves;
  IndexTree tree;
  bool built = false;  // false: a record too long for a page, or a value of another type
};

// A value of a sorted row, compared as SQLite orders an index's values: NULL first, then
// integers by value, then text byte by byte (BINARY); the builder stores no other type.
struct Value {
  Statement::ColumnType type;
  int64_t integer = 0;
  std::string_view text;  // valid until its statement steps
};

int compare(const Value& a, const Value& b) {
  auto rank = [](Statement::ColumnType type) {
    return type == Statement::ColumnType::Null ? 0 : type == Statement::ColumnType::Integer ? 1 : 2;
  };
  if (rank(a.type) != rank(b.type)) return rank(a.type) < rank(b.type) ? -1 : 1;
  if (a.type == Statement::ColumnType::Integer) return a.integer < b.integer ? -1 : a.integer > b.integer ? 1 : 0;
  if (a.type == Statement::ColumnType::Text) return a.text.compare(b.text);  // as memcmp, then the length
  return 0;
}

// A part of a table (a range of rowids) read in the index's order on a connection of its
// own: SQLite sorts it at the first step, on the thread that sorts the part; the index's
// merge then reads it row by row.
struct SortedPart {
  std::optional<Database> db;
  Statement rows;  // destroyed before db
  bool has_row = false;
  std::vector<Value> values;  // the current row's
  double cpu_seconds = 0;     // the sort's

  // false for a value of a type the builder does not store.
  bool read_values(int count) {
    values.resize(size_t(count));
    for (int i = 0; i < count; ++i) {
      Value& v = values[size_t(i)];
      v.type = rows.column_type(i);
      if (v.type == Statement::ColumnType::Integer) v.integer = rows.column_int64(i);
      else if (v.type == Statement::ColumnType::Text) v.text = rows.column_text(i);
      else if (v.type != Statement::ColumnType::Null) return false;
    }
    return true;
  }
};

bool row_before(const SortedPart& a, const SortedPart& b) {
  for (size_t i = 0; i < a.values.size(); ++i)
    if (const int c = compare(a.values[i], b.values[i]); c != 0) return c < 0;
  return false;
}

// An index's parts, sorted on any helper, and their merge, on the helper that takes it
// once they are all sorted.
struct IndexJob {
  const IndexPlan* plan = nullptr;
  std::vector<std::string> part_sql;
  std::vector<SortedPart> parts;
  std::mutex mutex;
  std::condition_variable all_sorted;
  size_t sorted = 0;
  std::exception_ptr error;
  BuiltTree built;
  double serial_seconds = 0;  // its slowest part's sort, then its merge
};

void sort_part(IndexJob& job, size_t part, const std::string& path, int cache_kib) {
  const double started = this_thread_cpu_seconds();
  SortedPart& sorted = job.parts[part];
  std::exception_ptr error;
  try {
    sorted.db.emplace(path, Database::Mode::ReadOnly);
    // The sorter's runs are as large as the page cache; more go to files (temp_store).
    sorted.db->exec("PRAGMA cache_size=-" + std::to_string(cache_kib));
    sorted.rows = sorted.db->prepare(job.part_sql[part]);
    sorted.has_row = sorted.rows.step();
  } catch (...) {
    error = std::current_exception();
  }
  sorted.cpu_seconds = this_thread_cpu_seconds() - started;
  {
    std::lock_guard lock(job.mutex);
    if (error && !job.error) job.error = error;
    ++job.sorted;
  }
  job.all_sorted.notify_all();
}

BuiltTree merge_parts(IndexJob& job, const std::string& path, const Header& header) {
  BuiltTree built;
  built.leaves.emplace(temporary_file_beside(path));
  const int fd = built.leaves->get();
  std::vector<uint8_t> buffer;
  constexpr size_t kBufferBytes = 1 << 20;
  uint64_t written = 0;
  auto flush = [&] {
    pwrite_all(fd, buffer.data(), buffer.size(), written, "a temporary file");
    written += buffer.size();
    buffer.clear();
  };
  IndexTreeBuilder builder(header.page_size, header.usable_size, [&](std::span<const uint8_t> page) {
    buffer.insert(buffer.end(), page.begin(), page.end());
    if (buffer.size() >= kBufferBytes) flush();
  });
  const int count = int(job.plan->columns.size()) + 1;  // and the rowid
  for (SortedPart& part : job.parts)
    if (part.has_row && !part.read_values(count)) return BuiltTree{};  // reals and blobs: left to SQLite
  RecordBuilder record;
  for (;;) {
    SortedPart* least = nullptr;
    for (SortedPart& part : job.parts)
      if (part.has_row && (!least || row_before(part, *least))) least = &part;
    if (!least) break;
    for (const Value& v : least->values) {
      if (v.type == Statement::ColumnType::Integer) record.add_int(v.integer);
      else if (v.type == Statement::ColumnType::Text) record.add_text(v.text);
      else record.add_null();
    }
    const std::string_view bytes = record.finish();
    if (bytes.size() > IndexTreeBuilder::max_record_bytes(header.usable_size)) return BuiltTree{};
    builder.add(bytes);
    least->has_row = least->rows.step();
    if (least->has_row && !least->read_values(count)) return BuiltTree{};
  }
  built.tree = builder.finish();
  flush();
  built.built = true;
  return built;
}

void merge_index(IndexJob& job, const std::string& path, const Header& header) {
  std::unique_lock lock(job.mutex);
  job.all_sorted.wait(lock, [&] { return job.sorted == job.parts.size(); });
  lock.unlock();
  if (job.error) return;
  const double started = this_thread_cpu_seconds();
  try {
    job.built = merge_parts(job, path, header);
  } catch (...) {
    job.error = std::current_exception();
  }
  double slowest_part = 0;
  for (const SortedPart& part : job.parts) slowest_part = std::max(slowest_part, part.cpu_seconds);
  job.parts.clear();  // the connections and their sorters' files
  job.serial_seconds = slowest_part + this_thread_cpu_seconds() - started;
}

// The parts' statements: rowid ranges of about equal size.
std::vector<std::string> part_statements(Database& db, const IndexPlan& plan, unsigned parts) {
  std::string columns;
  for (const std::string& column : plan.columns) columns += column + ", ";
  columns += "rowid";
  const std::string condition = plan.where.empty() ? "" : plan.where.substr(std::string_view("WHERE ").size());
  int64_t first = 0, last = -1;
  // Two subqueries: min() and max() together in one would read the whole table.
  Statement range = db.prepare("SELECT (SELECT min(rowid) FROM " + plan.table + "), (SELECT max(rowid) FROM " +
                               plan.table + ")");
  if (range.step() && !range.column_is_null(0)) first = range.column_int64(0), last = range.column_int64(1);
  range.reset();
  const unsigned __int128 span = last >= first ? (unsigned __int128)(last - first) + 1 : 0;
  if (span < parts) parts = 1;
  std::vector<std::string> sql;
  for (unsigned p = 0; p < parts; ++p) {
    std::string where;
    if (parts > 1) {
      const int64_t from = first + int64_t(span * p / parts), to = first + int64_t(span * (p + 1) / parts);
      where = "rowid >= " + std::to_string(from) + (p + 1 < parts ? " AND rowid < " + std::to_string(to) : "");
    }
    if (!condition.empty()) where += (where.empty() ? "(" : " AND (") + condition + ")";
    sql.push_back("SELECT " + columns + " FROM " + plan.table + (where.empty() ? "" : " WHERE " + where) +
                  " ORDER BY " + columns);
  }
  return sql;
}

// Copies count pages from the start of `from` to page `first` on of the database.
void copy_pages(int from, uint64_t from_page, int to, uint32_t first, uint64_t count, uint32_t page_size,
                const std::string& path) {
  off_t in = off_t(from_page * page_size), out = off_t(uint64_t(first - 1) * page_size);
  uint64_t left = count * page_size;
  while (left > 0) {
    const ssize_t n = ::copy_file_range(from, &in, to, &out, left, 0);
    if (n > 0) {
      left -= uint64_t(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno != EXDEV && errno != ENOSYS && errno != EOPNOTSUPP && errno != EINVAL)
      fail_system(errno, "copying index pages into " + path);
    // No kernel copy here (or it stopped short): through memory.
    std::vector<uint8_t> buffer(std::min<uint64_t>(left, 1 << 20));
    while (left > 0) {
      const size_t chunk = size_t(std::min<uint64_t>(left, buffer.size()));
      pread_all(from, buffer.data(), chunk, uint64_t(in), "a temporary file");
      pwrite_all(to, buffer.data(), chunk, uint64_t(out), path);
      in += off_t(chunk), out += off_t(chunk), left -= chunk;
    }
  }
}

// Appends a built tree's pages from page `first` on (the lock-byte page left out) and
// returns its root's page number.
uint32_t append_tree(BuiltTree& built, const PageNumbers& numbers, int db_fd, const Header& header,
                     const std::string& path) {
  const uint64_t leaves = built.tree.leaves;
  // The leaves in at most two runs: before and after the lock-byte page.
  uint64_t copied = 0;
  while (copied < leaves) {
    const uint32_t first = numbers(copied);
    uint64_t run = leaves - copied;
    if (first < numbers.lock_page()) run = std::min<uint64_t>(run, numbers.lock_page() - first);
    copy_pages(built.leaves->get(), copied, db_fd, first, run, header.page_size, path);
    copied += run;
  }
  std::vector<uint8_t> page(header.page_size);
  for (size_t i = 0; i < built.tree.upper.size(); ++i) {
    write_interior_page(built.tree.upper[i], numbers, page, header.usable_size);
    pwrite_all(db_fd, page.data(), page.size(), uint64_t(numbers(leaves + i) - 1) * header.page_size, path);
  }
  return numbers(built.tree.pages() - 1);
}

}  // namespace

BulkIndexReport add_indexes_in_bulk(const std::string& path, std::string_view statements, unsigned threads) {
  const auto started = std::chrono::steady_clock::now();
  BulkIndexReport report;
  std::vector<IndexPlan> missing;
  {
    Database db(path, Database::Mode::ReadOnly);
    Statement exists = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'index' AND name = ?");
    for (IndexPlan& plan : plans_of(statements)) {
      if (plan.name.empty()) {  // not of the form read: SQLite's own IF NOT EXISTS decides
        missing.push_back(std::move(plan));
        continue;
      }
      exists.bind_text(1, plan.name);
      const bool has = exists.step();
      exists.reset();
      // The merge of the parts compares text byte by byte, as BINARY does.
      for (const std::string& column : plan.columns)
        if (db.column_collation(plan.table, column) != "BINARY") plan.helpers_read_it = false;
      if (!has) missing.push_back(std::move(plan));
    }
  }
  std::optional<Fd> db_fd;
  Header header;
  if (!missing.empty()) {
    db_fd.emplace(::open(path.c_str(), O_RDWR | O_CLOEXEC));
    if (db_fd->get() < 0) fail_system(errno, "opening " + path);
    header = read_header(db_fd->get(), path);
  }
  std::vector<std::unique_ptr<IndexJob>> jobs;
  for (const IndexPlan& plan : missing) {
    jobs.push_back(std::make_unique<IndexJob>());
    jobs.back()->plan = &plan;
  }
  if (header.appendable) {
    // Each index in parts, so that no helper sorts a whole one: twice as many parts over
    // the indexes as helpers (8 at most for one index), their sorters' memory shared out
    // of kSortMemoryKib.
    const size_t readable = size_t(std::count_if(missing.begin(), missing.end(), [](const IndexPlan& plan) {
      return plan.helpers_read_it;
    }));
    const unsigned parts = readable == 0 ? 1 : std::clamp(unsigned(2 * threads / readable), 1u, 8u);
    const int cache_kib = std::max(kLeastSortKib, int(kSortMemoryKib / std::max<size_t>(1, readable * parts)));
    // The tasks in order: an index's parts, then its merge, and so on; a merge waits only
    // for parts taken before it, which run on other helpers.
    struct Task {
      IndexJob* job;
      size_t part;  // SIZE_MAX: the merge
    };
    std::vector<Task> tasks;
    {
      Database db(path, Database::Mode::ReadOnly);
      for (auto& job : jobs) {
        if (!job->plan->helpers_read_it) continue;
        job->part_sql = part_statements(db, *job->plan, parts);
        job->parts.resize(job->part_sql.size());
        for (size_t p = 0; p < job->parts.size(); ++p) tasks.push_back({job.get(), p});
        tasks.push_back({job.get(), SIZE_MAX});
      }
    }
    std::atomic<size_t> next{0};
    auto help = [&] {
      name_this_thread("pgn-index-idx");
      for (size_t i = next++; i < tasks.size(); i = next++) {
        if (tasks[i].part == SIZE_MAX) merge_index(*tasks[i].job, path, header);
        else sort_part(*tasks[i].job, tasks[i].part, path, cache_kib);
      }
      add_thread_cpu(ThreadRole::Indexes, this_thread_cpu_seconds());
    };
    std::vector<std::thread> helpers;
    for (size_t t = 0; t < std::min<size_t>(std::max(1u, threads), tasks.size()); ++t) helpers.emplace_back(help);
    for (std::thread& helper : helpers) helper.join();
    for (auto& job : jobs) {
      if (job->error) std::rethrow_exception(job->error);
      report.serial_seconds = std::max(report.serial_seconds, job->serial_seconds);
    }

    std::vector<Database::BuiltIndex> named;
    uint32_t next_page = header.pages + 1;
    for (auto& job : jobs) {
      BuiltTree& built = job->built;
      if (!built.built) continue;
      const PageNumbers numbers(next_page, header.page_size);
      const uint32_t root = append_tree(built, numbers, db_fd->get(), header, path);
      next_page = numbers.after(built.tree.pages());
      named.push_back({job->plan->name, job->plan->table, job->plan->stored_sql, root});
      built.leaves.reset();
    }
    if (!named.empty()) {
      // The header counts the new pages, under a new change counter that it says the
      // count is valid for.
      const uint32_t counter = get32(&header.bytes[24]) + 1;
      put32(&header.bytes[24], counter);
      put32(&header.bytes[92], counter);
      put32(&header.bytes[28], next_page - 1);
      pwrite_all(db_fd->get(), header.bytes, sizeof header.bytes, 0, path);
      db_fd.reset();
      Database db(path, Database::Mode::ReadWrite);
      db.exec(kPrivateFileSettings);
      db.register_built_indexes(named);
      report.built_beside = int(named.size());
    }
  }
  db_fd.reset();
  std::string left;
  for (auto& job : jobs)
    if (!job->built.built) left += job->plan->statement + ";\n", ++report.built_by_sqlite;
  if (!left.empty()) {
    Database db(path, Database::Mode::ReadWrite);
    db.exec(kPrivateFileSettings);
    db.exec(left);
  }
  report.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return report;
}

}  // namespace pgnbase::store
