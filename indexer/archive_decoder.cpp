#include "indexer/archive_decoder.h"

#include <archive.h>
#include <archive_entry.h>
#include <locale.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <map>
#include <mutex>
#include <optional>
#include <utility>

#include "indexer/input_source.h"

namespace pgnbase::indexer {

namespace {

constexpr size_t kReadBlockBytes = size_t{1} << 20;

bool has_pgn_extension(std::string_view name) {
  if (name.size() < 4) return false;
  std::string_view tail = name.substr(name.size() - 4);
  return std::equal(tail.begin(), tail.end(), ".pgn",
                    [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; });
}

// A member as a source path names it: "NAME", or "NAME#N" for the Nth regular-file
// member called NAME (N >= 2) when the archive holds several.
struct MemberRef {
  std::string name;
  unsigned occurrence = 1;
};

MemberRef parse_member(const std::string& member) {
  const size_t hash = member.rfind('#');
  if (hash == std::string::npos || !has_pgn_extension(std::string_view(member).substr(0, hash))) return {member};
  unsigned n = 0;
  const char* end = member.data() + member.size();
  auto [stop, error] = std::from_chars(member.data() + hash + 1, end, n);
  if (error != std::errc() || stop != end || n < 2 || member[hash + 1] == '0') return {member};
  return {member.substr(0, hash), n};
}

// While alive, this thread reads member names as UTF-8. In the C locale (pgn-index never
// calls setlocale) libarchive cannot convert a name that the zip flags as UTF-8
// (general purpose bit 11, as Python, Java and Windows write non-ASCII names) and gives
// no name at all; in a UTF-8 locale it hands the name over unchanged, and a name without
// the flag still comes as its bytes. uselocale() is per thread: other threads keep theirs.
class Utf8Names {
 public:
  Utf8Names() {
    static const locale_t utf8 = [] {
      for (const char* name : {"C.UTF-8", "C.utf8", "en_US.UTF-8"})
        if (locale_t l = ::newlocale(LC_CTYPE_MASK, name, locale_t(0))) return l;
      return locale_t(0);
    }();
    if (utf8) previous_ = ::uselocale(utf8);
  }
  ~Utf8Names() {
    if (previous_) ::uselocale(previous_);
  }
  Utf8Names(const Utf8Names&) = delete;
  Utf8Names& operator=(const Utf8Names&) = delete;

 private:
  locale_t previous_ = locale_t(0);
};

void refuse_pipe(const RawInput& input) {
  if (!input.seekable())
    throw InputError("cannot read '" + input.name() + "': a zip archive is read from a file, not from a pipe");
}

// One libarchive reader over a RawInput. libarchive is C, so no exception may cross it:
// the callbacks catch them and return an error, and fail() rethrows the message.
// Not movable: libarchive keeps a pointer to it.
class ArchiveReader {
 public:
  ArchiveReader(RawInput input, Compression compression)
      : input_(std::move(input)), compression_(compression), block_(kReadBlockBytes), shown_(input_.name()) {
    if (!archive_) throw InputError("cannot decompress '" + input_.name() + "': out of memory");
    archive* a = archive_.get();
    if (compression == Compression::Zip) {
      archive_read_support_format_zip(a);
    } else {
      if (compression == Compression::Gzip) archive_read_support_filter_gzip(a);
      if (compression == Compression::Bzip2) archive_read_support_filter_bzip2(a);
      if (compression == Compression::Xz) archive_read_support_filter_xz(a);
      archive_read_support_format_raw(a);
      archive_read_support_format_empty(a);  // a compressed empty file
    }
    archive_read_set_callback_data(a, this);
    archive_read_set_read_callback(a, &ArchiveReader::read_block);
    archive_read_set_skip_callback(a, &ArchiveReader::skip);
    // With a seek callback the zip reader trusts the central directory, not local headers.
    if (input_.seekable()) archive_read_set_seek_callback(a, &ArchiveReader::seek);
    Utf8Names utf8;
    if (archive_read_open1(a) != ARCHIVE_OK) fail();
  }
  ArchiveReader(const ArchiveReader&) = delete;
  ArchiveReader& operator=(const ArchiveReader&) = delete;

