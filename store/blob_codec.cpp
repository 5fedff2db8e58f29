#include "store/blob_codec.h"

#include <zstd.h>

#include <algorithm>

#include "store/zstd_frame_limit.h"

namespace pgnbase::store {

namespace {
constexpr size_t kMinCompressible = 48;
// A payload over this is corrupt whatever its frame says; the first buffer is at most
// kFirstOutput, then it doubles as the frame really produces bytes.
constexpr uint64_t kMaxPayload = uint64_t{1} << 30;
constexpr size_t kFirstOutput = size_t{64} << 10;
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
// Decompresses one zstd frame whose header states its content size. The size is
// checked against what the frame's bytes can hold (zstd_frame_limit.h), and the buffer
// grows only as output really comes, so a frame that lies costs nothing.
bool decompress_frame(std::string_view frame, std::string& payload) {
  const unsigned long long size = ZSTD_getFrameContentSize(frame.data(), frame.size());
  if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN || size > kMaxPayload ||
      size > zstd_max_output(frame.size()))
    return false;
  ZSTD_DCtx* context = tl_decompress.context;
  ZSTD_DCtx_reset(context, ZSTD_reset_session_only);
  ZSTD_inBuffer in{frame.data(), frame.size(), 0};
  const size_t limit = size_t(size) + 1;  // one byte more shows a frame outgrowing its size
  size_t produced = 0;
  payload.resize(std::min(limit, kFirstOutput));
  while (true) {
    ZSTD_outBuffer out{payload.data(), payload.size(), produced};
    const size_t left = ZSTD_decompressStream(context, &out, &in);
    produced = out.pos;
    if (ZSTD_isError(left) || produced > size) return false;
    if (left == 0) break;  // the frame is complete
    if (produced == payload.size()) payload.resize(std::min(limit, 2 * payload.size()));
    else if (in.pos == in.size) return false;  // truncated
  }
  // One frame of exactly the stated size, and nothing after it.
  if (produced != size || in.pos != in.size) return false;
  payload.resize(produced);
  return true;
}

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
    case BlobFormat::Zstd: return decompress_frame(body, payload);
    case BlobFormat::CompactMoves: break;  // not a payload blob (moves_codec.h)
  }
  return false;
}

size_t decoded_blob_size(std::string_view blob) {
  if (blob.empty()) return 0;
  const std::string_view body = blob.substr(1);
  if (BlobFormat(blob[0]) != BlobFormat::Zstd) return body.size();
  const unsigned long long size = ZSTD_getFrameContentSize(body.data(), body.size());
  if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN) return body.size();
  return size_t(std::min<unsigned long long>({size, kMaxPayload, zstd_max_output(body.size())}));
}

}  // namespace pgnbase::store
