#include "store/write_behind_vfs.h"

#include <sqlite3.h>

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <new>
#include <thread>
#include <vector>

#include "core/thread_cpu.h"

namespace pgnbase::store {

namespace {

constexpr const char* kVfsName = "pgnbase-write-behind";

// Queued bytes that wake the file's thread: it then writes until the queue is empty.
// Woken at every page, it went back to sleep after each one, and the two threads woke
// each other per page (on 52,975 master-style games, 1,675 wake calls from SQLite's
// thread and 5,163 from the file's); a drain wakes it whatever the queue holds.
constexpr size_t kWakeBytes = size_t{256} << 10;
static_assert(kWakeBytes < kMaxPendingBytes);

struct PendingWrite {
  sqlite3_int64 offset = 0;
  std::vector<char> bytes;
};

// The queue of one open file and the thread that writes it. Every call into the
// underlying file goes through with_file, one at a time: the default VFS may seek and
// then write, and a read between the two would read at the wrong place.
class WriteQueue {
 public:
  explicit WriteQueue(sqlite3_file* file) : file_(file), thread_([this] { run(); }) {}

  ~WriteQueue() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    work_.notify_one();
    thread_.join();
  }

  // Copies the bytes into the queue, waiting while it is full.
  int write(const void* data, int amount, sqlite3_int64 offset) {
    const char* bytes = static_cast<const char*>(data);
    PendingWrite write{offset, std::vector<char>(bytes, bytes + amount)};
    std::unique_lock lock(mutex_);
    while (error_ == SQLITE_OK && queued_bytes_ != 0 && queued_bytes_ + size_t(amount) > kMaxPendingBytes) {
      room_wanted_ = true;
      work_.notify_one();  // (the thread is awake already: kWakeBytes is less)
      room_.wait(lock);
    }
    if (error_ != SQLITE_OK) return error_;
    const bool wake = queued_bytes_ < kWakeBytes && queued_bytes_ + size_t(amount) >= kWakeBytes;
    queued_bytes_ += size_t(amount);
    queued_end_ = std::max(queued_end_, offset + amount);
    longest_ = std::max(longest_, sqlite3_int64{amount});
    ranges_.emplace(offset, amount);
    queue_.push_back(std::move(write));
    lock.unlock();
    if (wake) work_.notify_one();
    return SQLITE_OK;
  }

  // Waits until every queued write is done; answers the first that failed, if any.
  int drain() {
    std::unique_lock lock(mutex_);
    if (!queue_.empty()) work_.notify_one();  // a queue under kWakeBytes has not woken the thread
    room_.wait(lock, [&] { return queue_.empty() && !writing_; });
    return error_;
  }

  int error() {
    std::lock_guard lock(mutex_);
    return error_;
  }

  // Whether [offset, offset + amount) meets a write not yet done.
  bool queued_within(sqlite3_int64 offset, int amount) {
    std::lock_guard lock(mutex_);
    if (ranges_.empty()) return false;
    auto it = ranges_.lower_bound(offset - longest_);
    for (; it != ranges_.end() && it->first < offset + amount; ++it)
      if (it->first + it->second > offset) return true;
    return false;
  }

  // The end of the furthest write queued since the file opened or was last truncated.
  sqlite3_int64 queued_end() {
    std::lock_guard lock(mutex_);
    return queued_end_;
  }
  void truncated() {
    std::lock_guard lock(mutex_);
    queued_end_ = 0;
  }

  template <typename F>
  int with_file(F&& f) {
    std::lock_guard lock(file_mutex_);
    return f(file_);
  }

 private:
  void run() {
    name_this_thread("db file writes");
    std::unique_lock lock(mutex_);
    for (;;) {
      work_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) {
        add_thread_cpu(ThreadRole::Writes, this_thread_cpu_seconds());
        return;
      }
      PendingWrite write = std::move(queue_.front());
      queue_.pop_front();
      writing_ = true;
      lock.unlock();
      const int amount = int(write.bytes.size());
      int code = SQLITE_OK;
      if (error() == SQLITE_OK)
        code = with_file([&](sqlite3_file* f) { return f->pMethods->xWrite(f, write.bytes.data(), amount, write.offset); });
      lock.lock();
      writing_ = false;
      if (error_ == SQLITE_OK) error_ = code;
      queued_bytes_ -= size_t(amount);
      for (auto [it, end] = ranges_.equal_range(write.offset); it != end; ++it)
        if (it->second == amount) {
          ranges_.erase(it);
          break;
        }
      // A drain waits for the empty queue, a full queue's writer for half of it to be
      // written: waking them at each write made them wake thousands of times a commit.
      if (queue_.empty() || code != SQLITE_OK || (room_wanted_ && queued_bytes_ <= kMaxPendingBytes / 2)) {
        room_wanted_ = false;
        room_.notify_all();
      }
    }
  }

