// An output file written under a temporary name beside the asked one and renamed over
// it only when complete, so the asked name holds its old content or the whole new one,
// never half a file: after a write error, a full disk, Ctrl-C or kill -9 alike.
//
//   NAME.tmp-PID[-N]   the temporary file, in NAME's directory (rename() is atomic
//                      within one file system). Not committed, it is removed by the
//                      destructor, or on SIGINT, SIGTERM and SIGHUP by a handler that
//                      then lets the signal end the process; only kill -9 leaves it.
//
// A symbolic link is followed: the file it points to is replaced, the link stays. The
// new file keeps the permission bits of the file it replaces. Paths under /dev/ and
// /proc/, and existing files that are not regular (a terminal, a FIFO), are written in
// place: there is no content to protect and nothing to rename.
#pragma once

#include <stdexcept>
#include <string>

#include "core/error.h"

namespace pgnbase::io {

// An output could not be created, written or put in place; what() names the file.
class OutputError : public Error {
 public:
  explicit OutputError(const std::string& message) : Error(ErrorKind::Output, message) {}
};

class ReplacingFile {
 public:
  // Creates the temporary file (empty). Throws OutputError.
  explicit ReplacingFile(const std::string& path);
  ~ReplacingFile();
  ReplacingFile(const ReplacingFile&) = delete;
  ReplacingFile& operator=(const ReplacingFile&) = delete;

  // Where to write: the temporary file, or the asked path when written in place.
  const std::string& write_path() const { return write_path_; }
  bool in_place() const { return in_place_; }

  // Call after the writer has closed write_path(): syncs the temporary file to disk and
  // renames it over the asked name. Throws OutputError.
  void commit();

 private:
  std::string path_;        // as asked, for messages
  std::string target_;      // what the rename replaces (the file a link points to)
  std::string write_path_;
  int signal_slot_ = -1;  // the signal handler's slot naming the temporary file, or -1
  bool in_place_ = false;
  bool committed_ = false;
};

}  // namespace pgnbase::io
