// What libarchive decodes for pgnbase: a bzip2 or xz stream (concatenated streams
// included), and the members of a zip archive (gzip goes through zlib: gzip_decoder.h). Every byte is streamed through a fixed
// 1 MiB read buffer and libarchive's own state; nothing is decompressed whole into memory.
//
// A zip archive is read through its central directory when the input can seek (a
// regular file); a zip on a pipe is refused, because each member becomes its own source
// and would need the archive read once per member. ZipMembers opens the members of one
// archive in turn, each reader going on from where the previous member left it, so that
// reading N members costs one pass over the archive, not N.
//
// A member's path is UTF-8 when the zip flags the name so (general purpose bit 11), else
// the bytes stored. Only regular files named *.pgn (any case) count as members; members
// of equal paths are told apart by their order: the second "NAME" is "NAME#2", the third
// "NAME#3", and so on.
//
// Errors: InputError naming the input, from construction (libarchive reads ahead to
// recognise the data) or from read().
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "indexer/input_format.h"
#include "indexer/stream_decoder.h"

namespace pgnbase::indexer {

// Decodes input, whose first bytes are the magic of compression (Bzip2 or Xz; Gzip works
// too, without its CRC check).
std::unique_ptr<StreamDecoder> make_archive_decoder(RawInput input, Compression compression);

// Decodes the member that member names ("NAME" or "NAME#N", as ZipMembers names them)
// of the zip archive input, walking the archive from its start up to it.
std::unique_ptr<StreamDecoder> make_zip_member_decoder(RawInput input, const std::string& member);

class ZipReaders;  // the readers of a ZipMembers, shared with its decoders (archive_decoder.cpp)

// The .pgn members of one zip archive, each opened as its own stream. A libarchive
// reader reads the central directory once and then the members in archive order; after
// one member it can go on to any later one (skipping what lies between) but never back.
// Each open() takes the reader of this object that is furthest along without having
// passed the member (a new one, reading the archive from its start, when none is), and
// the decoder gives it back when it dies. So the members opened in archive order, once
// or twice each (an import hashes a small member or, for --replace, any member before
// importing it), cost one pass over the archive per reader, and at most two readers are
// kept between opens (each holds a 1 MiB read buffer and libarchive's copy of the
// central directory).
//
// Lifetime: a decoder may outlive this object. Thread safety: open() and the decoders'
// destructors may run on any thread; each decoder is read by one thread at a time.
class ZipMembers {
 public:
  // Lists the members. open_file opens the archive file afresh from its start (called
  // once per reader: readers do not share a file offset) and throws InputError when it
  // cannot. Throws InputError (a zip that cannot be read, a name that cannot be decoded).
  explicit ZipMembers(std::function<RawInput()> open_file);
  ~ZipMembers();
  ZipMembers(const ZipMembers&) = delete;
  ZipMembers& operator=(const ZipMembers&) = delete;

  // The members' paths inside the archive ("NAME", "NAME#2", ...), in archive order.
  const std::vector<std::string>& names() const { return names_; }

  // Decodes member names()[index]; messages name it shown (e.g. "games.zip:a.pgn").
  // Throws InputError (the archive cannot be read, or it changed since it was listed).
  std::unique_ptr<StreamDecoder> open(size_t index, const std::string& shown);

  // Bytes of the archive file read so far by the readers of this object that are not in
  // use (the listing's included): what tests measure to see that reading every member
  // costs a pass, not a pass per member.
  uint64_t bytes_read() const;

 private:
  std::vector<std::string> names_;
  std::shared_ptr<ZipReaders> readers_;
};

}  // namespace pgnbase::indexer
