// A first import builds a database that does not exist yet under a private name,
// PATH-building, with the rollback journal in memory and no syncs (store::Database::
// Journal::Private), and renames it into place once it holds a committed file: no
// reader and no kill -9 ever sees half a database, and the WAL's second write of every
// page is saved where it buys nothing. From then on the import appends through the WAL
// as any other.
//
// An exclusive flock on PATH-building queues a second first import of the same PATH
// behind this one; once this one has published, the second finds PATH and appends to it.
// A failed import, SIGINT, SIGTERM and SIGHUP remove the private file; the one a kill -9
// leaves is emptied and reused by the next import.
//
// The file is written with no syncs; while it grows, a thread asks the kernel to write it
// out a few MiB behind its end (indexer/writeback_ahead.h), so that publish's one fsync
// has little left to wait for.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "indexer/writeback_ahead.h"

namespace pgnbase::indexer {

class FreshBuild {
 public:
  // nullopt when path exists (the import appends). Otherwise waits for the lock on
  // path-building (calling on_wait once first when another import holds it) and
  // returns the build, whose file is empty. Throws std::runtime_error on a system error.
  static std::optional<FreshBuild> start(const std::string& path, const std::function<void()>& on_wait = {});

  FreshBuild(FreshBuild&& other) noexcept;
  FreshBuild& operator=(FreshBuild&&) = delete;
  FreshBuild(const FreshBuild&) = delete;
  // An unpublished build is removed (its files and the lock).
  ~FreshBuild();

  // Where to build: path + "-building".
  const std::string& build_path() const { return build_path_; }

  // Call with every connection to build_path() closed: makes the file durable, renames
  // it to the final path (never over a file that appeared there meanwhile: that throws
  // and leaves the build under its private name) and makes the rename durable.
  void publish();

 private:
  FreshBuild(std::string path, std::string build_path, int lock_fd);

  std::string path_, build_path_;
  int lock_fd_ = -1;   // the private file itself, flocked
  int signal_slot_ = -1;  // io/removed_on_signal.h
  bool keep_ = false;  // published, or left for the user after a failed publish
  // Until the publish's fsync: the file's writeback started as it grows.
  std::unique_ptr<WritebackAhead> writeback_;
};

}  // namespace pgnbase::indexer
