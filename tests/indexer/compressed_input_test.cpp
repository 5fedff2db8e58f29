// InputSource over gzip, bzip2, xz and zip input, and its refusal of input that is not
// PGN. Runs on files of this repository only (tools/sample, tests/data/archives).
#include <gtest/gtest.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <random>
#include <string>
#include <thread>

#include "indexer/input_source.h"
#include "tests/support/archives.h"
#include "tests/support/bundled_sample.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"

namespace pgnbase::indexer {
namespace {

namespace fs = std::filesystem;
using namespace std::string_literals;
using test::StreamFormat;
using test::ZipMember;

const fs::path kArchives = fs::path(PGNBASE_SOURCE_DIR) / "tests/data/archives";
const fs::path kFideSample = fs::path(PGNBASE_SOURCE_DIR) / "tests/data/notation/fide-appendix-e-sample.pgn";
constexpr size_t kSampleBytes = 7'971'214;  // tools/sample/README.md

using test::read_file;
using test::sample_text;
using test::write_file;

std::string read_everything(InputSource& source, size_t piece = size_t{1} << 20) {
  std::string all;
  std::string buffer(piece, '\0');
  while (size_t got = source.read(buffer.data(), buffer.size())) all.append(buffer, 0, got);
  return all;
}

std::string read_everything(const fs::path& path, size_t piece = size_t{1} << 20) {
  InputSource source = InputSource::open(path.string());
  return read_everything(source, piece);
}

std::string random_bytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::string bytes(n, '\0');
  for (char& c : bytes) c = char(rng() & 0xFF);
  return bytes;
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

class CompressedInputTest : public test::TempDirTest {
 protected:

