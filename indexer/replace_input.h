// What --replace needs to know about an input before anything is removed: the content
// hash of its uncompressed text, which identifies the earlier import it replaces.
//
// A plain file is hashed as it is mapped (import_pipeline.cpp). A compressed file is
// read once more for its hash. A stream (standard input, a pipe, a FIFO, a character
// device) cannot be read twice: it is first copied, as it arrives (compressed or not),
// to a run file in the temp folder (run_file_cleanup.h: removed on Ctrl-C, and swept by
// the next import after a kill -9), which is then hashed and imported like a file. So a
// stream replaces only an earlier import of the same content, never every earlier
// import of "-".
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "indexer/input_source.h"

namespace pgnbase::indexer {

// False for "-" and for a path that names something other than a regular file (a FIFO,
// /dev/stdin, /dev/fd/N on a pipe, a character device). A zip member's "ARCHIVE:MEMBER"
// and a missing path count as re-readable (opening them reports what is wrong).
bool is_rereadable(const std::string& path);

// A stream copied to a run file; the file is removed when this object dies.
class SpooledStream {
 public:
  // Copies path ("-" for standard input) to a new run file in directory. Throws
  // InputError naming the input (a read error) or the folder (a full disk).
  SpooledStream(const std::string& path, const std::filesystem::path& directory);
  ~SpooledStream();
  SpooledStream(const SpooledStream&) = delete;
  SpooledStream& operator=(const SpooledStream&) = delete;

  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// The content hash (content_hash.h) of the uncompressed text of source, read to its end.
// Throws InputError as InputSource::read() does.
std::string hash_input(InputSource& source);

}  // namespace pgnbase::indexer
