// One PGN input: a file path, "ARCHIVE:MEMBER" for a member of a zip archive, or "-"
// for standard input; plain, or compressed with zstd, gzip, bzip2 or xz; or a Parquet
// file of games (lichess's Parquet edition), read as the PGN text of its rows
// (parquet_decoder.h).
//
// Compression is detected from the content (magic bytes, input_format.h), never from
// the file name. A plain regular file is memory-mapped (MADV_SEQUENTIAL) and its bytes
// are handed out without a copy; everything else is streamed through read() in large
// pieces, with memory bounded whatever the input's size.
//
// A folder is read for the .parquet files in it and its subfolders (a Hive-style dataset,
// year=2024/month=01/*.parquet), each one source, sorted by path.
//
// A zip archive is not one input: SourceList (and list_sources()) turns it into one
// "ARCHIVE:MEMBER" source per .pgn member (twic1500.zip -> "twic1500.zip:twic1500.pgn";
// the second of two members named games.pgn -> "x.zip:games.pgn#2", archive_decoder.h).
// SourceList::open() reads the members in turn, going through the archive once for
// all of them; open() reads such a path alone as that member (a real file of that name
// wins), walking the archive up to it.
//
// open() reads the first 64 KiB of uncompressed bytes ahead and refuses input that is
// not PGN text (the test is in input_format.h); a Parquet file's footer and columns are
// checked instead, and its rows read only when the import reads.
//
// Errors: every failure (missing file, a directory, no permission, a read error,
// corrupt or truncated compressed data, input that is not PGN) throws InputError,
// whose what() is one line naming the input:
// "cannot open 'games.pgn': No such file or directory",
// "cannot decompress 'games.pgn.zst': truncated zstd data (input ends inside a frame)",
// "games.db: not a PGN file (looks like an SQLite database)".
//
// Thread safety: one thread reads; bytes_consumed() may be polled from any thread
// (e.g. a progress display).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "indexer/input_format.h"

namespace pgnbase::indexer {

class InputError : public Error {
 public:
  explicit InputError(const std::string& message) : Error(ErrorKind::Input, message) {}
};

class ZipMembers;  // archive_decoder.h

class InputSource {
 public:
  // Opens path, a zip member's "ARCHIVE:MEMBER", or standard input when path is "-".
  // Throws InputError, also for a whole zip archive (open its members instead).
  static InputSource open(const std::string& path);

  ~InputSource();
  InputSource(InputSource&&) noexcept;
  InputSource& operator=(InputSource&&) noexcept;
  InputSource(const InputSource&) = delete;
  InputSource& operator=(const InputSource&) = delete;

  // The path as given (with ":MEMBER" for a zip member), or "<stdin>", for messages.
  const std::string& name() const;
  Compression compression() const;

  // True for a plain regular file: mapped_text() holds the whole input.
  bool is_mapped() const;
  // The whole file when mapped, else empty. The view lives as long as the
  // mapping: keep mapping_owner() (or this source) alive while using it.
  // The file must not be truncated by another process meanwhile (SIGBUS).
  std::string_view mapped_text() const;
  std::shared_ptr<const void> mapping_owner() const;
  // Tells the source that a zero-copy reader has used bytes up to this offset
  // of mapped_text(), so bytes_consumed() can report progress.
  void note_mapped_consumed(uint64_t offset);
  // Drops the whole pages of mapped_text()[begin, end) from this process (not from the
  // page cache), so a multi-GB file does not stay in the resident set once read.
  // Views into the range stay valid: a later touch faults the same bytes back in.
  void release_mapped(uint64_t begin, uint64_t end);

  // Copies up to capacity uncompressed bytes into destination and returns how
  // many; fewer than capacity only at end of input, 0 once it is over. Works for
  // every kind (a mapped file is copied). Throws InputError on read or decompression errors.
  size_t read(char* destination, size_t capacity);

  // Size of the file on disk (compressed size when compressed); nullopt for a pipe
  // and for a zip member.
  std::optional<uint64_t> size_on_disk() const;
  // The uncompressed size that a zip member's entry states, else nullopt. A hint (a
  // hostile zip may lie): read() gives what the member really holds.
  std::optional<uint64_t> stated_size() const;
  // Bytes of the on-disk (compressed) input consumed so far, for progress.
  uint64_t bytes_consumed() const;
  // Uncompressed bytes handed out so far by read().
  uint64_t bytes_produced() const;

 private:
  friend class SourceList;
  struct State;  // defined in input_source.cpp
  explicit InputSource(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

// The sources that one command-line input stands for: the input itself; for a zip
// archive "ARCHIVE:MEMBER" for each member that is a regular file named *.pgn (any
// case), in archive order; for a folder, its .parquet files. The constructor opens each
// file and member, so that an input that cannot be read or is not PGN throws InputError
// there, before anything is imported; a folder's files (sorted by path; none is an error)
// are opened only when imported, so that a damaged one fails alone. "-" and any path
// that is not a regular file or a directory (a FIFO, /dev/stdin or /dev/fd/N of a pipe,
// a device) are listed as they are, unopened: they can be read only once, by the import.
// A zip without a .pgn member is an error.
//
// A zip archive is listed in one pass over its central directory and one over its
// members (the first 64 KiB of each checked); the members opened through open() in
// archive order then cost one more pass (two when each is opened twice, as the import
// does to hash a small member first, or for --replace). Opening them by path, with
// InputSource::open(), would walk the archive from its start for each.
//
// Thread safety: one thread at a time; a source it opened may be read on another.
class SourceList {
 public:
  explicit SourceList(const std::string& path);
  ~SourceList();
  SourceList(SourceList&&) noexcept;
  SourceList& operator=(SourceList&&) noexcept;

  // The sources' paths, as InputSource::open() takes them.
  const std::vector<std::string>& paths() const { return paths_; }

  // Opens paths()[index]: the same source as InputSource::open(paths()[index]).
  // Throws InputError.
  InputSource open(size_t index);

  // Bytes of a zip archive read so far by the readers this list is done with (0 for
  // other inputs): what a test measures to see that the members cost one pass.
  uint64_t archive_bytes_read() const;

 private:
  std::vector<std::string> paths_;
  std::unique_ptr<ZipMembers> zip_;  // for a zip archive
};

// SourceList(path).paths().
std::vector<std::string> list_sources(const std::string& path);

}  // namespace pgnbase::indexer
