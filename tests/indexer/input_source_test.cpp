#include "indexer/input_source.h"

#include <gtest/gtest.h>
#include <unistd.h>
#include <zstd.h>

#include <csignal>
#include <filesystem>
#include <string>
#include <thread>

#include "tests/support/files.h"
#include "tests/support/shared_data.h"
#include "tests/support/temp_dir.h"

namespace pgnbase::indexer {
namespace {

namespace fs = std::filesystem;

const fs::path kVariantsZst = test::shared_data("nasty/lichess-variants/lichess-nonstandard-variants-and-setups.pgn.zst");
// From MANIFEST.tsv.
constexpr uint64_t kVariantsUncompressedBytes = 2'599'387;
constexpr uint64_t kVariantsCompressedBytes = 361'555;
constexpr size_t kVariantsEventTags = 1068;

using test::read_file;
using test::write_file;

std::string read_everything(InputSource& source, size_t piece = size_t{4} << 20) {
  std::string all;
  std::string buffer(piece, '\0');
  while (size_t got = source.read(buffer.data(), buffer.size())) all.append(buffer, 0, got);
  return all;
}

size_t count_event_lines(std::string_view text) {
  size_t count = text.starts_with("[Event ") ? 1 : 0;
  for (size_t at = text.find("\n[Event "); at != std::string_view::npos; at = text.find("\n[Event ", at + 1))
    ++count;
  return count;
}

std::string compress(std::string_view text) {
  std::string out(ZSTD_compressBound(text.size()), '\0');
  size_t size = ZSTD_compress(out.data(), out.size(), text.data(), text.size(), 3);
  EXPECT_FALSE(ZSTD_isError(size));
  out.resize(size);
  return out;
}

template <typename Function>
std::string input_error_of(Function&& function) {
  try {
    function();
  } catch (const InputError& error) {
    return error.what();
  }
  ADD_FAILURE() << "expected an InputError";
  return {};
}

class InputSourceTest : public test::TempDirTest {
 protected:
};

TEST_F(InputSourceTest, PlainFileIsMappedWholeAndReadsBack) {
  PGNBASE_REQUIRE_SHARED("nasty/pgn-extract-tests/fischer.pgn");
  fs::path path = test::shared_data("nasty/pgn-extract-tests/fischer.pgn");
  std::string expected = read_file(path);
  ASSERT_EQ(expected.size(), 23863u);

  InputSource source = InputSource::open(path.string());
  EXPECT_TRUE(source.is_mapped());
  EXPECT_EQ(source.compression(), Compression::None);
  EXPECT_EQ(source.size_on_disk(), expected.size());
  EXPECT_EQ(source.mapped_text(), expected);
  EXPECT_EQ(source.name(), path.string());

  EXPECT_EQ(read_everything(source, 1000), expected);
  EXPECT_EQ(source.bytes_consumed(), expected.size());
  EXPECT_EQ(source.bytes_produced(), expected.size());
}

TEST_F(InputSourceTest, MappingOutlivesTheSource) {
  fs::path path = fs::path(PGNBASE_SOURCE_DIR) / "tests/data/notation/fide-appendix-e-sample.pgn";
  std::shared_ptr<const void> owner;
  std::string_view text;
  {
    InputSource source = InputSource::open(path.string());
    owner = source.mapping_owner();
    text = source.mapped_text();
  }
  EXPECT_EQ(text, read_file(path));
}

TEST_F(InputSourceTest, ReleasedPagesStillReadTheSameBytes) {
  PGNBASE_REQUIRE_SHARED("nasty/pgn-extract-tests/fischer.pgn");
  // The importer drops pages it has read; a view into them must still see the file.
  std::string text;
  const std::string game = read_file(test::shared_data("nasty/pgn-extract-tests/fischer.pgn"));
  while (text.size() < (size_t{1} << 20)) text += game;
  const fs::path path = dir_ / "big.pgn";
  write_file(path, text);

  InputSource source = InputSource::open(path.string());
  ASSERT_TRUE(source.is_mapped());
  std::string_view mapped = source.mapped_text();
  ASSERT_EQ(mapped, text);
  source.release_mapped(100, 300'001);  // unaligned ends: whole pages inside only
  source.release_mapped(500'000, text.size() + 12'345);  // past the end: clamped
  source.release_mapped(9'000, 10);  // empty: nothing
  EXPECT_EQ(mapped, text);
  source.release_mapped(0, text.size());
  EXPECT_EQ(mapped, text);
}

TEST_F(InputSourceTest, ZstdStreamDecompressesToManifestSize) {
  PGNBASE_REQUIRE_SHARED(kVariantsZst);
  InputSource source = InputSource::open(kVariantsZst.string());
  EXPECT_FALSE(source.is_mapped());
  EXPECT_TRUE(source.mapped_text().empty());
  EXPECT_EQ(source.compression(), Compression::Zstd);
  EXPECT_EQ(source.size_on_disk(), kVariantsCompressedBytes);

  std::string text = read_everything(source);
  EXPECT_EQ(text.size(), kVariantsUncompressedBytes);
  EXPECT_EQ(count_event_lines(text), kVariantsEventTags);
  EXPECT_EQ(source.bytes_consumed(), kVariantsCompressedBytes);
  EXPECT_EQ(source.bytes_produced(), kVariantsUncompressedBytes);
  EXPECT_EQ(source.read(text.data(), 1), 0u);  // stays at end
}

TEST_F(InputSourceTest, SmallReadsGiveTheSameBytes) {
  PGNBASE_REQUIRE_SHARED(kVariantsZst);
  InputSource whole = InputSource::open(kVariantsZst.string());
  InputSource pieces = InputSource::open(kVariantsZst.string());
  EXPECT_EQ(read_everything(pieces, 997), read_everything(whole));
}

TEST_F(InputSourceTest, ZstdIsDetectedByContentNotName) {
  PGNBASE_REQUIRE_SHARED(kVariantsZst, "nasty/pgn-extract-tests/fools-mate.pgn");
  fs::path disguised = dir_ / "games.pgn";
  fs::copy_file(kVariantsZst, disguised);
  InputSource zstd = InputSource::open(disguised.string());
  EXPECT_EQ(zstd.compression(), Compression::Zstd);
  EXPECT_EQ(read_everything(zstd).size(), kVariantsUncompressedBytes);

  fs::path plain = dir_ / "plain.pgn.zst";
  fs::copy_file(test::shared_data("nasty/pgn-extract-tests/fools-mate.pgn"), plain);
  InputSource mapped = InputSource::open(plain.string());
  EXPECT_EQ(mapped.compression(), Compression::None);
  EXPECT_TRUE(mapped.is_mapped());
}

TEST_F(InputSourceTest, ConcatenatedZstdFramesAreOneStream) {
  PGNBASE_REQUIRE_SHARED("nasty/pgn-extract-tests/fischer.pgn", "nasty/pgn-extract-tests/petrosian.pgn");
  std::string first = read_file(test::shared_data("nasty/pgn-extract-tests/fischer.pgn"));
  std::string second = read_file(test::shared_data("nasty/pgn-extract-tests/petrosian.pgn"));
  fs::path path = dir_ / "two-frames.zst";
  write_file(path, compress(first) + compress(second));
  InputSource source = InputSource::open(path.string());
  EXPECT_EQ(read_everything(source, 4096), first + second);
}

TEST_F(InputSourceTest, TruncatedZstdIsAnError) {
  PGNBASE_REQUIRE_SHARED(kVariantsZst);
  std::string compressed = read_file(kVariantsZst);
  fs::path path = dir_ / "half.pgn.zst";
  write_file(path, std::string_view(compressed).substr(0, compressed.size() / 2));
  InputSource source = InputSource::open(path.string());
  std::string message = input_error_of([&] { read_everything(source); });
  EXPECT_EQ(message, "cannot decompress '" + path.string() + "': truncated zstd data (input ends inside a frame)");
}

TEST_F(InputSourceTest, ZstdMagicAloneIsTruncated) {
  fs::path path = dir_ / "magic-only.zst";
  write_file(path, "\x28\xB5\x2F\xFD");
  // open() reads the first 64 KiB ahead, so a short input fails there.
  EXPECT_NE(input_error_of([&] { InputSource::open(path.string()); }).find("truncated"), std::string::npos);
}

TEST_F(InputSourceTest, CorruptZstdIsAnError) {
  PGNBASE_REQUIRE_SHARED(kVariantsZst);
  std::string compressed = read_file(kVariantsZst);
  for (size_t i = compressed.size() / 2; i < compressed.size() / 2 + 64; ++i) compressed[i] ^= 0x5a;
  fs::path path = dir_ / "corrupt.pgn.zst";
  write_file(path, compressed);
  InputSource source = InputSource::open(path.string());
  std::string message = input_error_of([&] { read_everything(source); });
  EXPECT_EQ(message.rfind("cannot decompress '" + path.string() + "': corrupt zstd data", 0), 0u) << message;
}

TEST_F(InputSourceTest, GarbageAfterLastFrameIsAnError) {
  fs::path path = dir_ / "trailing.zst";
  write_file(path, compress("[Event \"x\"]\n\n*\n") + "this is not zstd");
  EXPECT_NE(input_error_of([&] { InputSource::open(path.string()); }).find("corrupt zstd data"), std::string::npos);
}

// One zstd frame of raw (stored) text whose header asks for a window of 2^window_log
// bytes, with no content size: the decoder must reserve the whole window.
std::string zstd_frame_with_window(int window_log, std::string_view text) {
  std::string frame = "\x28\xB5\x2F\xFD";
  frame += '\0';                             // descriptor: no content size, no checksum
  frame += char((window_log - 10) << 3);      // window: exponent window_log - 10, mantissa 0
  uint32_t block = uint32_t(text.size()) << 3 | 1;  // a raw block, the last one
  frame += {char(block & 0xFF), char(block >> 8 & 0xFF), char(block >> 16 & 0xFF)};
  return frame + std::string(text);
}

TEST_F(InputSourceTest, ZstdWindowOverTheLimitIsRefused) {
  const std::string text = "[Event \"x\"]\n\n1. e4 *\n";
  fs::path allowed = dir_ / "window27.pgn.zst";
  write_file(allowed, zstd_frame_with_window(27, text));
  InputSource source = InputSource::open(allowed.string());
  EXPECT_EQ(read_everything(source), text);
  for (int window_log : {28, 31}) {
    fs::path path = dir_ / ("window" + std::to_string(window_log) + ".pgn.zst");
    write_file(path, zstd_frame_with_window(window_log, text));
    EXPECT_EQ(input_error_of([&] { InputSource::open(path.string()); }),
              "cannot decompress '" + path.string() +
                  "': a zstd frame asks for a window over 128 MiB, more than pgnbase accepts (written with zstd "
                  "--long=28 or more?)");
  }
}

TEST_F(InputSourceTest, MissingFileIsAnError) {
  std::string path = (dir_ / "no-such-file.pgn").string();
  EXPECT_EQ(input_error_of([&] { InputSource::open(path); }),
            "cannot open '" + path + "': No such file or directory");
}

TEST_F(InputSourceTest, DirectoryIsAnError) {
  EXPECT_EQ(input_error_of([&] { InputSource::open(dir_.string()); }),
            "cannot read '" + dir_.string() + "': it is a directory");
}

TEST_F(InputSourceTest, UnreadableFileIsAnError) {
  if (::geteuid() == 0) GTEST_SKIP() << "root reads every file";
  fs::path path = dir_ / "secret.pgn";
  write_file(path, "[Event \"x\"]\n");
  fs::permissions(path, fs::perms::none);
  EXPECT_EQ(input_error_of([&] { InputSource::open(path.string()); }),
            "cannot open '" + path.string() + "': Permission denied");
}

TEST_F(InputSourceTest, EmptyFileHasNoBytes) {
  fs::path path = dir_ / "empty.pgn";
  write_file(path, "");
  InputSource source = InputSource::open(path.string());
  EXPECT_TRUE(source.is_mapped());
  EXPECT_TRUE(source.mapped_text().empty());
  EXPECT_EQ(read_everything(source), "");
}

TEST_F(InputSourceTest, TinyFileShorterThanMagicIsPlain) {
  fs::path path = dir_ / "tiny.pgn";
  write_file(path, "\x28\xB5");
  InputSource source = InputSource::open(path.string());
  EXPECT_EQ(source.compression(), Compression::None);
  EXPECT_EQ(read_everything(source), "\x28\xB5");
}

// Runs body with standard input replaced by a pipe that a thread fills with bytes.
template <typename Body>
void with_stdin_pipe(const std::string& bytes, Body&& body) {
  int saved = ::dup(STDIN_FILENO);
  int ends[2];
  ASSERT_EQ(::pipe(ends), 0);
  ASSERT_GE(::dup2(ends[0], STDIN_FILENO), 0);
  ::close(ends[0]);
  std::thread writer([&] {
    size_t done = 0;
    while (done < bytes.size()) {
      ssize_t wrote = ::write(ends[1], bytes.data() + done, bytes.size() - done);
      if (wrote <= 0) break;
      done += static_cast<size_t>(wrote);
    }
    ::close(ends[1]);
  });
  body();
  // Restoring stdin closes the pipe's read end, which unblocks a writer that the
  // body did not drain (a failed test); its write then fails with EPIPE, not SIGPIPE.
  auto previous = std::signal(SIGPIPE, SIG_IGN);
  ::dup2(saved, STDIN_FILENO);
  ::close(saved);
  writer.join();
  std::signal(SIGPIPE, previous);
}

TEST_F(InputSourceTest, ZstdOnStdinIsStreamed) {
  PGNBASE_REQUIRE_SHARED(kVariantsZst);
  with_stdin_pipe(read_file(kVariantsZst), [] {
    InputSource source = InputSource::open("-");
    EXPECT_EQ(source.name(), "<stdin>");
    EXPECT_EQ(source.compression(), Compression::Zstd);
    EXPECT_FALSE(source.size_on_disk().has_value());
    std::string text = read_everything(source, 65536);
    EXPECT_EQ(text.size(), kVariantsUncompressedBytes);
    EXPECT_EQ(count_event_lines(text), kVariantsEventTags);
    EXPECT_EQ(source.bytes_consumed(), kVariantsCompressedBytes);
  });
}

TEST_F(InputSourceTest, PlainStdinIsStreamed) {
  PGNBASE_REQUIRE_SHARED("nasty/tcec/TCEC_Match_1.pgn");
  std::string expected = read_file(test::shared_data("nasty/tcec/TCEC_Match_1.pgn"));
  with_stdin_pipe(expected, [&] {
    InputSource source = InputSource::open("-");
    EXPECT_EQ(source.compression(), Compression::None);
    EXPECT_FALSE(source.is_mapped());
    EXPECT_EQ(read_everything(source, 10000), expected);
  });
}

}  // namespace
}  // namespace pgnbase::indexer