  // The next entry, or nullptr at the end of the archive.
  archive_entry* next_entry() {
    Utf8Names utf8;
    archive_entry* entry = nullptr;
    int result = archive_read_next_header(archive_.get(), &entry);
    if (result == ARCHIVE_EOF) return nullptr;
    if (result < ARCHIVE_WARN) fail();  // a warning: a name libarchive could not convert
    ++entries_;
    entry_size_.reset();
    if (archive_entry_size_is_set(entry) && archive_entry_size(entry) >= 0)
      entry_size_ = uint64_t(archive_entry_size(entry));
    return entry;
  }

  // The path of the next member that is a regular file, nullopt at the end of the
  // archive: UTF-8 when the zip flags it so, else the bytes stored.
  std::optional<std::string> next_file() {
    while (archive_entry* entry = next_entry()) {
      if (archive_entry_filetype(entry) != AE_IFREG) continue;
      Utf8Names utf8;
      if (const char* path = archive_entry_pathname(entry)) return path;
      failed_ = true;
    throw InputError("cannot read '" + input_.name() + "': the name of its member " + std::to_string(entries_) +
                       " cannot be decoded");  // no UTF-8 locale on this system
    }
    return std::nullopt;
  }

  // Copies up to capacity bytes of the current entry; fewer only at its end.
  size_t read_data(char* destination, size_t capacity) {
    size_t done = 0;
    while (done < capacity) {
      la_ssize_t got = archive_read_data(archive_.get(), destination + done, capacity - done);
      if (got < 0) fail();
      if (got == 0) break;
      done += static_cast<size_t>(got);
    }
    return done;
  }

  uint64_t bytes_consumed() const { return input_.bytes_read(); }

  // Names the entry being read in messages from now on (the input's name until then).
  void set_shown_name(std::string shown) { shown_ = std::move(shown); }
  const std::string& input_name() const { return input_.name(); }
  // True once an error was thrown: libarchive's state is then of no further use.
  bool failed() const { return failed_; }
  // The size the current entry's header states, when it does.
  std::optional<uint64_t> entry_size() const { return entry_size_; }

 private:
  [[noreturn]] void fail() {
    failed_ = true;
    if (!callback_error_.empty()) throw InputError(callback_error_);
    const char* why = archive_error_string(archive_.get());
    throw InputError("cannot decompress '" + shown_ + "': corrupt or truncated " +
                     std::string(compression_name(compression_)) + " data (" + (why ? why : "no reason given") + ")");
  }

  void note_error(const std::exception& error) {
    callback_error_ = error.what();
    archive_set_error(archive_.get(), -1, "%s", error.what());
  }

  la_ssize_t on_read(const void** buffer) {
    try {
      *buffer = block_.data();
      return static_cast<la_ssize_t>(input_.read(block_.data(), block_.size()));
    } catch (const std::exception& error) {
      note_error(error);
      return -1;
    }
  }

  la_int64_t on_seek(la_int64_t offset, int whence) {
    try {
      return input_.seek(offset, whence);
    } catch (const std::exception& error) {
      note_error(error);
      return ARCHIVE_FATAL;
    }
  }

  // Skipping is seeking forward; on a pipe libarchive reads the bytes instead.
  la_int64_t on_skip(la_int64_t request) {
    if (!input_.seekable() || request <= 0) return 0;
    return on_seek(request, SEEK_CUR) < 0 ? 0 : request;
  }

  static la_ssize_t read_block(archive*, void* self, const void** buffer) {
    return static_cast<ArchiveReader*>(self)->on_read(buffer);
  }
  static la_int64_t skip(archive*, void* self, la_int64_t request) {
    return static_cast<ArchiveReader*>(self)->on_skip(request);
  }
  static la_int64_t seek(archive*, void* self, la_int64_t offset, int whence) {
    return static_cast<ArchiveReader*>(self)->on_seek(offset, whence);
  }

