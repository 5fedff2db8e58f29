#include "indexer/parquet_decoder.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "dataset/parquet_reader.h"
#include "indexer/input_source.h"
#include "indexer/parquet_game_text.h"

namespace pgnbase::indexer {

namespace {

// Rows are turned into text this much at a time: large enough that a read() of the
// splitter's size costs one call, small beside a chunk.
constexpr size_t kTextBatchBytes = size_t{1} << 20;

class ParquetDecoder final : public StreamDecoder {
 public:
  explicit ParquetDecoder(RawInput input) : input_(std::move(input)) {
    struct stat info {};
    if (::fstat(input_.descriptor(), &info) != 0)
      throw InputError("cannot read '" + input_.name() + "': " + std::strerror(errno));
    const int fd = input_.descriptor();
    const std::string name = input_.name();
    try {
      reader_ = std::make_unique<dataset::ParquetReader>(
          name, uint64_t(info.st_size), [fd, name](uint64_t offset, size_t size, uint8_t* out) {
            read_at(fd, name, offset, size, out);
          });
      text_ = std::make_unique<ParquetGameText>(*reader_);
    } catch (const dataset::ParquetReadError& error) {
      throw InputError(error.what());
    }
  }

  size_t read(char* destination, size_t capacity) override {
    size_t done = 0;
    while (done < capacity) {
      if (position_ == buffer_.size() && !fill()) break;
      const size_t n = std::min(capacity - done, buffer_.size() - position_);
      std::memcpy(destination + done, buffer_.data() + position_, n);
      position_ += n;
      done += n;
    }
    return done;
  }

  uint64_t bytes_consumed() const override { return reader_->bytes_read(); }

 private:
  // Reads exactly size bytes at offset; a short read is a file that changed or shrank.
  static void read_at(int fd, const std::string& name, uint64_t offset, size_t size, uint8_t* out) {
    while (size > 0) {
      const ssize_t got = ::pread(fd, out, size, off_t(offset));
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) throw dataset::ParquetReadError("cannot read '" + name + "': " + std::strerror(errno));
      if (got == 0) throw dataset::ParquetReadError("cannot read '" + name + "': the file ended early (did it change?)");
      out += got;
      offset += uint64_t(got);
      size -= size_t(got);
    }
  }

  // Turns the next rows into text; false when there are none left.
  bool fill() {
    buffer_.clear();
    position_ = 0;
    try {
      while (buffer_.size() < kTextBatchBytes && reader_->next_row()) text_->append_row(buffer_);
    } catch (const dataset::ParquetReadError& error) {
      throw InputError(error.what());
    }
    return !buffer_.empty();
  }

  RawInput input_;
  std::unique_ptr<dataset::ParquetReader> reader_;
  std::unique_ptr<ParquetGameText> text_;
  std::string buffer_;
  size_t position_ = 0;
};

}  // namespace

std::unique_ptr<StreamDecoder> make_parquet_decoder(RawInput input) {
  return std::make_unique<ParquetDecoder>(std::move(input));
}

}  // namespace pgnbase::indexer
