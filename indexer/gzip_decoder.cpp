#include "indexer/gzip_decoder.h"

#include <zlib.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "indexer/input_source.h"

namespace pgnbase::indexer {

namespace {

// Compressed bytes read per system call.
constexpr size_t kCompressedReadSize = size_t{1} << 20;
// zlib's windowBits: a 32 KiB window, with the gzip header and trailer (+16).
constexpr int kGzipWindowBits = 15 + 16;

class GzipDecoder final : public StreamDecoder {
 public:
  explicit GzipDecoder(RawInput input) : input_(std::move(input)), compressed_(kCompressedReadSize) {
    if (inflateInit2(&stream_, kGzipWindowBits) != Z_OK) fail("out of memory for the gzip decoder");
  }
  ~GzipDecoder() override { inflateEnd(&stream_); }

  size_t read(char* destination, size_t capacity) override {
    stream_.next_out = reinterpret_cast<Bytef*>(destination);
    size_t done = 0;
    while (done < capacity) {
      if (stream_.avail_in == 0 && !input_over_) refill();
      if (!in_member_) {
        if (stream_.avail_in == 0) {
          if (input_over_) break;
          continue;
        }
        start_member();
        continue;
      }
      // avail_out is 32 bits: at most 1 GiB at a time.
      stream_.avail_out = static_cast<uInt>(std::min<size_t>(capacity - done, size_t{1} << 30));
      const uInt room = stream_.avail_out;
      const int result = inflate(&stream_, Z_NO_FLUSH);
      const size_t produced = room - stream_.avail_out;
      done += produced;
      if (result == Z_STREAM_END) {
        in_member_ = false;
      } else if (result == Z_DATA_ERROR) {
        fail(std::string("corrupt gzip data (") + (stream_.msg ? stream_.msg : "bad data") + ")");
      } else if (result == Z_MEM_ERROR) {
        fail("out of memory in the gzip decoder");
      } else if (produced == 0 && stream_.avail_in == 0 && input_over_) {
        fail("truncated gzip data (input ends inside a member)");
      }
    }
    return done;
  }

  uint64_t bytes_consumed() const override { return input_.bytes_read() - stream_.avail_in; }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw InputError("cannot decompress '" + input_.name() + "': " + why);
  }

  void refill() {
    size_t got = input_.read(compressed_.data(), compressed_.size());
    stream_.next_in = reinterpret_cast<Bytef*>(compressed_.data());
    stream_.avail_in = static_cast<uInt>(got);
    if (got < compressed_.size()) input_over_ = true;
  }

  // At a member boundary with input left: another member, or zero padding to the end.
  void start_member() {
    if (stream_.next_in[0] == 0x1F) {
      if (inflateReset(&stream_) != Z_OK) fail("cannot restart the gzip decoder");
      in_member_ = true;
      return;
    }
    if (stream_.next_in[0] != 0) fail("bytes after the end of the gzip data that are not another gzip member");
    ++stream_.next_in;
    --stream_.avail_in;
  }

  RawInput input_;
  std::vector<char> compressed_;
  z_stream stream_{};
  bool in_member_ = true;  // the magic promised a member
  bool input_over_ = false;
};

}  // namespace

std::unique_ptr<StreamDecoder> make_gzip_decoder(RawInput input) {
  return std::make_unique<GzipDecoder>(std::move(input));
}

}  // namespace pgnbase::indexer
