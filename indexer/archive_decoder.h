// What libarchive decodes for pgnbase: a bzip2 or xz stream (concatenated streams
// included), and the members of a zip archive (gzip goes through zlib: gzip_decoder.h). Every byte is streamed through a fixed
// 1 MiB read buffer and libarchive's own state; nothing is decompressed whole into memory.
//
// A zip archive is read through its central directory when the input can seek (a
// regular file); a zip on a pipe is refused, because each member becomes its own source
// and would need the archive read once per member.
//
// Errors: InputError naming the input, from construction (libarchive reads ahead to
// recognise the data) or from read().
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "indexer/input_format.h"
#include "indexer/stream_decoder.h"

namespace pgnbase::indexer {

// Decodes input, whose first bytes are the magic of compression (Bzip2 or Xz; Gzip works
// too, without its CRC check).
std::unique_ptr<StreamDecoder> make_archive_decoder(RawInput input, Compression compression);

// Decodes the member that member names (as list_pgn_members() gives it) of the zip
// archive input.
std::unique_ptr<StreamDecoder> make_zip_member_decoder(RawInput input, const std::string& member);

// The paths of the zip archive's members that are regular files named *.pgn (any case),
// in archive order. A path is UTF-8 when the zip flags the name so (general purpose
// bit 11), else the bytes stored. Members of equal paths are told apart by their order:
// the second "NAME" is "NAME#2", the third "NAME#3", and so on.
std::vector<std::string> list_pgn_members(RawInput input);

}  // namespace pgnbase::indexer
