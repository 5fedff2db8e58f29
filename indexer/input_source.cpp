#include "indexer/input_source.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <vector>

namespace pgnbase::indexer {

namespace {

constexpr std::array<unsigned char, 4> kZstdMagic = {0x28, 0xB5, 0x2F, 0xFD};
// Compressed bytes read per system call when streaming zstd.
constexpr size_t kCompressedReadSize = size_t{1} << 20;

std::string system_message(int error) { return std::strerror(error); }

// Reads until capacity bytes or end of file; retries interrupted and short reads.
size_t read_fully(int fd, char* destination, size_t capacity, const std::string& name) {
  size_t done = 0;
  while (done < capacity) {
    ssize_t got = ::read(fd, destination + done, capacity - done);
    if (got == 0) break;
    if (got < 0) {
      if (errno == EINTR) continue;
      throw InputError("cannot read '" + name + "': " + system_message(errno));
    }
    done += static_cast<size_t>(got);
  }
  return done;
}

bool has_zstd_magic(const char* bytes, size_t size) {
  return size >= kZstdMagic.size() && std::memcmp(bytes, kZstdMagic.data(), kZstdMagic.size()) == 0;
}

}  // namespace

struct InputSource::State {
  std::string name;
  Compression compression = Compression::None;
  int fd = -1;
  bool owns_fd = false;
  std::optional<uint64_t> size_on_disk;

  // Mapped plain file.
  std::shared_ptr<const void> mapping;
  std::string_view mapped_text;
  size_t mapped_read_position = 0;
  bool mapped = false;

  // Streams: bytes read ahead to sniff the format, handed out (plain) or fed to zstd first.
  std::string sniffed;
  size_t sniffed_position = 0;
  uint64_t file_bytes_read = 0;

  // zstd stream.
  ZSTD_DCtx* decoder = nullptr;
  std::vector<char> compressed;
  ZSTD_inBuffer compressed_window{nullptr, 0, 0};
  bool compressed_at_end = false;
  bool frame_open = true;  // the magic promised a frame

  std::atomic<uint64_t> consumed{0};
  std::atomic<uint64_t> produced{0};

  ~State() {
    ZSTD_freeDCtx(decoder);
    if (owns_fd && fd >= 0) ::close(fd);
  }

  [[noreturn]] void fail_decompress(const std::string& why) const {
    throw InputError("cannot decompress '" + name + "': " + why);
  }

  void map_whole_file(uint64_t size) {
    mapped = true;
    if (size == 0) return;  // mmap refuses length 0; an empty view is the right answer
    void* address = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (address == MAP_FAILED) throw InputError("cannot map '" + name + "': " + system_message(errno));
    ::madvise(address, size, MADV_SEQUENTIAL);
    mapping = std::shared_ptr<const void>(address, [size](const void* p) {
      ::munmap(const_cast<void*>(p), size);
    });
    mapped_text = {static_cast<const char*>(address), static_cast<size_t>(size)};
  }

  void start_decoder() {
    decoder = ZSTD_createDCtx();
    if (!decoder) fail_decompress("out of memory for the zstd decoder");
    // Accept frames written with `zstd --long=31`; memory is only used if a frame asks.
    ZSTD_DCtx_setParameter(decoder, ZSTD_d_windowLogMax, 31);
    compressed.resize(kCompressedReadSize);
    // Sniffed bytes are the first compressed bytes.
    std::copy(sniffed.begin(), sniffed.end(), compressed.begin());
    compressed_window = {compressed.data(), sniffed.size(), 0};
    sniffed.clear();
  }

  void refill_compressed() {
    size_t got = read_fully(fd, compressed.data(), compressed.size(), name);
    file_bytes_read += got;
    compressed_window = {compressed.data(), got, 0};
    if (got < compressed.size()) compressed_at_end = true;
  }

  size_t read_zstd(char* destination, size_t capacity) {
    ZSTD_outBuffer out{destination, capacity, 0};
    while (out.pos < out.size) {
      if (compressed_window.pos == compressed_window.size && !compressed_at_end) refill_compressed();
      bool input_over = compressed_window.pos == compressed_window.size && compressed_at_end;
      if (input_over && !frame_open) break;
      size_t produced_before = out.pos;
      size_t hint = ZSTD_decompressStream(decoder, &out, &compressed_window);
      if (ZSTD_isError(hint)) fail_decompress(std::string("corrupt zstd data (") + ZSTD_getErrorName(hint) + ")");
      frame_open = hint != 0;
      consumed.store(file_bytes_read - (compressed_window.size - compressed_window.pos),
                     std::memory_order_relaxed);
      if (input_over && frame_open && out.pos == produced_before)
        fail_decompress("truncated zstd data (input ends inside a frame)");
    }
    return out.pos;
  }

