// One streamed input turned back into its uncompressed bytes, for InputSource: the
// bytes of a pipe as they are, a zstd stream (zstd_decoder.h), a gzip stream
// (gzip_decoder.h), or what libarchive decodes: bzip2, xz, a zip member (archive_decoder.h).
//
// Errors: read() throws InputError naming the input ("cannot decompress 'x.gz': ...").
// Thread safety: one thread reads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

#include "indexer/raw_input.h"

namespace pgnbase::indexer {

class StreamDecoder {
 public:
  virtual ~StreamDecoder() = default;
  // Copies up to capacity uncompressed bytes; fewer only at end of input, 0 once over.
  virtual size_t read(char* destination, size_t capacity) = 0;
  // Bytes of the file or pipe consumed so far (for progress).
  virtual uint64_t bytes_consumed() const = 0;
  // The uncompressed size that the container states (a zip member's central directory
  // entry), else nullopt. A hint: read() is not bound by it.
  virtual std::optional<uint64_t> stated_size() const { return std::nullopt; }
};

// Hands out the raw bytes unchanged (a plain pipe).
std::unique_ptr<StreamDecoder> make_plain_decoder(RawInput input);

}  // namespace pgnbase::indexer
