// The bytes of one file or pipe, from its start, for a decoder to read. peek() shows
// the first bytes (to recognise the format) without consuming them: a pipe keeps them
// and read() hands them out again first.
//
// Errors: a failed read or seek throws InputError naming the input.
// Thread safety: one thread at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace pgnbase::indexer {

class RawInput {
 public:
  // Reads fd from its start (offset 0 for a file). Closes fd on destruction when owns_fd.
  // seekable: fd is a regular file.
  RawInput(std::string name, int fd, bool owns_fd, bool seekable);
  ~RawInput();
  RawInput(RawInput&& other) noexcept;
  RawInput& operator=(RawInput&&) = delete;
  RawInput(const RawInput&) = delete;
  RawInput& operator=(const RawInput&) = delete;

  // The input's name as given, or "<stdin>", for messages.
  const std::string& name() const { return name_; }
  bool seekable() const { return seekable_; }
  // The file descriptor, e.g. to map the file; owned as the constructor said.
  int descriptor() const { return fd_; }

  // The first size bytes of the input (fewer when it is shorter), not consumed. Call
  // before any read(); the view lives until the next call.
  std::string_view peek(size_t size);
  // Copies up to capacity bytes; fewer only at end of input, 0 once it is over.
  size_t read(char* destination, size_t capacity);
  // lseek for a seekable input; returns the new offset.
  int64_t seek(int64_t offset, int whence);
  // Bytes handed out by read() so far (for progress).
  uint64_t bytes_read() const { return bytes_read_; }

 private:
  // Reads the descriptor until capacity bytes or end of input.
  size_t read_descriptor(char* destination, size_t capacity);

  std::string name_;
  int fd_;
  bool owns_fd_;
  bool seekable_;
  std::string head_;           // peeked bytes; a pipe's are replayed by read()
  size_t head_position_ = 0;   // of the next byte to replay
  uint64_t bytes_read_ = 0;
};

}  // namespace pgnbase::indexer
