#include "indexer/input_source.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "indexer/archive_decoder.h"
#include "indexer/gzip_decoder.h"
#include "indexer/parquet_decoder.h"
#include "indexer/raw_input.h"
#include "indexer/stream_decoder.h"
#include "indexer/zstd_decoder.h"

namespace pgnbase::indexer {

namespace {

std::string system_message(int error) { return std::strerror(error); }

[[noreturn]] void refuse_non_pgn(const std::string& name, std::string_view looks_like) {
  throw InputError(name + ": not a PGN file (looks like " + std::string(looks_like) + ")");
}

// Opens path read-only; nullopt, with errno set, when it cannot.
std::optional<int> open_descriptor(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  return fd;
}

// Opens the regular file at path as a RawInput named name when it holds a zip archive.
std::optional<RawInput> open_zip_file(const std::string& path, const std::string& name) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) return std::nullopt;
  std::optional<int> fd = open_descriptor(path);
  if (!fd) return std::nullopt;
  RawInput input(name, *fd, true, true);
  if (detect_compression(input.peek(kMagicBytes)) != Compression::Zip) return std::nullopt;
  return input;
}

// Opens the zip archive at path again, for another reader of its members.
RawInput reopen_zip_file(const std::string& path) {
  std::optional<int> fd = open_descriptor(path);
  if (!fd) throw InputError("cannot open '" + path + "': " + system_message(errno));
  return RawInput(path, *fd, true, true);
}

// True for a FIFO, a terminal, a socket or another device (also behind /dev/stdin or
// /dev/fd/N): opening it a second time gets the bytes after those already read, so
// only the import may open it, once.
bool can_be_read_only_once(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode) && !S_ISDIR(info.st_mode);
}

// The .parquet files (any case) under folder and its subfolders (a Hive-style dataset:
// year=2024/month=01/0000.parquet), sorted by path.
std::vector<std::string> parquet_files_under(const std::string& folder) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  std::error_code error;
  fs::recursive_directory_iterator it(folder, fs::directory_options::skip_permission_denied, error), end;
  for (; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    std::string extension = name.size() >= 8 ? name.substr(name.size() - 8) : "";
    for (char& c : extension) c = char(std::tolower(static_cast<unsigned char>(c)));
    if (extension == ".parquet" && !name.starts_with(".") && it->is_regular_file(error)) files.push_back(it->path().string());
  }
  if (error) throw InputError("cannot read the folder '" + folder + "': " + error.message());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

struct InputSource::State {
  std::string name;
  Compression compression = Compression::None;
  std::optional<uint64_t> size_on_disk;

  // Mapped plain file.
  std::shared_ptr<const void> mapping;
  std::string_view mapped_text;
  size_t mapped_read_position = 0;
  bool mapped = false;

  // Everything else: the decoder, and its first bytes read ahead for the text test.
  std::unique_ptr<StreamDecoder> decoder;
  std::string head;
  size_t head_position = 0;

  std::atomic<uint64_t> consumed{0};
  std::atomic<uint64_t> produced{0};

  void map_whole_file(int fd, uint64_t size) {
    mapped = true;
    if (size == 0) return;  // mmap refuses length 0; an empty view is the right answer
    void* address = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (address == MAP_FAILED) throw InputError("cannot map '" + name + "': " + system_message(errno));
    ::madvise(address, size, MADV_SEQUENTIAL);
    mapping = std::shared_ptr<const void>(address, [size](const void* p) {
      ::munmap(const_cast<void*>(p), size);
    });
    mapped_text = {static_cast<const char*>(address), static_cast<size_t>(size)};
    if (auto looks_like = describe_non_pgn(mapped_text.substr(0, kSniffBytes))) refuse_non_pgn(name, *looks_like);
  }

  // Streams input (a pipe, or a compressed file) through the decoder its magic names.
  void open_stream(RawInput input) {
    compression = detect_compression(input.peek(kMagicBytes));
    switch (compression) {
      case Compression::None:
        decoder = make_plain_decoder(std::move(input));
        break;
      case Compression::Zstd:
        decoder = make_zstd_decoder(std::move(input));
        break;
      case Compression::Gzip:
        decoder = make_gzip_decoder(std::move(input));
        break;
      case Compression::Bzip2:
      case Compression::Xz:
        decoder = make_archive_decoder(std::move(input), compression);
        break;
      case Compression::Parquet:
        if (!input.seekable())
          throw InputError("cannot read '" + name + "': a Parquet file is read from a file, not from a pipe");
        decoder = make_parquet_decoder(std::move(input));
        break;
      case Compression::Zip:
        if (!input.seekable())
          throw InputError("cannot read '" + name + "': a zip archive is read from a file, not from a pipe");
        throw InputError("cannot read '" + name + "' as one input: it is a zip archive, whose members are read "
                         "one by one as '" + name + ":MEMBER'");
    }
    // A Parquet file's text is PGN by construction, and opening it reads only its footer:
    // no page is decoded before the import asks for text.
    if (compression != Compression::Parquet) read_head();
  }