  std::string write(const std::string& name, std::string_view bytes) {
    write_file(dir_ / name, bytes);
    return (dir_ / name).string();
  }

};

TEST_F(CompressedInputTest, SampleDecompressesToItsReadmeSize) { ASSERT_EQ(sample_text().size(), kSampleBytes); }

TEST_F(CompressedInputTest, GzipBzip2AndXzStreamTheSameBytes) {
  const std::string text = sample_text().substr(0, 3'000'000);
  const std::pair<StreamFormat, Compression> formats[] = {
      {StreamFormat::Gzip, Compression::Gzip}, {StreamFormat::Bzip2, Compression::Bzip2}, {StreamFormat::Xz, Compression::Xz}};
  for (auto [format, compression] : formats) {
    const std::string compressed = test::compress_stream(text, format);
    // Named .pgn: the content decides, not the name.
    const std::string path = write("games.pgn", compressed);
    InputSource source = InputSource::open(path);
    EXPECT_EQ(source.compression(), compression);
    EXPECT_FALSE(source.is_mapped());
    EXPECT_EQ(source.size_on_disk(), compressed.size());
    EXPECT_TRUE(read_everything(source, 99'991) == text) << compression_name(compression);
    EXPECT_EQ(source.bytes_produced(), text.size());
    EXPECT_EQ(source.bytes_consumed(), compressed.size());
    char byte;
    EXPECT_EQ(source.read(&byte, 1), 0u);  // stays at end
  }
}

TEST_F(CompressedInputTest, FilesWrittenByTheCommandLineToolsRead) {
  const std::string expected = read_file(kFideSample);
  ASSERT_EQ(expected.size(), 565u);
  for (const char* name : {"fide-appendix-e-sample.pgn.gz", "fide-appendix-e-sample.pgn.bz2",
                           "fide-appendix-e-sample.pgn.xz"})
    EXPECT_EQ(read_everything(kArchives / name), expected) << name;
}

TEST_F(CompressedInputTest, ConcatenatedStreamsAreOneInput) {
  // pigz, pbzip2 and `cat a.gz b.gz` write several streams one after the other.
  const std::string first = sample_text().substr(0, 100'000), second = sample_text().substr(100'000, 50'000);
  for (StreamFormat format : {StreamFormat::Gzip, StreamFormat::Bzip2, StreamFormat::Xz}) {
    const std::string path =
        write("two.pgn.z", test::compress_stream(first, format) + test::compress_stream(second, format));
    EXPECT_TRUE(read_everything(path, 4096) == first + second) << int(format);
  }
}

TEST_F(CompressedInputTest, EmptyCompressedFileIsEmptyInput) {
  for (StreamFormat format : {StreamFormat::Gzip, StreamFormat::Bzip2, StreamFormat::Xz})
    EXPECT_EQ(read_everything(write("empty.gz", test::compress_stream("", format))), "") << int(format);
}

TEST_F(CompressedInputTest, TruncatedOrCorruptStreamsAreErrors) {
  const std::string text = sample_text().substr(0, 1'000'000);
  struct Case {
    StreamFormat format;
    std::string truncated, corrupt;  // how each message starts after the file name
  };
  const Case cases[] = {
      {StreamFormat::Gzip, "truncated gzip data (", "corrupt gzip data ("},
      {StreamFormat::Bzip2, "corrupt or truncated bzip2 data (", "corrupt or truncated bzip2 data ("},
      {StreamFormat::Xz, "corrupt or truncated xz data (", "corrupt or truncated xz data ("},
  };
  for (const Case& c : cases) {
    const std::string compressed = test::compress_stream(text, c.format);
    const std::string cut = write("cut.pgn.z", compressed.substr(0, compressed.size() / 2));
    std::string message = input_error_of([&] { read_everything(cut); });
    EXPECT_EQ(message.rfind("cannot decompress '" + cut + "': " + c.truncated, 0), 0u) << message;
    // Damage in the middle: caught by the format's checksum if not before.
    std::string damaged = compressed;
    for (size_t i = damaged.size() / 2; i < damaged.size() / 2 + 64; ++i) damaged[i] ^= 0x5a;
    const std::string bad = write("bad.pgn.z", damaged);
    message = input_error_of([&] { read_everything(bad); });
    EXPECT_EQ(message.rfind("cannot decompress '" + bad + "': " + c.corrupt, 0), 0u) << message;
  }
}

TEST_F(CompressedInputTest, GzipChecksumCatchesDamageThatInflates) {
  // One flipped bit in a stored (uncompressed) deflate block still inflates: only the
  // CRC-32 in the gzip trailer tells. Deflate stores random bytes as they are.
  // The random bytes come after the first 64 KiB, which the text test reads.
  const std::string text = sample_text().substr(0, 70'000) + random_bytes(100'000, 7);
  std::string compressed = test::compress_stream(text, StreamFormat::Gzip);
  ASSERT_GT(compressed.size(), 100'000u) << "expected stored blocks";
  compressed[compressed.size() - 1000] ^= 0x01;
  const std::string path = write("flipped.pgn.gz", compressed);
  EXPECT_EQ(input_error_of([&] { read_everything(path); }),
            "cannot decompress '" + path + "': corrupt gzip data (incorrect data check)");
}

TEST_F(CompressedInputTest, GzipPaddingIsIgnoredAndGarbageIsAnError) {
  const std::string text = sample_text().substr(0, 10'000);
  const std::string gz = test::compress_stream(text, StreamFormat::Gzip);
  EXPECT_EQ(read_everything(write("padded.pgn.gz", gz + std::string(512, '\0'))), text);
  const std::string garbage = write("garbage.pgn.gz", gz + "not gzip");
  EXPECT_EQ(input_error_of([&] { read_everything(garbage); }),
            "cannot decompress '" + garbage +
                "': bytes after the end of the gzip data that are not another gzip member");
}

TEST_F(CompressedInputTest, ZipMembersAreReadByArchiveColonMember) {
  const std::string zip = write("twic.zip", test::make_zip({{"twic1500.pgn", sample_text().substr(0, 500'000)},
                                                            {"notes/readme.txt", "not games"},
                                                            {"more/", "", true},
                                                            {"more/Second Game.PGN", read_file(kFideSample)}}));
  EXPECT_EQ(list_sources(zip), (std::vector<std::string>{zip + ":twic1500.pgn", zip + ":more/Second Game.PGN"}));

  InputSource member = InputSource::open(zip + ":twic1500.pgn");
  EXPECT_EQ(member.name(), zip + ":twic1500.pgn");
  EXPECT_EQ(member.compression(), Compression::Zip);
  EXPECT_FALSE(member.is_mapped());
  EXPECT_FALSE(member.size_on_disk().has_value());
  EXPECT_TRUE(read_everything(member, 65'537) == sample_text().substr(0, 500'000));
  EXPECT_EQ(read_everything(zip + ":more/Second Game.PGN"), read_file(kFideSample));

  EXPECT_EQ(input_error_of([&] { InputSource::open(zip + ":missing.pgn"); }),
            "cannot open '" + zip + ":missing.pgn': the zip archive has no member 'missing.pgn'");
  EXPECT_EQ(input_error_of([&] { InputSource::open(zip + ":more/"); }),
            "cannot open '" + zip + ":more/': the zip archive has no member 'more/'");
  EXPECT_EQ(input_error_of([&] { InputSource::open(zip); }),
            "cannot read '" + zip + "' as one input: it is a zip archive, whose members are read one by one as '" +
                zip + ":MEMBER'");
  // A real file whose name holds a colon is that file, not a member.
  const std::string colon = write("twic.zip:twic1500.pgn", "[Event \"plain\"]\n\n*\n");
  EXPECT_EQ(read_everything(colon), "[Event \"plain\"]\n\n*\n");
}

TEST_F(CompressedInputTest, InfoZipArchiveListsItsPgnMembers) {
  const std::string zip = (kArchives / "fide-and-lichess.zip").string();
  ASSERT_EQ(list_sources(zip),
            (std::vector<std::string>{zip + ":fide-appendix-e-sample.pgn", zip + ":lichess/FIRST-10.PGN"}));
  EXPECT_EQ(read_everything(zip + ":fide-appendix-e-sample.pgn"), read_file(kFideSample));
  const std::string ten = read_everything(zip + ":lichess/FIRST-10.PGN");
  EXPECT_EQ(ten.size(), 48'876u);
  EXPECT_TRUE(sample_text().starts_with(ten));
}

// Games [first, end) of the sample, each from its [Event line to the next one.
std::string sample_games(size_t first, size_t end) {
  std::vector<size_t> starts;
  for (size_t at = 0; at != std::string::npos && starts.size() <= end; at = sample_text().find("\n[Event ", at + 1))
    starts.push_back(at == 0 ? 0 : at + 1);
  return sample_text().substr(starts[first], starts[end] - starts[first]);
}

TEST_F(CompressedInputTest, ZipMemberNamesInEveryEncodingAreListedAndRead) {
  // Flagged UTF-8 (Python's zipfile, jar, Windows): the name arrives as UTF-8.
  const std::string utf8 = (kArchives / "utf8-name.zip").string();
  ASSERT_EQ(list_sources(utf8), std::vector<std::string>{utf8 + ":Caf\xC3\xA9.pgn"});
  EXPECT_TRUE(read_everything(utf8 + ":Caf\xC3\xA9.pgn") == sample_games(0, 3));
  // Not flagged, code page 437 (old DOS zips): the name arrives as its stored bytes.
  const std::string cp437 = (kArchives / "cp437-name.zip").string();
  ASSERT_EQ(list_sources(cp437), std::vector<std::string>{cp437 + ":Caf\x82.pgn"});
  EXPECT_TRUE(read_everything(cp437 + ":Caf\x82.pgn") == sample_games(3, 6));
}

TEST_F(CompressedInputTest, ZipMembersOfEqualNamesAreNumbered) {
  const std::string zip = (kArchives / "same-names.zip").string();
  ASSERT_EQ(list_sources(zip),
            (std::vector<std::string>{zip + ":games.pgn", zip + ":games.pgn#2", zip + ":games.pgn#3"}));
  EXPECT_TRUE(read_everything(zip + ":games.pgn") == sample_games(0, 3));
  EXPECT_TRUE(read_everything(zip + ":games.pgn#2") == sample_games(3, 6));
  EXPECT_TRUE(read_everything(zip + ":games.pgn#3") == sample_games(6, 9));
  for (const char* missing : {"games.pgn#4", "games.pgn#1", "games.pgn#02", "games.pgn#"})
    EXPECT_EQ(input_error_of([&] { InputSource::open(zip + ":" + missing); }),
              "cannot open '" + zip + ":" + missing + "': the zip archive has no member '" + missing + "'");
}

// Member i of a club archive: a real game of the sample (the 2,000 in turn), behind an
// [Event] tag of its own so that no two members are equal.
std::string club_member(size_t i) {
  const std::vector<std::string>& games = test::sample_games();
  return "[Event \"Club game " + std::to_string(i) + "\"]\n" + games[i % games.size()];
}

TEST_F(CompressedInputTest, ZipMembersOpenedInOrderCostOnePassOverTheArchive) {
  // 1,000 one-game members, as an exported club archive holds them.
  constexpr size_t kMembers = 1000;
  std::vector<ZipMember> members;
  for (size_t i = 0; i < kMembers; ++i) members.push_back({"club/game-" + std::to_string(i) + ".pgn", club_member(i)});
  const std::string bytes = test::make_zip(members);
  const std::string zip = write("club.zip", bytes);

  SourceList sources(zip);
  ASSERT_EQ(sources.paths().size(), kMembers);
  EXPECT_EQ(sources.paths()[567], zip + ":club/game-567.pgn");
  // One pass over the archive reads each byte about once, plus the central directory at
  // the end and one read-ahead block (1 MiB) per seek: this bounds each pass. Opening
  // every member by its path instead walks the archive up to it, about kMembers / 2
  // passes in all (1,000 times more for the listing and the import together).
  const uint64_t pass = 2 * bytes.size() + (size_t{4} << 20);
  const uint64_t listed = sources.archive_bytes_read();
  EXPECT_LE(listed, 2 * pass) << "the listing walks the names, then the first bytes of each member";
  for (size_t i = 0; i < kMembers; ++i) {
    InputSource member = sources.open(i);
    ASSERT_EQ(member.name(), sources.paths()[i]);
    ASSERT_EQ(member.compression(), Compression::Zip);
    ASSERT_TRUE(read_everything(member, 4096) == members[i].bytes) << sources.paths()[i];
  }
  const uint64_t imported = sources.archive_bytes_read() - listed;
  EXPECT_LE(imported, pass);
  // Each member opened twice, as --replace does (once for its hash, once to import it):
  // two readers, a pass each.
  for (size_t i = 0; i < kMembers; ++i) {
    InputSource first = sources.open(i);
    InputSource second = sources.open(i);
    ASSERT_TRUE(read_everything(second) == members[i].bytes) << sources.paths()[i];
    ASSERT_TRUE(read_everything(first) == members[i].bytes) << sources.paths()[i];
  }
  EXPECT_LE(sources.archive_bytes_read() - listed - imported, 2 * pass);
  // Out of order a member is still the right one: a new reader walks from the start.
  InputSource late = sources.open(kMembers - 1);
  InputSource early = sources.open(7);
  EXPECT_TRUE(read_everything(early) == members[7].bytes);
  EXPECT_TRUE(read_everything(late) == members[kMembers - 1].bytes);
}

TEST_F(CompressedInputTest, DamagedZipMemberIsAnErrorNamingItAndTheNextIsRead) {
  // Stored members, so that a changed byte inflates without complaint: only the CRC-32
  // of the member tells.
  const std::string good = sample_games(0, 3), damaged = sample_games(3, 40), after = sample_games(40, 43);
  auto make = [&](const std::string& middle, size_t damage_at) {
    std::string bytes = test::make_zip({{"a.pgn", good, false, true},
                                        {"b.pgn", middle, false, true},
                                        {"c.pgn", after, false, true}});
    const size_t at = bytes.find(middle);
    EXPECT_NE(at, std::string::npos);
    bytes[at + damage_at] ^= 0x01;
    return bytes;
  };
  // A member shorter than 64 KiB is read whole when the archive is listed (its first
  // 64 KiB are checked to be PGN): the listing fails, naming it.
  const std::string small = write("damaged-small.zip", make(sample_games(3, 6), 1000));
  const std::string listing_error = input_error_of([&] { SourceList{small}; });
  EXPECT_EQ(listing_error.rfind("cannot decompress '" + small + ":b.pgn': corrupt or truncated zip data (", 0), 0u)
      << listing_error;
  // A longer one is listed, and fails when it is read to its end.
  ASSERT_GT(damaged.size(), size_t{100'000});
  const std::string zip = write("damaged.zip", make(damaged, damaged.size() - 1000));
  SourceList sources(zip);
  ASSERT_EQ(sources.paths().size(), 3u);
  InputSource a = sources.open(0);
  EXPECT_TRUE(read_everything(a) == good);
  InputSource b = sources.open(1);
  const std::string error = input_error_of([&] { read_everything(b); });
  EXPECT_EQ(error.rfind("cannot decompress '" + zip + ":b.pgn': corrupt or truncated zip data (", 0), 0u) << error;
  EXPECT_NE(error.find("CRC"), std::string::npos) << error;
  // The failed reader is not used again; the next member comes through a new one.
  InputSource c = sources.open(2);
  EXPECT_TRUE(read_everything(c) == after);
  // Alone, by its path, the member fails the same way.
  EXPECT_EQ(input_error_of([&] { read_everything(zip + ":b.pgn"); }), error);
}

TEST_F(CompressedInputTest, ZipWithoutPgnMembersIsAnError) {
  const std::string zip = write("docs.zip", test::make_zip({{"readme.txt", "hello"}}));
  EXPECT_EQ(input_error_of([&] { list_sources(zip); }),
            "cannot read '" + zip + "': the zip archive holds no .pgn file");
  const std::string empty = write("empty.zip", test::make_zip({}));
  EXPECT_EQ(input_error_of([&] { list_sources(empty); }),
            "cannot read '" + empty + "': the zip archive holds no .pgn file");
}

TEST_F(CompressedInputTest, ListSourcesOfAPlainFileIsTheFile) {
  const std::string path = write("games.pgn", "[Event \"x\"]\n\n*\n");
  EXPECT_EQ(list_sources(path), std::vector<std::string>{path});
  EXPECT_EQ(list_sources("-"), std::vector<std::string>{"-"});
  EXPECT_EQ(input_error_of([&] { list_sources((dir_ / "none.pgn").string()); }),
            "cannot open '" + (dir_ / "none.pgn").string() + "': No such file or directory");
}

TEST_F(CompressedInputTest, NonPgnInputIsRefusedAtOpen) {
  const std::string sqlite = write("games.db", "SQLite format 3\0"s + std::string(4080, '\0'));
  EXPECT_EQ(input_error_of([&] { InputSource::open(sqlite); }),
            sqlite + ": not a PGN file (looks like an SQLite database)");
  const std::string noise = write("noise.pgn", random_bytes(1 << 20, 3));
  EXPECT_EQ(input_error_of([&] { InputSource::open(noise); }), noise + ": not a PGN file (looks like binary data)");
  EXPECT_EQ(input_error_of([&] { list_sources(noise); }), noise + ": not a PGN file (looks like binary data)");
  // Inside compression the uncompressed bytes are tested.
  const std::string png = write("image.pgn.gz", test::compress_stream("\x89PNG\r\n\x1A\n" + random_bytes(5000, 4),
                                                                      StreamFormat::Gzip));
  EXPECT_EQ(input_error_of([&] { InputSource::open(png); }), png + ": not a PGN file (looks like a PNG image)");
  const std::string zip = write("mixed.zip", test::make_zip({{"good.pgn", sample_text().substr(0, 10'000)},
                                                             {"bad.pgn", random_bytes(10'000, 5)}}));
  EXPECT_EQ(input_error_of([&] { list_sources(zip); }), zip + ":bad.pgn: not a PGN file (looks like binary data)");
  // Compressed twice is named, not read.
  const std::string twice = write("twice.pgn.gz", test::compress_stream(test::compress_stream(sample_text().substr(0, 5000), StreamFormat::Gzip), StreamFormat::Gzip));
  EXPECT_EQ(input_error_of([&] { InputSource::open(twice); }), twice + ": not a PGN file (looks like gzip-compressed data)");
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
  auto previous = std::signal(SIGPIPE, SIG_IGN);
  ::dup2(saved, STDIN_FILENO);
  ::close(saved);
  writer.join();
  std::signal(SIGPIPE, previous);
}

TEST_F(CompressedInputTest, CompressedStdinIsStreamed) {
  const std::string text = sample_text().substr(0, 2'000'000);
  const std::string compressed = test::compress_stream(text, StreamFormat::Xz);
  with_stdin_pipe(compressed, [&] {
    InputSource source = InputSource::open("-");
    EXPECT_EQ(source.compression(), Compression::Xz);
    EXPECT_FALSE(source.size_on_disk().has_value());
    EXPECT_TRUE(read_everything(source, 65536) == text);
    EXPECT_EQ(source.bytes_consumed(), compressed.size());
  });
}

TEST_F(CompressedInputTest, ZipOnStdinIsRefused) {
  with_stdin_pipe(test::make_zip({{"a.pgn", "[Event \"x\"]\n\n*\n"}}), [] {
    EXPECT_EQ(input_error_of([] { InputSource::open("-"); }),
              "cannot read '<stdin>': a zip archive is read from a file, not from a pipe");
  });
}

TEST_F(CompressedInputTest, BinaryStdinIsRefused) {
  with_stdin_pipe(random_bytes(100'000, 6), [] {
    EXPECT_EQ(input_error_of([] { InputSource::open("-"); }), "<stdin>: not a PGN file (looks like binary data)");
  });
}

}  // namespace
}  // namespace pgnbase::indexer