  RawInput input_;
  Compression compression_;
  std::vector<char> block_;
  std::unique_ptr<archive, int (*)(archive*)> archive_{archive_read_new(), archive_read_free};
  std::string callback_error_;
  std::string shown_;     // the name messages give
  bool failed_ = false;
  std::optional<uint64_t> entry_size_;
  uint64_t entries_ = 0;  // read so far, for messages
};

// The path of the reader's next regular-file member named *.pgn; nullopt at the end.
std::optional<std::string> next_pgn_member(ArchiveReader& reader) {
  while (std::optional<std::string> path = reader.next_file())
    if (has_pgn_extension(*path)) return path;
  return std::nullopt;
}

// A zip reader, and the index (among the .pgn members) of the first member it has not
// passed yet.
struct ZipCursor {
  explicit ZipCursor(RawInput input) : reader(std::move(input), Compression::Zip) {}
  ArchiveReader reader;
  size_t next = 0;
  uint64_t counted = 0;  // bytes of reader already added to ZipReaders::bytes
};

// How many idle readers a ZipMembers keeps: one for the import, one for --replace's
// hash, each going through the members in order.
constexpr size_t kIdleReaders = 2;

class ArchiveDecoder final : public StreamDecoder {
 public:
  ArchiveDecoder(RawInput input, Compression compression) : reader_(std::move(input), compression) {}

  // Moves to the single entry of a compressed stream; false when the stream is empty.
  bool open_stream() { return has_entry_ = reader_.next_entry() != nullptr; }

  // Moves to the regular-file member that member names (parse_member); false when there
  // is none.
  bool open_member(const std::string& member) {
    const MemberRef wanted = parse_member(member);
    unsigned seen = 0;
    while (std::optional<std::string> path = reader_.next_file())
      if (*path == wanted.name && ++seen == wanted.occurrence) {
        size_ = reader_.entry_size();
        return has_entry_ = true;
      }
    return false;
  }

  size_t read(char* destination, size_t capacity) override {
    return has_entry_ ? reader_.read_data(destination, capacity) : 0;
  }
  uint64_t bytes_consumed() const override { return reader_.bytes_consumed(); }
  std::optional<uint64_t> stated_size() const override { return has_entry_ ? size_ : std::nullopt; }

 private:
  ArchiveReader reader_;
  bool has_entry_ = false;
  std::optional<uint64_t> size_;  // a zip member's, as its header states
};

}  // namespace

std::unique_ptr<StreamDecoder> make_archive_decoder(RawInput input, Compression compression) {
  auto decoder = std::make_unique<ArchiveDecoder>(std::move(input), compression);
  decoder->open_stream();  // no entry: an empty stream, whose read() gives 0
  return decoder;
}

std::unique_ptr<StreamDecoder> make_zip_member_decoder(RawInput input, const std::string& member) {
  refuse_pipe(input);
  std::string name = input.name();
  auto decoder = std::make_unique<ArchiveDecoder>(std::move(input), Compression::Zip);
  if (!decoder->open_member(member))
    throw InputError("cannot open '" + name + "': the zip archive has no member '" + member + "'");
  return decoder;
}

namespace {

// The paths of the reader's .pgn members, equal ones numbered.
std::vector<std::string> list_members(ArchiveReader& reader) {
  std::vector<std::string> members;
  std::map<std::string, unsigned> seen;
  while (std::optional<std::string> path = next_pgn_member(reader)) {
    const unsigned occurrence = ++seen[*path];
    members.push_back(occurrence == 1 ? *path : *path + "#" + std::to_string(occurrence));
  }
  return members;
}

}  // namespace

class ZipReaders {
 public:
  std::function<RawInput()> open_file;
  size_t members = 0;
  std::mutex mutex;
  std::vector<std::unique_ptr<ZipCursor>> idle;
  uint64_t bytes = 0;

  // A new reader at the archive's start.
  std::unique_ptr<ZipCursor> open_cursor() {
    RawInput input = open_file();
    refuse_pipe(input);
    return std::make_unique<ZipCursor>(std::move(input));
  }