  size_t read_plain_stream(char* destination, size_t capacity) {
    size_t done = std::min(capacity, sniffed.size() - sniffed_position);
    std::memcpy(destination, sniffed.data() + sniffed_position, done);
    sniffed_position += done;
    size_t got = read_fully(fd, destination + done, capacity - done, name);
    file_bytes_read += got;
    consumed.store(file_bytes_read, std::memory_order_relaxed);
    return done + got;
  }

  size_t read_mapped(char* destination, size_t capacity) {
    size_t done = std::min(capacity, mapped_text.size() - mapped_read_position);
    if (done == 0) return 0;  // an empty file has no mapping: no pointer to copy from
    std::memcpy(destination, mapped_text.data() + mapped_read_position, done);
    mapped_read_position += done;
    note_mapped(mapped_read_position);
    return done;
  }

  void note_mapped(uint64_t offset) {
    uint64_t previous = consumed.load(std::memory_order_relaxed);
    if (offset > previous) consumed.store(offset, std::memory_order_relaxed);
  }

  void release_mapped(uint64_t begin, uint64_t end) {
    static const uint64_t page = uint64_t(::sysconf(_SC_PAGESIZE));
    begin = begin / page * page;
    end = std::min<uint64_t>(end, mapped_text.size()) / page * page;
    if (!mapped || end <= begin) return;
    // A private read-only file mapping: the pages stay in the page cache, and a later
    // touch faults them back in with the same bytes.
    ::madvise(const_cast<char*>(mapped_text.data()) + begin, end - begin, MADV_DONTNEED);
  }
};

InputSource InputSource::open(const std::string& path) {
  auto state = std::make_unique<State>();
  bool from_stdin = path == "-";
  state->name = from_stdin ? "<stdin>" : path;
  if (from_stdin) {
    state->fd = STDIN_FILENO;
  } else {
    state->fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (state->fd < 0) throw InputError("cannot open '" + path + "': " + system_message(errno));
    state->owns_fd = true;
  }

  struct stat info {};
  if (::fstat(state->fd, &info) != 0)
    throw InputError("cannot open '" + state->name + "': " + system_message(errno));
  if (S_ISDIR(info.st_mode)) throw InputError("cannot read '" + state->name + "': it is a directory");
  bool regular = S_ISREG(info.st_mode);
  if (regular) state->size_on_disk = static_cast<uint64_t>(info.st_size);

  // Sniff the first bytes: pread leaves a regular file's offset alone; a pipe
  // cannot seek, so the bytes are kept and replayed.
  char head[kZstdMagic.size()];
  size_t head_size = 0;
  if (regular && !from_stdin) {
    ssize_t got = ::pread(state->fd, head, sizeof head, 0);
    if (got < 0) throw InputError("cannot read '" + state->name + "': " + system_message(errno));
    head_size = static_cast<size_t>(got);
  } else {
    head_size = read_fully(state->fd, head, sizeof head, state->name);
    state->sniffed.assign(head, head_size);
    state->file_bytes_read = head_size;
  }

  if (has_zstd_magic(head, head_size)) {
    state->compression = Compression::Zstd;
    state->start_decoder();
  } else if (regular && !from_stdin) {
    state->map_whole_file(static_cast<uint64_t>(info.st_size));
    ::close(state->fd);
    state->fd = -1;
    state->owns_fd = false;
  }
  return InputSource(std::move(state));
}

InputSource::InputSource(std::unique_ptr<State> state) : state_(std::move(state)) {}
InputSource::~InputSource() = default;
InputSource::InputSource(InputSource&&) noexcept = default;
InputSource& InputSource::operator=(InputSource&&) noexcept = default;

const std::string& InputSource::name() const { return state_->name; }
Compression InputSource::compression() const { return state_->compression; }
bool InputSource::is_mapped() const { return state_->mapped; }
std::string_view InputSource::mapped_text() const { return state_->mapped_text; }
std::shared_ptr<const void> InputSource::mapping_owner() const { return state_->mapping; }
void InputSource::note_mapped_consumed(uint64_t offset) { state_->note_mapped(offset); }

void InputSource::release_mapped(uint64_t begin, uint64_t end) { state_->release_mapped(begin, end); }
std::optional<uint64_t> InputSource::size_on_disk() const { return state_->size_on_disk; }
uint64_t InputSource::bytes_consumed() const { return state_->consumed.load(std::memory_order_relaxed); }
uint64_t InputSource::bytes_produced() const { return state_->produced.load(std::memory_order_relaxed); }

size_t InputSource::read(char* destination, size_t capacity) {
  size_t got = 0;
  if (state_->mapped)
    got = state_->read_mapped(destination, capacity);
  else if (state_->compression == Compression::Zstd)
    got = state_->read_zstd(destination, capacity);
  else
    got = state_->read_plain_stream(destination, capacity);
  state_->produced.fetch_add(got, std::memory_order_relaxed);
  return got;
}

}  // namespace pgnbase::indexer