  sqlite3_file* const file_;
  std::mutex file_mutex_;  // every call into file_
  std::mutex mutex_;       // what follows, but thread_
  std::condition_variable work_;  // for the thread: a write queued, or stopping_
  std::condition_variable room_;  // for SQLite's thread: a write done
  std::deque<PendingWrite> queue_;
  std::multimap<sqlite3_int64, int> ranges_;  // offset -> length of the writes not done
  size_t queued_bytes_ = 0;                   // of the writes not done
  sqlite3_int64 queued_end_ = 0;
  sqlite3_int64 longest_ = 0;  // the longest write queued (SQLite's writes are pages)
  bool writing_ = false;
  bool room_wanted_ = false;  // SQLite's thread waits for room in the full queue
  bool stopping_ = false;
  int error_ = SQLITE_OK;  // the first failed write's code
  std::thread thread_;     // last: it starts once the rest is built
};

// A main database file: SQLite's handle, the queue, then the default VFS's file.
struct BehindFile {
  sqlite3_file base;
  WriteQueue* queue;
  sqlite3_file* real() { return reinterpret_cast<sqlite3_file*>(reinterpret_cast<char*>(this) + kRealOffset); }
  static constexpr size_t kRealOffset = (sizeof(sqlite3_file) + sizeof(WriteQueue*) + 15) / 16 * 16;
};

BehindFile* behind(sqlite3_file* file) { return reinterpret_cast<BehindFile*>(file); }

sqlite3_vfs* real_vfs() {
  static sqlite3_vfs* const vfs = sqlite3_vfs_find(nullptr);
  return vfs;
}

int behind_close(sqlite3_file* file) {
  BehindFile* f = behind(file);
  const int written = f->queue->drain();
  delete f->queue;  // joins its thread
  f->queue = nullptr;
  const int closed = f->real()->pMethods->xClose(f->real());
  return written != SQLITE_OK ? written : closed;
}

int behind_read(sqlite3_file* file, void* out, int amount, sqlite3_int64 offset) {
  WriteQueue& q = *behind(file)->queue;
  if (q.queued_within(offset, amount)) {
    if (int code = q.drain(); code != SQLITE_OK) return code;
  } else if (int code = q.error(); code != SQLITE_OK) {
    return code;
  }
  return q.with_file([&](sqlite3_file* f) { return f->pMethods->xRead(f, out, amount, offset); });
}

int behind_write(sqlite3_file* file, const void* data, int amount, sqlite3_int64 offset) {
  try {
    return behind(file)->queue->write(data, amount, offset);
  } catch (const std::bad_alloc&) {
    return SQLITE_NOMEM;
  }
}

int behind_truncate(sqlite3_file* file, sqlite3_int64 size) {
  WriteQueue& q = *behind(file)->queue;
  if (int code = q.drain(); code != SQLITE_OK) return code;
  q.truncated();
  return q.with_file([&](sqlite3_file* f) { return f->pMethods->xTruncate(f, size); });
}

// Waits for the writes and reports them; the fresh build makes the file durable once,
// when it publishes it (write_behind_vfs.h).
int behind_sync(sqlite3_file* file, int) { return behind(file)->queue->drain(); }

int behind_file_size(sqlite3_file* file, sqlite3_int64* size) {
  WriteQueue& q = *behind(file)->queue;
  const int code = q.with_file([&](sqlite3_file* f) { return f->pMethods->xFileSize(f, size); });
  if (code == SQLITE_OK) *size = std::max(*size, q.queued_end());
  return code;
}

int behind_lock(sqlite3_file* file, int level) {
  return behind(file)->queue->with_file([&](sqlite3_file* f) { return f->pMethods->xLock(f, level); });
}

// Another connection may read the file once this one lets go of its lock.
int behind_unlock(sqlite3_file* file, int level) {
  WriteQueue& q = *behind(file)->queue;
  const int written = q.drain();
  const int code = q.with_file([&](sqlite3_file* f) { return f->pMethods->xUnlock(f, level); });
  return written != SQLITE_OK ? written : code;
}

int behind_check_reserved_lock(sqlite3_file* file, int* out) {
  return behind(file)->queue->with_file([&](sqlite3_file* f) { return f->pMethods->xCheckReservedLock(f, out); });
}

// None of the default VFS's controls reads the file's bytes. SQLITE_FCNTL_SIZE_HINT may
// extend the file (with a chunk size set, which pgnbase never sets) past what the
// default VFS has written, where only queued writes can lie: they land after it.
int behind_file_control(sqlite3_file* file, int op, void* arg) {
  return behind(file)->queue->with_file([&](sqlite3_file* f) { return f->pMethods->xFileControl(f, op, arg); });
}

