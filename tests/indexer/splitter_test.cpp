#include "indexer/splitter.h"
#include "core/pgn_reader.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/bundled_sample.h"
#include "tests/support/files.h"
#include "tests/support/shared_data.h"
#include "tests/support/temp_dir.h"

namespace pgnbase::indexer {
namespace {

namespace fs = std::filesystem;

const fs::path kVariantsZst = test::shared_data("nasty/lichess-variants/lichess-nonstandard-variants-and-setups.pgn.zst");
constexpr uint64_t kVariantsUncompressedBytes = 2'599'387;  // MANIFEST.tsv
constexpr size_t kVariantsEventTags = 1068;                 // MANIFEST.tsv

using test::read_file;
using test::write_file;

std::string compress(std::string_view text) {
  std::string out(ZSTD_compressBound(text.size()), '\0');
  size_t size = ZSTD_compress(out.data(), out.size(), text.data(), text.size(), 1);
  EXPECT_FALSE(ZSTD_isError(size));
  out.resize(size);
  return out;
}

size_t count_event_lines(std::string_view text) {
  size_t count = text.starts_with("[Event ") ? 1 : 0;
  for (size_t at = text.find("\n[Event "); at != std::string_view::npos; at = text.find("\n[Event ", at + 1))
    ++count;
  return count;
}

std::vector<Chunk> split_all(InputSource& source, size_t chunk_bytes) {
  Splitter splitter(source, chunk_bytes);
  std::vector<Chunk> chunks;
  while (std::optional<Chunk> chunk = splitter.next()) chunks.push_back(std::move(*chunk));
  EXPECT_FALSE(splitter.next().has_value());  // stays at end
  return chunks;
}

std::vector<Chunk> split_file(const fs::path& path, size_t chunk_bytes) {
  InputSource source = InputSource::open(path.string());
  return split_all(source, chunk_bytes);
}

std::vector<uint64_t> offsets_of(const std::vector<Chunk>& chunks) {
  std::vector<uint64_t> offsets;
  for (const Chunk& chunk : chunks) offsets.push_back(chunk.offset);
  return offsets;
}

bool is_tag_line(std::string_view line) {
  return line.size() >= 2 && line[0] == '[' && std::isalpha(static_cast<unsigned char>(line[1]));
}

// Independent oracle for where games start: a forward scan that knows {comments},
// ";" rest-of-line comments and "%" escape lines, so a tag-like line inside a
// comment is never taken for a game start. A game starts at a tag line whose last
// non-blank line before it is not a tag line, and at an [Event line when the tag
// lines since the game's start hold one (games of tags alone).
std::set<uint64_t> game_starts(std::string_view text) {
  std::set<uint64_t> starts;
  bool in_comment = false;
  bool previous_was_tag = false;
  bool section_has_event = false;
  size_t line_start = 0;
  while (line_start < text.size()) {
    size_t end = text.find('\n', line_start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(line_start, end - line_start);
    if (line_start == 0 && line.starts_with("\xEF\xBB\xBF")) line.remove_prefix(3);
    bool blank = line.find_first_not_of(" \t\r") == std::string_view::npos;
    if (!in_comment && is_tag_line(line)) {
      const bool event = line.starts_with("[Event ");
      if (!previous_was_tag || (event && section_has_event)) {
        starts.insert(line_start);
        section_has_event = false;
      }
      section_has_event = section_has_event || event;
      previous_was_tag = true;
    } else if (!in_comment && line.starts_with('%')) {
      previous_was_tag = false;
    } else {
      for (char c : line) {
        if (in_comment) {
          in_comment = c != '}';
        } else if (c == '{') {
          in_comment = true;
        } else if (c == ';') {
          break;
        }
      }
      if (!blank) previous_was_tag = false;
    }
    line_start = end + 1;
  }
  return starts;
}

// Checks what every split must satisfy: chunks tile the input exactly, in order,
// and each one after the first starts where a game starts.
void expect_valid_split(std::string_view whole, const std::vector<Chunk>& chunks, const std::string& label) {
  std::set<uint64_t> starts = game_starts(whole);
  std::string joined;
  uint64_t expected_offset = 0;
  for (size_t i = 0; i < chunks.size(); ++i) {
    const Chunk& chunk = chunks[i];
    ASSERT_EQ(chunk.index, i) << label;
    ASSERT_EQ(chunk.offset, expected_offset) << label;
    ASSERT_FALSE(chunk.text.empty()) << label;
    ASSERT_NE(chunk.owner, nullptr) << label;
    if (i > 0) {
      ASSERT_EQ(chunk.text.front(), '[') << label << " chunk " << i;
      ASSERT_TRUE(is_strong_game_boundary(whole, chunk.offset) || is_weak_game_boundary(whole, chunk.offset))
          << label << " chunk " << i;
      ASSERT_TRUE(starts.contains(chunk.offset))
          << label << " chunk " << i << " starts inside a game: " << chunk.text.substr(0, 80);
    }
    joined.append(chunk.text);
    expected_offset += chunk.text.size();
  }
  ASSERT_EQ(joined.size(), whole.size()) << label;
  ASSERT_TRUE(joined == whole) << label;
}

class SplitterTest : public test::TempDirTest {
 protected:

  // The decompressed lichess variants file, as a plain file to be mapped.
  fs::path decompressed_variants() {
    fs::path path = dir_ / "variants.pgn";
    InputSource source = InputSource::open(kVariantsZst.string());
    std::string text(kVariantsUncompressedBytes + 1, '\0');
    text.resize(source.read(text.data(), text.size()));
    write_file(path, text);
    return path;
  }

};

// Line breaks as PgnReader counts them: each '\n', and each '\r' not followed by '\n'.
size_t count_line_breaks(std::string_view text) {
  size_t count = 0;
  for (size_t i = 0; i < text.size(); ++i)
    count += text[i] == '\n' || (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n'));
  return count;
}

TEST(CountLinesTest, MatchesAByteLoopAtEveryLengthAndAlignment) {
  std::mt19937 random(12345);
  std::string bytes(300, '\0');
  for (char& c : bytes) c = "ab\n\r[\xff\x0a\x8d"[random() % 8];
  for (size_t start = 0; start < 9; ++start)
    for (size_t length = 0; start + length <= bytes.size(); ++length) {
      std::string_view part = std::string_view(bytes).substr(start, length);
      ASSERT_EQ(count_lines(part), count_line_breaks(part)) << start << " " << length;
    }
  EXPECT_EQ(count_lines(std::string(1000, '\n')), 1000u);
  EXPECT_EQ(count_lines(std::string(1000, '\r')), 1000u);
  std::string crlf;
  for (int i = 0; i < 1000; ++i) crlf += "ab\r\n";
  EXPECT_EQ(count_lines(crlf), 1000u);
  EXPECT_EQ(count_lines(std::string(1000, '\x8a')), 0u);  // 0x8a differs from '\n' only in the top bit
  EXPECT_EQ(count_lines(std::string(1000, '\x8d')), 0u);  // and 0x8d from '\r'
}

TEST(CountLinesTest, CountsARealFile) {
  PGNBASE_REQUIRE_SHARED("nasty/tcec/TCEC_Match_1.pgn");
  std::string text = read_file(test::shared_data("nasty/tcec/TCEC_Match_1.pgn"));
  EXPECT_EQ(count_lines(text), std::count(text.begin(), text.end(), '\n'));
  EXPECT_GT(count_lines(text), 2000u);
}

TEST(GameBoundaryTest, StrongRuleNeedsABlankLineAfterNonTags) {
  std::string_view text = "1. e4 e5 1-0\n\n[Event \"x\"]\n";
  EXPECT_TRUE(is_strong_game_boundary(text, 14));
  std::string_view crlf = "1. e4 e5 1-0\r\n \t\r\n[Site \"x\"]\r\n";
  EXPECT_TRUE(is_strong_game_boundary(crlf, 18));
  std::string_view no_blank = "1. e4 e5 1-0\n[Event \"x\"]\n";
  EXPECT_FALSE(is_strong_game_boundary(no_blank, 13));
  EXPECT_TRUE(is_weak_game_boundary(no_blank, 13));
}

TEST(GameBoundaryTest, ClockCommentIsNotATag) {
  std::string_view text = "1. e4 {\n\n[%clk 0:01:00] } e5\n";
  EXPECT_FALSE(is_strong_game_boundary(text, 9));
  EXPECT_FALSE(is_weak_game_boundary(text, 9));
}

TEST(GameBoundaryTest, BlankLineInsideTagSectionIsNotABoundary) {
  std::string_view text = "[Event \"x\"]\n\n[Date \"2017.12.04\"]\n";
  EXPECT_FALSE(is_strong_game_boundary(text, 13));
  std::string_view two_blank = "[Event \"x\"]\n\r\n\n[Date \"2017.12.04\"]\n";
  EXPECT_FALSE(is_strong_game_boundary(two_blank, 15));
}

TEST(GameBoundaryTest, WeakRuleNeedsEventAfterANonTagLine) {
  std::string_view after_tag = "[Termination \"x\"]\n[Event \"y\"]\n";
  EXPECT_FALSE(is_weak_game_boundary(after_tag, 18));
  std::string_view after_comment = "1-0\n; GameDuration = 05:29:06 }\n[Event \"y\"]\n";
  EXPECT_TRUE(is_weak_game_boundary(after_comment, 32));
  EXPECT_FALSE(is_weak_game_boundary(after_comment, 4));
}

TEST(GameBoundaryTest, EventAfterATagSectionHoldingAnEventIsStrong) {
  // Games of tags alone, hand-made: with a blank line between them, without, with CRLF.
  std::string_view blank = "[Event \"a\"]\n[Result \"1-0\"]\n\n[Event \"b\"]\n";
  EXPECT_TRUE(is_strong_game_boundary(blank, blank.rfind("[Event ")));
  std::string_view no_blank = "[Event \"a\"]\n[Result \"1-0\"]\n[Event \"b\"]\n";
  EXPECT_TRUE(is_strong_game_boundary(no_blank, no_blank.rfind("[Event ")));
  EXPECT_FALSE(is_weak_game_boundary(no_blank, no_blank.rfind("[Event ")));
  std::string_view crlf = "[Event \"a\"]\r\n\r\n[Date \"?\"] [Round \"1\"]\r\n[Event \"b\"]\r\n";
  EXPECT_TRUE(is_strong_game_boundary(crlf, crlf.rfind("[Event ")));
  std::string_view bom = "\xEF\xBB\xBF[Event \"a\"]\n[Event \"b\"]\n";
  EXPECT_TRUE(is_strong_game_boundary(bom, bom.rfind("[Event ")));
  // Only an Event line, and only after one in the same section.
  EXPECT_FALSE(is_strong_game_boundary(no_blank, no_blank.find("[Result ")));
  std::string_view no_event = "[Site \"a\"]\n[Result \"1-0\"]\n[Event \"b\"]\n";
  EXPECT_FALSE(is_strong_game_boundary(no_event, no_event.rfind("[Event ")));
}

TEST(GameBoundaryTest, EventAfterALineTheReaderLeavesTheTagsOnIsNoBoundary) {
  // After a tag and a move on one line, the reader is in movetext: the [Site line
  // begins the next game, whose section holds no Event tag.
  std::string_view moves_after_tag = "[Event \"a\"] e4\n[Site \"x\"]\n[Event \"b\"]\n";
  EXPECT_FALSE(is_strong_game_boundary(moves_after_tag, moves_after_tag.rfind("[Event ")));
  std::string_view moves_between = "[Event \"a\"]\n[Site \"x\"] e4 (\n[Round \"1\"]\n[Event \"b\"]\n";
  EXPECT_FALSE(is_strong_game_boundary(moves_between, moves_between.rfind("[Event ")));
  // A malformed tag ends only its line's reading: still inside the section.
  std::string_view malformed = "[Event \"a\"]\n[Site x] [Round\n[Event \"b\"]\n";
  EXPECT_TRUE(is_strong_game_boundary(malformed, malformed.rfind("[Event ")));
}

TEST_F(SplitterTest, MappedVariantsTileTheFileAndKeepGamesWhole) {
  PGNBASE_REQUIRE_SHARED(kVariantsZst);
  fs::path path = decompressed_variants();
  std::string whole = read_file(path);
  ASSERT_EQ(whole.size(), kVariantsUncompressedBytes);
  for (size_t chunk_bytes : {size_t{1}, size_t{1024}, size_t{4096}, size_t{65536}, Splitter::kDefaultChunkBytes}) {
    InputSource source = InputSource::open(path.string());
    ASSERT_TRUE(source.is_mapped());
    std::vector<Chunk> chunks = split_all(source, chunk_bytes);
    std::string label = "mapped, chunk " + std::to_string(chunk_bytes);
    expect_valid_split(whole, chunks, label);
    size_t events = 0;
    for (const Chunk& chunk : chunks) {
      EXPECT_EQ(chunk.text.data(), source.mapped_text().data() + chunk.offset) << "zero-copy view";
      events += count_event_lines(chunk.text);
    }
    EXPECT_EQ(events, kVariantsEventTags) << label;
    EXPECT_EQ(source.bytes_consumed(), kVariantsUncompressedBytes) << label;
    if (chunk_bytes == 1) {
      EXPECT_EQ(chunks.size(), kVariantsEventTags) << "one game per chunk";
      for (const Chunk& chunk : chunks) EXPECT_EQ(count_event_lines(chunk.text), 1u);
    }
    if (chunk_bytes == Splitter::kDefaultChunkBytes) {
      EXPECT_EQ(chunks.size(), 1u);
    }
  }
}

TEST_F(SplitterTest, StreamedZstdGivesTheSameChunksAsTheMappedFile) {
  PGNBASE_REQUIRE_SHARED(kVariantsZst);
  fs::path plain = decompressed_variants();
  std::string whole = read_file(plain);
  for (size_t chunk_bytes : {size_t{1}, size_t{1024}, size_t{4096}, size_t{65536}, Splitter::kDefaultChunkBytes}) {
    std::vector<Chunk> mapped = split_file(plain, chunk_bytes);
    InputSource zstd = InputSource::open(kVariantsZst.string());
    ASSERT_FALSE(zstd.is_mapped());
    std::vector<Chunk> streamed = split_all(zstd, chunk_bytes);
    std::string label = "streamed, chunk " + std::to_string(chunk_bytes);
    expect_valid_split(whole, streamed, label);
    EXPECT_EQ(offsets_of(streamed), offsets_of(mapped)) << label;
    size_t events = 0;
    for (const Chunk& chunk : streamed) events += count_event_lines(chunk.text);
    EXPECT_EQ(events, kVariantsEventTags) << label;
  }
}

TEST_F(SplitterTest, AMappedFileHashedAsItIsCutHasTheHashOfItsBytes) {
  const std::string text = test::sample_head(300'000);
  const fs::path path = dir_ / "sample.pgn";
  write_file(path, text);
  ContentHasher whole;
  whole.update(text);
  for (size_t chunk_bytes : {size_t{1}, size_t{4096}, size_t{65536}, Splitter::kDefaultChunkBytes}) {
    InputSource source = InputSource::open(path.string());
    ASSERT_TRUE(source.is_mapped());
    Splitter splitter(source, chunk_bytes, Splitter::kDefaultMaxGameBytes, /*hash_mapped=*/true);
    while (splitter.next()) {
    }
    EXPECT_EQ(splitter.content_hash(), whole.finish()) << chunk_bytes;
  }
  InputSource source = InputSource::open(path.string());
  Splitter not_hashing(source, 4096);
  while (not_hashing.next()) {
  }
  EXPECT_EQ(not_hashing.content_hash(), ContentHasher().finish());
}

TEST_F(SplitterTest, StreamedChunksOutliveSplitterAndSource) {
  PGNBASE_REQUIRE_SHARED(kVariantsZst);
  std::vector<Chunk> chunks;
  {
    InputSource source = InputSource::open(kVariantsZst.string());
    chunks = split_all(source, 100'000);
  }
  ASSERT_GT(chunks.size(), 20u);
  std::string joined;
  for (const Chunk& chunk : chunks) joined.append(chunk.text);
  EXPECT_EQ(joined.size(), kVariantsUncompressedBytes);
  EXPECT_EQ(count_event_lines(joined), kVariantsEventTags);
}

TEST_F(SplitterTest, EveryChunkSizeCutsOnlyAtGameStarts) {
  PGNBASE_REQUIRE_SHARED("nasty/pgn-extract-tests/fischer.pgn");
  fs::path path = test::shared_data("nasty/pgn-extract-tests/fischer.pgn");
  std::string whole = read_file(path);
  std::string compressed_path = (dir_ / "fischer.pgn.zst").string();
  write_file(compressed_path, compress(whole));
  for (size_t chunk_bytes = 1; chunk_bytes < whole.size() + 10; chunk_bytes += chunk_bytes < 2000 ? 1 : 97) {
    std::vector<Chunk> mapped = split_file(path, chunk_bytes);
    std::string label = "fischer.pgn, chunk " + std::to_string(chunk_bytes);
    for (size_t i = 1; i < mapped.size(); ++i)
      ASSERT_TRUE(std::string_view(whole).substr(mapped[i].offset).starts_with("[Event ")) << label;
    ASSERT_NO_FATAL_FAILURE(expect_valid_split(whole, mapped, label));
    if (chunk_bytes % 50 == 1) {
      std::vector<Chunk> streamed = split_file(compressed_path, chunk_bytes);
      ASSERT_EQ(offsets_of(streamed), offsets_of(mapped)) << label;
    }
  }
  EXPECT_EQ(split_file(path, 1).size(), 34u);
}

TEST_F(SplitterTest, EverySmallDataFileSplitsCleanly) {
  PGNBASE_REQUIRE_SHARED();
  size_t files = 0;
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator(test::shared_data())) {
    if (!entry.is_regular_file() || entry.path().extension() != ".pgn") continue;
    if (entry.file_size() > 2'000'000) continue;
    ++files;
    std::string whole = read_file(entry.path());
    for (size_t chunk_bytes : {size_t{1}, size_t{100}, size_t{1024}, size_t{16384}}) {
      std::string label = entry.path().filename().string() + ", chunk " + std::to_string(chunk_bytes);
      ASSERT_NO_FATAL_FAILURE(expect_valid_split(whole, split_file(entry.path(), chunk_bytes), label));
    }
  }
  EXPECT_GE(files, 50u);
}

TEST_F(SplitterTest, ChessBaseBlankLineInsideTagsDoesNotCut) {
  PGNBASE_REQUIRE_SHARED("nasty/python-chess/chessbase-empty-line.pgn");
  EXPECT_EQ(split_file(test::shared_data("nasty/python-chess/chessbase-empty-line.pgn"), 1).size(), 1u);
}

TEST_F(SplitterTest, SemicolonCommentBeforeNextGameUsesEventRule) {
  PGNBASE_REQUIRE_SHARED("nasty/tcec");
  for (auto [name, games] : {std::pair{"tcec-semicolon-comment-after-result.pgn", 6u},
                            std::pair{"tcec-semicolon-comments.pgn", 10u}, std::pair{"TCEC_Match_1.pgn", 48u}}) {
    std::vector<Chunk> chunks = split_file(test::shared_data("nasty/tcec") / name, 1);
    EXPECT_EQ(chunks.size(), games) << name;
    for (const Chunk& chunk : chunks) EXPECT_EQ(count_event_lines(chunk.text), 1u) << name;
  }
}

TEST_F(SplitterTest, ByteOrderMarkStaysInChunkZero) {
  PGNBASE_REQUIRE_SHARED("nasty/python-chess/utf8-bom.pgn");
  std::vector<Chunk> chunks = split_file(test::shared_data("nasty/python-chess/utf8-bom.pgn"), 1);
  ASSERT_EQ(chunks.size(), 2u);
  EXPECT_TRUE(chunks[0].text.starts_with("\xEF\xBB\xBF[Event \"A\"]"));
  EXPECT_TRUE(chunks[1].text.starts_with("[Event \"B\"]"));
}

TEST_F(SplitterTest, GameLargerThanChunkGrowsTheChunk) {
  std::string huge_game = "[Event \"long\"]\n[Result \"*\"]\n\n";
  for (int move = 1; move <= 20000; ++move) huge_game += std::to_string(move) + ". Nf3 {\n\n[%clk 0:01:00] } Nf6 ";
  huge_game += "*\n\n";
  std::string small_game = "[Event \"short\"]\n[Result \"*\"]\n\n*\n\n";
  std::string text = small_game + huge_game + small_game + small_game;
  fs::path plain = dir_ / "huge.pgn";
  fs::path compressed = dir_ / "huge.pgn.zst";
  write_file(plain, text);
  write_file(compressed, compress(text));
  for (const fs::path& path : {plain, compressed}) {
    std::vector<Chunk> chunks = split_file(path, 1024);
    ASSERT_EQ(chunks.size(), 3u) << path;
    EXPECT_EQ(chunks[0].text, small_game);
    EXPECT_EQ(chunks[1].text, huge_game);
    EXPECT_EQ(chunks[2].text, small_game + small_game);
    expect_valid_split(text, chunks, path.string());
  }
}

TEST_F(SplitterTest, InputWithoutBoundariesIsOneChunk) {
  std::string text;
  for (int i = 0; i < 5000; ++i) text += "1. e4 e5 2. Nf3 Nc6 *\n\n";
  fs::path path = dir_ / "movetext-only.pgn";
  write_file(path, text);
  write_file(dir_ / "movetext-only.pgn.zst", compress(text));
  for (const fs::path& each : {path, dir_ / "movetext-only.pgn.zst"}) {
    std::vector<Chunk> chunks = split_file(each, 100);
    ASSERT_EQ(chunks.size(), 1u);
    EXPECT_EQ(chunks[0].text, text);
  }
}

std::string with_line_ends(std::string text, std::string_view line_end) {
  std::string out;
  for (char c : text) {
    if (c == '\n') out.append(line_end);
    else out.push_back(c);
  }
  return out;
}

TEST_F(SplitterTest, CarriageReturnOnlyFileSplitsLikeItsLfCopy) {
  const std::string lf = test::sample_head(1'000'000);
  const std::string cr = with_line_ends(lf, "\r");
  ASSERT_EQ(cr.size(), lf.size());
  write_file(dir_ / "lf.pgn", lf);
  write_file(dir_ / "cr.pgn", cr);
  write_file(dir_ / "cr.pgn.zst", compress(cr));
  for (size_t chunk_bytes : {size_t{1}, size_t{4096}, size_t{65536}, size_t{300'000}}) {
    const std::string label = "chunk " + std::to_string(chunk_bytes);
    const std::vector<Chunk> expected = split_file(dir_ / "lf.pgn", chunk_bytes);
    const std::vector<Chunk> mapped = split_file(dir_ / "cr.pgn", chunk_bytes);
    const std::vector<Chunk> streamed = split_file(dir_ / "cr.pgn.zst", chunk_bytes);
    EXPECT_GT(mapped.size(), 3u) << label;  // it was one chunk, whatever its size
    EXPECT_EQ(offsets_of(mapped), offsets_of(expected)) << label;
    EXPECT_EQ(offsets_of(streamed), offsets_of(expected)) << label;
    for (size_t i = 0; i < mapped.size() && i < expected.size(); ++i)
      ASSERT_EQ(count_lines(mapped[i].text), count_lines(expected[i].text)) << label << " chunk " << i;
  }
  EXPECT_EQ(split_file(dir_ / "cr.pgn", 1).size(), count_event_lines(lf)) << "one game per chunk";
}

TEST_F(SplitterTest, CrlfFileSplitsIntoTheGamesOfItsLfCopy) {
  const std::string lf = test::sample_head(300'000);
  write_file(dir_ / "lf.pgn", lf);
  write_file(dir_ / "crlf.pgn", with_line_ends(lf, "\r\n"));
  const std::vector<Chunk> expected = split_file(dir_ / "lf.pgn", 1);
  const std::vector<Chunk> crlf = split_file(dir_ / "crlf.pgn", 1);
  ASSERT_EQ(crlf.size(), expected.size());
  ASSERT_EQ(crlf.size(), count_event_lines(lf));
  for (size_t i = 0; i < crlf.size(); ++i) {
    std::string text(crlf[i].text);
    std::erase(text, '\r');
    ASSERT_EQ(text, expected[i].text) << "chunk " << i;
    ASSERT_EQ(count_lines(crlf[i].text), count_lines(expected[i].text)) << "chunk " << i;
  }
}

TEST_F(SplitterTest, EmptyInputHasNoChunksAndBlankInputHasOne) {
  write_file(dir_ / "empty.pgn", "");
  EXPECT_TRUE(split_file(dir_ / "empty.pgn", 10).empty());
  write_file(dir_ / "empty.zst", compress(""));
  EXPECT_TRUE(split_file(dir_ / "empty.zst", 10).empty());
  write_file(dir_ / "blank.pgn", "\n\n  \n");
  std::vector<Chunk> chunks = split_file(dir_ / "blank.pgn", 1);
  ASSERT_EQ(chunks.size(), 1u);
  EXPECT_EQ(chunks[0].text, "\n\n  \n");
}

TEST_F(SplitterTest, PlainPipeIsStreamedLikeTheMappedFile) {
  PGNBASE_REQUIRE_SHARED("nasty/tcec/TCEC_Match_4.pgn");
  fs::path path = test::shared_data("nasty/tcec/TCEC_Match_4.pgn");
  std::string whole = read_file(path);
  fs::path fifo = dir_ / "games.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::thread writer([&] {
    std::ofstream out(fifo, std::ios::binary);
    out.write(whole.data(), static_cast<std::streamsize>(whole.size()));
  });
  InputSource source = InputSource::open(fifo.string());
  EXPECT_FALSE(source.is_mapped());
  EXPECT_FALSE(source.size_on_disk().has_value());
  std::vector<Chunk> streamed = split_all(source, 5000);
  writer.join();
  expect_valid_split(whole, streamed, "fifo");
  EXPECT_EQ(offsets_of(streamed), offsets_of(split_file(path, 5000)));
}

// Each game the reader finds, as its absolute offset and its text.
using GameTexts = std::vector<std::pair<uint64_t, std::string>>;

struct GameTextLog : PgnVisitorBase {
  GameTexts games;
  void end_game(const GameText& game, const PgnError*) { games.emplace_back(game.offset, std::string(game.text)); }
};

GameTexts games_in(std::string_view text) {
  GameTextLog log;
  PgnReader(text).read_all(log);
  return log.games;
}

GameTexts games_in(const std::vector<Chunk>& chunks) {
  GameTextLog log;
  for (const Chunk& chunk : chunks) PgnReader(chunk.text, chunk.offset).read_all(log);
  return log.games;
}

// A broadcast's pairings, hand-made: games of tags alone, with a blank line between
// them or not, with a result token or none, some with ChessBase's blank line after
// [Event], and every tenth game with moves.
std::string tag_only_games(size_t games) {
  std::string text;
  for (size_t i = 0; i < games; ++i) {
    const std::string n = std::to_string(i);
    text += "[Event \"Club ch\"]\n";
    if (i % 7 == 3) text += "\n";
    text += "[Round \"" + n + "\"]\n[White \"White " + n + "\"]\n[Black \"Black " + n + "\"]\n[Result \"1-0\"]\n";
    if (i % 10 == 9) text += "\n1. e4 e5 1-0\n";
    else if (i % 3 == 1) text += "\n1-0\n";
    if (i % 2 == 0) text += "\n";
  }
  return text;
}

TEST_F(SplitterTest, TagOnlyGamesAreCutIntoChunksWhereTheReaderStartsThem) {
  const std::string text = tag_only_games(2000);
  const GameTexts whole = games_in(text);
  ASSERT_EQ(whole.size(), 2000u);
  write_file(dir_ / "pairings.pgn", text);
  write_file(dir_ / "pairings.pgn.zst", compress(text));
  for (size_t chunk_bytes : {size_t{1}, size_t{100}, size_t{4096}, size_t{65536}}) {
    const std::string label = "chunk " + std::to_string(chunk_bytes);
    const std::vector<Chunk> mapped = split_file(dir_ / "pairings.pgn", chunk_bytes);
    if (chunk_bytes == 1) {
      EXPECT_EQ(mapped.size(), 2000u) << "one game per chunk";
    } else {
      EXPECT_GE(mapped.size(), text.size() / chunk_bytes / 2) << label;  // it was one chunk, whatever its size
    }
    ASSERT_NO_FATAL_FAILURE(expect_valid_split(text, mapped, label));
    EXPECT_EQ(offsets_of(split_file(dir_ / "pairings.pgn.zst", chunk_bytes)), offsets_of(mapped)) << label;
    EXPECT_EQ(games_in(mapped), whole) << label;
  }
}

// Hand-made soups of tag lines (good, malformed, indented, with moves or junk after
// them), blank, '%' and BOM lines and movetext: read chunk by chunk, they give the
// reader's games, each at the same offset with the same text. Without comments: a tag
// line inside a {comment} fools the splitter (its header says so), and a comment
// before a game's tags goes with that game only when no cut falls between them.
TEST_F(SplitterTest, ChunksOfTagSoupsReadAsTheWholeText) {
  const std::vector<std::string> pieces = {
      "[Event \"e\"]\n", "[Event \"e\"]\n", "[Event \"e\"] ", "[Site \"s\"]\n", "[Result \"1-0\"]\n",
      "[White \"w\"]\r\n", "[Event x]\n", "[Site \"s\" [Round\n", "[Round \"\"r\"\"]\n", "\n", "\r\n", "\n\n", " ",
      "e4 ", "1-0\n", "*\n", "(", ")", "junk ", "%esc\n", "\f", "\x1a", "\xEF\xBB\xBF", "  [Site \"i\"]\n", "\r[Event \"c\"]\r"};
  std::mt19937 random(2024);
  for (int round = 0; round < 500; ++round) {
    std::string text;
    const size_t count = 1 + random() % 60;
    for (size_t i = 0; i < count; ++i) text += pieces[random() % pieces.size()];
    const GameTexts whole = games_in(text);
    fs::path path = dir_ / "soup.pgn";
    write_file(path, text);
    for (size_t chunk_bytes : {size_t{1}, size_t{7}, size_t{40}}) {
      const std::vector<Chunk> chunks = split_file(path, chunk_bytes);
      ASSERT_EQ(games_in(chunks), whole) << "round " << round << ", chunk " << chunk_bytes << ":\n" << text;
    }
  }
}

}  // namespace
}  // namespace pgnbase::indexer
