#include "indexer/stream_decoder.h"

#include <utility>

namespace pgnbase::indexer {

namespace {

class PlainDecoder final : public StreamDecoder {
 public:
  explicit PlainDecoder(RawInput input) : input_(std::move(input)) {}
  size_t read(char* destination, size_t capacity) override { return input_.read(destination, capacity); }
  uint64_t bytes_consumed() const override { return input_.bytes_read(); }

 private:
  RawInput input_;
};

}  // namespace

std::unique_ptr<StreamDecoder> make_plain_decoder(RawInput input) {
  return std::make_unique<PlainDecoder>(std::move(input));
}

}  // namespace pgnbase::indexer