  // Reads the first kSniffBytes ahead and refuses them when they are not PGN text.
  void read_head() {
    head.resize(kSniffBytes);
    head.resize(decoder->read(head.data(), head.size()));
    consumed.store(decoder->bytes_consumed(), std::memory_order_relaxed);
    if (auto looks_like = describe_non_pgn(head)) refuse_non_pgn(name, *looks_like);
  }

  size_t read_stream(char* destination, size_t capacity) {
    size_t done = std::min(capacity, head.size() - head_position);
    if (done > 0) std::memcpy(destination, head.data() + head_position, done);
    head_position += done;
    if (done < capacity) done += decoder->read(destination + done, capacity - done);
    consumed.store(decoder->bytes_consumed(), std::memory_order_relaxed);
    return done;
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

  // Reads path as "ARCHIVE:MEMBER", ARCHIVE a zip file (tried at each ':' from the left).
  // False when no prefix of path is a zip file: then path was simply not found.
  bool open_zip_member(const std::string& path) {
    for (size_t colon = path.find(':'); colon != std::string::npos; colon = path.find(':', colon + 1)) {
      std::optional<RawInput> zip = open_zip_file(path.substr(0, colon), path);
      if (!zip) continue;
      compression = Compression::Zip;
      decoder = make_zip_member_decoder(std::move(*zip), path.substr(colon + 1));
      read_head();
      return true;
    }
    return false;
  }
};

InputSource InputSource::open(const std::string& path) {
  auto state = std::make_unique<State>();
  if (path == "-") {
    state->name = "<stdin>";
    state->open_stream(RawInput(state->name, STDIN_FILENO, false, false));
    return InputSource(std::move(state));
  }
  state->name = path;
  std::optional<int> fd = open_descriptor(path);
  if (!fd) {
    int error = errno;
    if ((error == ENOENT || error == ENOTDIR) && state->open_zip_member(path)) return InputSource(std::move(state));
    throw InputError("cannot open '" + path + "': " + system_message(error));
  }
  struct stat info {};
  if (::fstat(*fd, &info) != 0) {
    int error = errno;
    ::close(*fd);
    throw InputError("cannot open '" + path + "': " + system_message(error));
  }
  const bool regular = S_ISREG(info.st_mode);
  RawInput input(path, *fd, true, regular);
  if (S_ISDIR(info.st_mode)) throw InputError("cannot read '" + path + "': it is a directory");
  if (regular) state->size_on_disk = static_cast<uint64_t>(info.st_size);
  if (regular && detect_compression(input.peek(kMagicBytes)) == Compression::None)
    state->map_whole_file(input.descriptor(), static_cast<uint64_t>(info.st_size));  // outlives the descriptor
  else
    state->open_stream(std::move(input));  // compressed, or a FIFO or device read like a pipe
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
std::optional<uint64_t> InputSource::stated_size() const {
  return state_->decoder ? state_->decoder->stated_size() : std::nullopt;
}
uint64_t InputSource::bytes_consumed() const { return state_->consumed.load(std::memory_order_relaxed); }
uint64_t InputSource::bytes_produced() const { return state_->produced.load(std::memory_order_relaxed); }

size_t InputSource::read(char* destination, size_t capacity) {
  size_t got = state_->mapped ? state_->read_mapped(destination, capacity) : state_->read_stream(destination, capacity);
  state_->produced.fetch_add(got, std::memory_order_relaxed);
  return got;
}

SourceList::SourceList(const std::string& path) {
  if (path == "-" || can_be_read_only_once(path)) {
    paths_ = {path};
    return;
  }
  if (std::error_code error; std::filesystem::is_directory(path, error)) {
    paths_ = parquet_files_under(path);
    if (paths_.empty())
      throw InputError("cannot read '" + path + "': a folder is read for its .parquet files, and it holds none");
    return;  // each is opened when imported: one damaged file does not keep the others out
  }
  if (!open_zip_file(path, path)) {
    InputSource::open(path);  // throws when path cannot be read or is not PGN
    paths_ = {path};
    return;
  }
  zip_ = std::make_unique<ZipMembers>([path] { return reopen_zip_file(path); });
  for (const std::string& member : zip_->names()) paths_.push_back(path + ":" + member);
  if (paths_.empty()) throw InputError("cannot read '" + path + "': the zip archive holds no .pgn file");
  for (size_t i = 0; i < paths_.size(); ++i) open(i);  // throws at the first that is not PGN
}

SourceList::~SourceList() = default;
SourceList::SourceList(SourceList&&) noexcept = default;
SourceList& SourceList::operator=(SourceList&&) noexcept = default;

InputSource SourceList::open(size_t index) {
  if (!zip_) return InputSource::open(paths_.at(index));
  auto state = std::make_unique<InputSource::State>();
  state->name = paths_.at(index);
  state->compression = Compression::Zip;
  state->decoder = zip_->open(index, state->name);
  state->read_head();
  return InputSource(std::move(state));
}

uint64_t SourceList::archive_bytes_read() const { return zip_ ? zip_->bytes_read() : 0; }

std::vector<std::string> list_sources(const std::string& path) { return SourceList(path).paths(); }

}  // namespace pgnbase::indexer
