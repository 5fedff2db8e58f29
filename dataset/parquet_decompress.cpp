#include "dataset/parquet_decompress.h"

#include <snappy.h>
#include <zlib.h>
#include <zstd.h>

#include <cstring>

namespace pgnbase::dataset::parquet {

namespace {

std::optional<std::string> inflate_gzip(std::span<const uint8_t> in, std::vector<uint8_t>& out) {
  z_stream z{};
  // 15 + 32: a gzip or a zlib header, detected (Parquet says gzip; some writers used zlib).
  if (inflateInit2(&z, 15 + 32) != Z_OK) return "cannot start zlib";
  z.next_in = const_cast<Bytef*>(in.data());
  z.avail_in = uInt(in.size());
  z.next_out = out.data();
  z.avail_out = uInt(out.size());
  int status = Z_OK;
  // Concatenated gzip members are one stream of bytes, as gunzip reads them.
  while ((status = inflate(&z, Z_FINISH)) == Z_STREAM_END && z.avail_in > 0 && z.avail_out > 0)
    if (inflateReset(&z) != Z_OK) break;
  const size_t produced = out.size() - z.avail_out;
  inflateEnd(&z);
  if (status != Z_STREAM_END && status != Z_BUF_ERROR && status != Z_OK) return "corrupt gzip data";
  if (status != Z_STREAM_END || produced != out.size()) return "gzip data of another size than the page header states";
  return std::nullopt;
}

}  // namespace

bool can_decompress(Codec codec) {
  return codec == Codec::Uncompressed || codec == Codec::Snappy || codec == Codec::Gzip || codec == Codec::Zstd;
}

std::optional<std::string> decompress(Codec codec, std::span<const uint8_t> in, size_t expected_size,
                                      std::vector<uint8_t>& out) {
  out.resize(expected_size);
  switch (codec) {
    case Codec::Uncompressed:
      if (in.size() != expected_size) return "an uncompressed page of another size than its header states";
      if (!in.empty()) std::memcpy(out.data(), in.data(), in.size());
      return std::nullopt;
    case Codec::Snappy: {
      size_t length = 0;
      const char* data = reinterpret_cast<const char*>(in.data());
      if (!snappy::GetUncompressedLength(data, in.size(), &length)) return "corrupt snappy data";
      if (length != expected_size) return "snappy data of another size than the page header states";
      if (!snappy::RawUncompress(data, in.size(), reinterpret_cast<char*>(out.data()))) return "corrupt snappy data";
      return std::nullopt;
    }
    case Codec::Gzip:
      if (in.size() > UINT32_MAX || expected_size > UINT32_MAX) return "a gzip page too large";
      return inflate_gzip(in, out);
    case Codec::Zstd: {
      const size_t got = ZSTD_decompress(out.data(), out.size(), in.data(), in.size());
      if (ZSTD_isError(got)) return std::string("corrupt zstd data (") + ZSTD_getErrorName(got) + ")";
      if (got != expected_size) return "zstd data of another size than the page header states";
      return std::nullopt;
    }
    case Codec::Lzo:
    case Codec::Brotli:
    case Codec::Lz4:
    case Codec::Lz4Raw:
      break;
  }
  return std::string("the ") + std::string(codec_name(codec)) + " codec, which is not read";
}

}  // namespace pgnbase::dataset::parquet
