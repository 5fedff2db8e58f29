#include "indexer/store/blob_codec.h"

#include <zstd.h>

namespace pgnbase::indexer {

namespace {
constexpr size_t kMinCompressible = 48;
thread_local std::string tl_buffer;

// One context per thread: creating one per blob costs more than the work.
struct CompressContext {
  ZSTD_CCtx* context = ZSTD_createCCtx();
  ~CompressContext() { ZSTD_freeCCtx(context); }
};
struct DecompressContext {
  ZSTD_DCtx* context = ZSTD_createDCtx();
  ~DecompressContext() { ZSTD_freeDCtx(context); }
};
thread_local CompressContext tl_compress;
thread_local DecompressContext tl_decompress;
}  // namespace

void encode_blob(std::string_view payload, int zstd_level, std::string& out) {
  if (payload.size() >= kMinCompressible) {
    tl_buffer.resize(ZSTD_compressBound(payload.size()));
    size_t n = ZSTD_compressCCtx(tl_compress.context, tl_buffer.data(), tl_buffer.size(), payload.data(), payload.size(),
                                 zstd_level);
    if (!ZSTD_isError(n) && n < payload.size()) {
      out += char(BlobFormat::Zstd);
      out.append(tl_buffer.data(), n);
      return;
    }
  }
  out += char(BlobFormat::Raw);
  out += payload;
}

bool decode_blob(std::string_view blob, std::string& payload) {
  payload.clear();
  if (blob.empty()) return true;
  std::string_view body = blob.substr(1);
  switch (BlobFormat(blob[0])) {
    case BlobFormat::Raw:
      payload.assign(body);
      return true;
    case BlobFormat::Zstd: {
      unsigned long long size = ZSTD_getFrameContentSize(body.data(), body.size());
      if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN || size > (1u << 30)) return false;
      payload.resize(size);
      size_t n = ZSTD_decompressDCtx(tl_decompress.context, payload.data(), payload.size(), body.data(), body.size());
      return !ZSTD_isError(n) && n == size;
    }
  }
  return false;
}

void encode_moves(std::span<const MoveCode> codes, int zstd_level, std::string& out) {
  std::string raw(codes.size() * 2, '\0');
  for (size_t i = 0; i < codes.size(); ++i) {
    raw[2 * i] = char(codes[i] & 0xFF);
    raw[2 * i + 1] = char(codes[i] >> 8);
  }
  encode_blob(raw, zstd_level, out);
}

bool decode_moves(std::string_view blob, std::vector<MoveCode>& codes) {
  thread_local std::string raw;
  if (!decode_blob(blob, raw) || raw.size() % 2) return false;
  codes.resize(raw.size() / 2);
  for (size_t i = 0; i < codes.size(); ++i)
    codes[i] = MoveCode(uint8_t(raw[2 * i]) | (uint8_t(raw[2 * i + 1]) << 8));
  return true;
}

}  // namespace pgnbase::indexer