  // The idle reader furthest along that has not passed member index, else a new one.
  std::unique_ptr<ZipCursor> take(size_t index) {
    {
      std::lock_guard lock(mutex);
      auto best = idle.end();
      for (auto it = idle.begin(); it != idle.end(); ++it)
        if ((*it)->next <= index && (best == idle.end() || (*it)->next > (*best)->next)) best = it;
      if (best != idle.end()) {
        std::unique_ptr<ZipCursor> cursor = std::move(*best);
        idle.erase(best);
        return cursor;
      }
    }
    return open_cursor();
  }

  // Keeps a reader for later members, unless it failed or has passed them all; of more
  // than kIdleReaders, the one furthest along goes (in-order opens need the others).
  void give_back(std::unique_ptr<ZipCursor> cursor) noexcept {
    std::lock_guard lock(mutex);
    const uint64_t now = cursor->reader.bytes_consumed();
    bytes += now - cursor->counted;
    cursor->counted = now;
    if (cursor->reader.failed() || cursor->next >= members) return;
    try {
      idle.push_back(std::move(cursor));
    } catch (const std::bad_alloc&) {
      return;  // the reader is simply not kept
    }
    if (idle.size() <= kIdleReaders) return;
    auto furthest = std::max_element(idle.begin(), idle.end(), [](const auto& a, const auto& b) {
      return a->next < b->next;
    });
    idle.erase(furthest);
  }
};

namespace {

// Streams one member through a reader of a ZipMembers, and gives the reader back after.
class ZipMemberDecoder final : public StreamDecoder {
 public:
  ZipMemberDecoder(std::shared_ptr<ZipReaders> readers, std::unique_ptr<ZipCursor> cursor)
      : readers_(std::move(readers)),
        cursor_(std::move(cursor)),
        start_(cursor_->reader.bytes_consumed()),
        size_(cursor_->reader.entry_size()) {}
  ~ZipMemberDecoder() override { readers_->give_back(std::move(cursor_)); }
  ZipMemberDecoder(const ZipMemberDecoder&) = delete;
  ZipMemberDecoder& operator=(const ZipMemberDecoder&) = delete;

  size_t read(char* destination, size_t capacity) override { return cursor_->reader.read_data(destination, capacity); }
  uint64_t bytes_consumed() const override { return cursor_->reader.bytes_consumed() - start_; }
  std::optional<uint64_t> stated_size() const override { return size_; }

 private:
  std::shared_ptr<ZipReaders> readers_;
  std::unique_ptr<ZipCursor> cursor_;
  uint64_t start_;  // bytes the reader had read before this member
  std::optional<uint64_t> size_;
};

}  // namespace

ZipMembers::ZipMembers(std::function<RawInput()> open_file) : readers_(std::make_shared<ZipReaders>()) {
  readers_->open_file = std::move(open_file);
  std::unique_ptr<ZipCursor> lister = readers_->open_cursor();
  names_ = list_members(lister->reader);
  readers_->members = names_.size();
  lister->next = names_.size();  // passed every member: counted, not kept
  readers_->give_back(std::move(lister));
}

ZipMembers::~ZipMembers() = default;

std::unique_ptr<StreamDecoder> ZipMembers::open(size_t index, const std::string& shown) {
  std::unique_ptr<ZipCursor> cursor = readers_->take(index);
  try {
    const std::string wanted = parse_member(names_.at(index)).name;
    for (;;) {
      std::optional<std::string> path = next_pgn_member(cursor->reader);
      if (path && cursor->next++ < index) continue;
      if (path && *path == wanted) break;
      cursor->next = names_.size();
      throw InputError("cannot open '" + shown + "': the zip archive changed since its members were listed");
    }
  } catch (...) {
    readers_->give_back(std::move(cursor));  // counted, and kept only when still of use
    throw;
  }
  cursor->reader.set_shown_name(shown);
  return std::make_unique<ZipMemberDecoder>(readers_, std::move(cursor));
}

uint64_t ZipMembers::bytes_read() const {
  std::lock_guard lock(readers_->mutex);
  return readers_->bytes;
}

}  // namespace pgnbase::indexer
