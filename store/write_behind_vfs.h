// A SQLite VFS whose main database files are written by a thread of their own: the
// connection's thread copies each page it writes into a queue (at most
// kMaxPendingBytes) and goes on, and the file's thread makes the write() calls. Those
// calls (the kernel's copy into the page cache, the filesystem's block bookkeeping) were
// a fifth of the import writer's CPU on TCEC's long games and a twelfth on master-style
// games (bench/README.md), on the one thread that every import waits for.
//
// Only for a file that no other process reads while it is written: a new database
// built under a private name (indexer/fresh_build.h). Its connection's other files (the
// sorter's temporary files, journals) are the default VFS's own.
//
// What SQLite sees is what it wrote, in the order it wrote it:
// - a read of bytes still queued waits until the queue is written;
// - the file's size counts the queued writes;
// - truncating, releasing a lock (the end of a transaction, after which another
//   connection may read the file) and closing wait for the queue, and report a write
//   that failed;
// - a sync does too, but does not make the file durable: the fresh build's publish does
//   that once, for the whole file. Open the connection with synchronous=NORMAL so that
//   each commit syncs (store::Database::Writes::Behind does).
// So a commit fails when a page of it could not be written, and a failed write fails
// every later write and read of the file.
#pragma once

#include <cstddef>

namespace pgnbase::store {

// Registers the VFS once (not as the default) and returns its name, for
// sqlite3_open_v2. Safe from any thread.
const char* write_behind_vfs();

// Queued bytes past which a write waits for the file's thread.
inline constexpr size_t kMaxPendingBytes = size_t{2} << 20;

}  // namespace pgnbase::store