int behind_sector_size(sqlite3_file* file) {
  return behind(file)->queue->with_file([](sqlite3_file* f) { return f->pMethods->xSectorSize(f); });
}

int behind_device_characteristics(sqlite3_file* file) {
  return behind(file)->queue->with_file([](sqlite3_file* f) { return f->pMethods->xDeviceCharacteristics(f); });
}

// Version 1: no shared memory (so no WAL) and no memory mapping, which would read the
// file around the queue.
const sqlite3_io_methods kBehindMethods = {
    1,
    behind_close,
    behind_read,
    behind_write,
    behind_truncate,
    behind_sync,
    behind_file_size,
    behind_lock,
    behind_unlock,
    behind_check_reserved_lock,
    behind_file_control,
    behind_sector_size,
    behind_device_characteristics,
    nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
};

int behind_open(sqlite3_vfs*, sqlite3_filename name, sqlite3_file* file, int flags, int* out_flags) {
  sqlite3_vfs* real = real_vfs();
  // Other files are the default VFS's own, in the same (larger) space.
  if (!(flags & SQLITE_OPEN_MAIN_DB)) return real->xOpen(real, name, file, flags, out_flags);
  BehindFile* f = behind(file);
  f->base.pMethods = nullptr;
  f->queue = nullptr;
  if (int code = real->xOpen(real, name, f->real(), flags, out_flags); code != SQLITE_OK) return code;
  try {
    f->queue = new WriteQueue(f->real());
  } catch (const std::exception&) {  // no memory, or no thread
    f->real()->pMethods->xClose(f->real());
    return SQLITE_CANTOPEN;
  }
  f->base.pMethods = &kBehindMethods;
  return SQLITE_OK;
}

int behind_delete(sqlite3_vfs*, const char* name, int sync_dir) { return real_vfs()->xDelete(real_vfs(), name, sync_dir); }
int behind_access(sqlite3_vfs*, const char* name, int flags, int* out) {
  return real_vfs()->xAccess(real_vfs(), name, flags, out);
}
int behind_full_pathname(sqlite3_vfs*, const char* name, int size, char* out) {
  return real_vfs()->xFullPathname(real_vfs(), name, size, out);
}
int behind_randomness(sqlite3_vfs*, int size, char* out) { return real_vfs()->xRandomness(real_vfs(), size, out); }
int behind_sleep(sqlite3_vfs*, int microseconds) { return real_vfs()->xSleep(real_vfs(), microseconds); }
int behind_current_time(sqlite3_vfs*, double* out) { return real_vfs()->xCurrentTime(real_vfs(), out); }
int behind_last_error(sqlite3_vfs*, int size, char* out) { return real_vfs()->xGetLastError(real_vfs(), size, out); }
void* behind_dl_open(sqlite3_vfs*, const char* name) { return real_vfs()->xDlOpen(real_vfs(), name); }
void behind_dl_error(sqlite3_vfs*, int size, char* out) { real_vfs()->xDlError(real_vfs(), size, out); }
void (*behind_dl_sym(sqlite3_vfs*, void* library, const char* symbol))(void) {
  return real_vfs()->xDlSym(real_vfs(), library, symbol);
}
void behind_dl_close(sqlite3_vfs*, void* library) { real_vfs()->xDlClose(real_vfs(), library); }
int behind_current_time_int64(sqlite3_vfs*, sqlite3_int64* out) {
  return real_vfs()->xCurrentTimeInt64(real_vfs(), out);
}

}  // namespace

const char* write_behind_vfs() {
  static const bool registered = [] {
    sqlite3_initialize();
    sqlite3_vfs* real = real_vfs();
    static sqlite3_vfs vfs{};
    vfs.iVersion = 2;
    vfs.szOsFile = int(BehindFile::kRealOffset) + real->szOsFile;
    vfs.mxPathname = real->mxPathname;
    vfs.zName = kVfsName;
    vfs.xOpen = behind_open;
    vfs.xDelete = behind_delete;
    vfs.xAccess = behind_access;
    vfs.xFullPathname = behind_full_pathname;
    vfs.xDlOpen = behind_dl_open;
    vfs.xDlError = behind_dl_error;
    vfs.xDlSym = behind_dl_sym;
    vfs.xDlClose = behind_dl_close;
    vfs.xRandomness = behind_randomness;
    vfs.xSleep = behind_sleep;
    vfs.xCurrentTime = behind_current_time;
    vfs.xGetLastError = behind_last_error;
    vfs.xCurrentTimeInt64 = behind_current_time_int64;
    return sqlite3_vfs_register(&vfs, 0) == SQLITE_OK;
  }();
  return registered ? kVfsName : nullptr;
}

}  // namespace pgnbase::store
