// Streams a gzip file (one or more concatenated members, as pigz or `cat a.gz b.gz`
// write) back into its bytes, with zlib.
//
// Not through libarchive like bzip2, xz and zip: libarchive 3.6 does not check a gzip
// member's CRC-32 and length ("XXX TODO" in its gzip filter), so a damaged .gz would be
// read as garbage without an error. zlib checks both.
#pragma once

#include <memory>

#include "indexer/stream_decoder.h"

namespace pgnbase::indexer {

// Decodes input, whose first bytes are the gzip magic. Corrupt or truncated data, and
// bytes after the last member other than zero padding, surface from read() as InputError.
std::unique_ptr<StreamDecoder> make_gzip_decoder(RawInput input);

}  // namespace pgnbase::indexer
