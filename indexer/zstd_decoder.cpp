#include "indexer/zstd_decoder.h"

#include <zstd.h>
#include <zstd_errors.h>

#include <string>
#include <utility>
#include <vector>

#include "indexer/input_source.h"

namespace pgnbase::indexer {

namespace {

// Compressed bytes read per system call.
constexpr size_t kCompressedReadSize = size_t{1} << 20;

class ZstdDecoder final : public StreamDecoder {
 public:
  explicit ZstdDecoder(RawInput input) : input_(std::move(input)), compressed_(kCompressedReadSize) {
    decoder_ = ZSTD_createDCtx();
    if (!decoder_) fail("out of memory for the zstd decoder");
    ZSTD_DCtx_setParameter(decoder_, ZSTD_d_windowLogMax, kZstdWindowLogMax);
  }
  ~ZstdDecoder() override { ZSTD_freeDCtx(decoder_); }

  size_t read(char* destination, size_t capacity) override {
    ZSTD_outBuffer out{destination, capacity, 0};
    while (out.pos < out.size) {
      if (window_.pos == window_.size && !input_over_) refill();
      bool input_over = window_.pos == window_.size && input_over_;
      if (input_over && !frame_open_) break;
      size_t produced_before = out.pos;
      size_t hint = ZSTD_decompressStream(decoder_, &out, &window_);
      if (ZSTD_isError(hint)) fail_with(hint);
      frame_open_ = hint != 0;
      if (input_over && frame_open_ && out.pos == produced_before)
        fail("truncated zstd data (input ends inside a frame)");
    }
    return out.pos;
  }

  uint64_t bytes_consumed() const override { return input_.bytes_read() - (window_.size - window_.pos); }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw InputError("cannot decompress '" + input_.name() + "': " + why);
  }

  [[noreturn]] void fail_with(size_t error) const {
    if (ZSTD_getErrorCode(error) == ZSTD_error_frameParameter_windowTooLarge)
      fail("a zstd frame asks for a window over " + std::to_string((size_t{1} << kZstdWindowLogMax) >> 20) +
           " MiB, more than pgnbase accepts (written with zstd --long=28 or more?)");
    fail(std::string("corrupt zstd data (") + ZSTD_getErrorName(error) + ")");
  }

  void refill() {
    size_t got = input_.read(compressed_.data(), compressed_.size());
    window_ = {compressed_.data(), got, 0};
    if (got < compressed_.size()) input_over_ = true;
  }

  RawInput input_;
  ZSTD_DCtx* decoder_ = nullptr;
  std::vector<char> compressed_;
  ZSTD_inBuffer window_{nullptr, 0, 0};
  bool input_over_ = false;
  bool frame_open_ = true;  // the magic promised a frame
};

}  // namespace

std::unique_ptr<StreamDecoder> make_zstd_decoder(RawInput input) {
  return std::make_unique<ZstdDecoder>(std::move(input));
}

}  // namespace pgnbase::indexer
