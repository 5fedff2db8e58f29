#include "indexer/raw_input.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include "indexer/input_source.h"

namespace pgnbase::indexer {

RawInput::RawInput(std::string name, int fd, bool owns_fd, bool seekable)
    : name_(std::move(name)), fd_(fd), owns_fd_(owns_fd), seekable_(seekable) {}

RawInput::~RawInput() {
  if (owns_fd_ && fd_ >= 0) ::close(fd_);
}

RawInput::RawInput(RawInput&& other) noexcept
    : name_(std::move(other.name_)),
      fd_(std::exchange(other.fd_, -1)),
      owns_fd_(std::exchange(other.owns_fd_, false)),
      seekable_(other.seekable_),
      head_(std::move(other.head_)),
      head_position_(other.head_position_),
      bytes_read_(other.bytes_read_) {}

std::string_view RawInput::peek(size_t size) {
  if (head_.size() >= size) return std::string_view(head_).substr(0, size);
  if (seekable_) {
    // A file is read in place, leaving its offset at 0 for read().
    head_.resize(size);
    ssize_t got;
    do got = ::pread(fd_, head_.data(), size, 0);
    while (got < 0 && errno == EINTR);
    if (got < 0) throw InputError("cannot read '" + name_ + "': " + std::strerror(errno));
    head_.resize(static_cast<size_t>(got));
    return head_;
  }
  size_t have = head_.size();
  head_.resize(size);
  head_.resize(have + read_descriptor(head_.data() + have, size - have));
  return head_;
}

size_t RawInput::read(char* destination, size_t capacity) {
  size_t done = 0;
  if (!seekable_) {
    done = std::min(capacity, head_.size() - head_position_);
    if (done > 0) std::memcpy(destination, head_.data() + head_position_, done);
    head_position_ += done;
  }
  done += read_descriptor(destination + done, capacity - done);
  bytes_read_ += done;
  return done;
}

size_t RawInput::read_descriptor(char* destination, size_t capacity) {
  size_t done = 0;
  while (done < capacity) {
    ssize_t got = ::read(fd_, destination + done, capacity - done);
    if (got == 0) break;
    if (got < 0) {
      if (errno == EINTR) continue;
      throw InputError("cannot read '" + name_ + "': " + std::strerror(errno));
    }
    done += static_cast<size_t>(got);
  }
  return done;
}

int64_t RawInput::seek(int64_t offset, int whence) {
  if (!seekable_) throw InputError("cannot seek in '" + name_ + "': it is a pipe");
  off_t at = ::lseek(fd_, offset, whence);
  if (at < 0) throw InputError("cannot seek in '" + name_ + "': " + std::strerror(errno));
  return at;
}

}  // namespace pgnbase::indexer
