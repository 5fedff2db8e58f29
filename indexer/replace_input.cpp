#include "indexer/replace_input.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "indexer/content_hash.h"
#include "indexer/input_source.h"
#include "indexer/run_file_cleanup.h"
#include "io/file_io.h"

namespace pgnbase::indexer {

namespace {

constexpr size_t kCopyBytes = size_t{1} << 20;

std::string errno_text() { return std::strerror(errno); }

// Closes a descriptor this file opened (never standard input).
struct OwnedFd {
  int fd;
  ~OwnedFd() {
    if (fd > STDIN_FILENO) ::close(fd);
  }
};

}  // namespace

bool is_rereadable(const std::string& path) {
  if (path == "-") return false;
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return true;
  return S_ISREG(st.st_mode);
}

SpooledStream::SpooledStream(const std::string& path, const std::filesystem::path& directory) {
  const std::string shown = path == "-" ? "<stdin>" : path;
  const OwnedFd input{path == "-" ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (input.fd < 0) throw InputError("cannot open '" + shown + "': " + errno_text());
  remove_run_files_on_signal(directory);
  std::string name = run_file_template(directory);
  const int out = ::mkstemps(name.data(), 4);
  if (out < 0) throw InputError("cannot copy '" + shown + "' into " + directory.string() + ": " + errno_text());
  path_ = name;
  std::vector<char> buffer(kCopyBytes);
  try {
    for (;;) {
      const ssize_t got = ::read(input.fd, buffer.data(), buffer.size());
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) throw InputError("cannot read '" + shown + "': " + errno_text());
      if (got == 0) break;
      if (const int error = io::write_all(out, buffer.data(), size_t(got)))
        throw InputError("cannot copy '" + shown + "' to " + path_ + ": " + std::strerror(error));
    }
  } catch (...) {
    ::close(out);
    ::unlink(path_.c_str());
    throw;
  }
  ::close(out);
}

SpooledStream::~SpooledStream() { ::unlink(path_.c_str()); }

std::string hash_input(InputSource& source) {
  ContentHasher hasher;
  // A zip member states its size: a buffer that fits it is cheaper than a zeroed 1 MiB
  // one for each of thousands of small members.
  const uint64_t wanted = std::max<uint64_t>(source.stated_size().value_or(kCopyBytes), 1) + 1;
  std::vector<char> buffer(std::min<uint64_t>(kCopyBytes, wanted));
  while (const size_t got = source.read(buffer.data(), buffer.size())) hasher.update({buffer.data(), got});
  return hasher.finish();
}

}  // namespace pgnbase::indexer
