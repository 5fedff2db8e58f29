// Cuts one input into chunks of about N bytes that end on a PGN game boundary,
// so workers can parse chunks independently and in parallel.
//
// A line ends at '\n', CRLF, or a '\r' alone (old Mac files), as PgnReader reads lines;
// so a file with CR-only line ends is cut into chunks like its LF copy, at the same
// offsets. The boundary rule, applied by scanning backward from the chunk's target end
// (as simdjson's find_next_document_index does for JSON documents):
//   1. strong: a line starting with '[' and an ASCII letter (a tag line, so not
//      "[%clk"), whose previous line is blank (whitespace only, as PgnReader reads
//      it), and whose last line before that other than blank and '%' lines does not
//      start with '[' after blanks (ChessBase writes a blank line between [Event]
//      and [Date] inside one tag section; the reader skips '%' lines);
//      also strong: a line starting with "[Event " whose previous lines, up to the
//      nearest line starting with "[Event ", hold only tag pairs and blanks as
//      PgnReader reads them (pgn_detail::line_keeps_tag_section): the reader then
//      reads both in tag sections, and an Event tag in a section that holds one
//      begins the next game (games of tags alone: pairings, forfeits, byes). The
//      scan back stops at the previous "[Event " line, so a file of such games is
//      cut in linear time. A section whose key is another tag (it has no Event tag)
//      is never cut this way: the chunk is just larger;
//   2. weak, used only when the window holds no strong boundary: a line starting
//      with "[Event " whose previous line neither starts with '[' after blanks nor
//      is a '%' line (TCEC files put a ";" comment line, not a blank line, between
//      games; after a blank line, an Event tag begins a game in any case).
// If the window (0, target] holds neither, the chunk grows forward to the first
// boundary of either kind after the target, or to the end of the input.
// A chunk therefore holds whole games except where the rule is fooled:
//   - a multi-line {comment} holding a blank line followed by a line that looks
//     like a tag ("[Site ..."), or two lines starting with "[Event ", is cut there;
//     the reader then reports two broken games instead of one;
//   - games not separated by a blank line whose first tag is not [Event are
//     never cut apart (harmless: the chunk is just larger);
//   - a comment standing alone before a game's tags, which the reader gives to that
//     game, stays in the chunk before when the cut falls between them, where it is
//     no game's (the game itself is read whole).
// The cut depends only on the bytes and the chunk size, never on how the input
// arrived, so a mapped file and the same bytes streamed give identical chunks.
// A UTF-8 BOM at the start of the input stays in chunk 0, for the reader to skip.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

#include "indexer/content_hash.h"
#include "indexer/input_source.h"

namespace pgnbase::indexer {

struct Chunk {
  uint64_t index = 0;   // 0, 1, 2 ... in input order
  uint64_t offset = 0;  // of text[0] in the uncompressed input
  std::string_view text;
  // Keeps text's bytes alive: the file mapping, or the chunk's own buffer.
  // Copy the Chunk (or this pointer) to keep the view valid on another thread.
  std::shared_ptr<const void> owner;
  uint64_t size = 0;  // input bytes the chunk stands for: text.size() unless oversized
  // A game (or a stretch between games) longer than the splitter's max_game_bytes: text
  // holds its first kOversizedKeptBytes only, and lines counts the line breaks of all
  // `size` bytes. It is to become one reject, never parsed.
  bool oversized = false;
  uint64_t lines = 0;
};

// What an oversized chunk keeps of its text.
inline constexpr size_t kOversizedKeptBytes = size_t{64} << 10;

// Counts line breaks as PgnReader does: each '\n', and each '\r' not followed by '\n'
// (so a reader can number lines per chunk and add them up later).
uint64_t count_lines(std::string_view text);

// True when the line starting at text[position] begins a game under rule 1 or 2
// above. position must be 0 < position < text.size() with a line ending at
// text[position-1]; text[0] must be the start of a line, and nothing before it is
// looked at.
bool is_strong_game_boundary(std::string_view text, size_t position);
bool is_weak_game_boundary(std::string_view text, size_t position);

// Single-threaded producer: call next() from one thread. The source must outlive
// the Splitter; chunks may outlive both (they own or share their bytes).
class Splitter {
 public:
  static constexpr size_t kDefaultChunkBytes = size_t{4} << 20;

  static constexpr size_t kDefaultMaxGameBytes = size_t{64} << 20;

  // chunk_bytes is the target size (clamped to [1, 1 TiB]); chunks are larger
  // only when a game is, and the last chunk is whatever remains. A game longer than
  // max_game_bytes (at least chunk_bytes) comes as an oversized chunk, so that a stream
  // without game boundaries (a 1 GiB comment, 512 MiB of newlines) is never held whole:
  // a stream's buffer stays under chunk_bytes + max_game_bytes.
  // A mapped input is hashed as it is cut when hash_mapped is set (a stream always is).
  explicit Splitter(InputSource& source, size_t chunk_bytes = kDefaultChunkBytes,
                    size_t max_game_bytes = kDefaultMaxGameBytes, bool hash_mapped = false);

  // The next chunk in input order, or nullopt at end of input. Throws InputError
  // when the source fails (read error, corrupt zstd).
  std::optional<Chunk> next();

  // Uncompressed bytes handed out in chunks so far.
  uint64_t bytes_split() const { return offset_; }
  // The content hash (content_hash.h) of the input's bytes split so far, the dropped
  // bytes of oversized chunks included; empty input's for a mapped one not hashed.
  std::string content_hash() const { return hasher_.finish(); }

 private:
  std::optional<Chunk> next_mapped();
  std::optional<Chunk> next_streamed();
  // Reads from the source until buffer_ holds at least size bytes or input ends.
  void fill_buffer(size_t size);
  // The oversized chunk of the game at the buffer's start, which has no boundary in
  // (0, searched]; reads on to its end.
  std::optional<Chunk> next_oversized(size_t searched);
  // The oversized chunk of the game at the start of rest (a mapped input's unread part).
  std::optional<Chunk> oversized_mapped(std::string_view rest);
  // Hashes, counts the lines of and drops the buffer's first bytes.
  void consume_front(size_t bytes, uint64_t& lines);

  InputSource& source_;
  size_t chunk_bytes_;
  size_t max_game_bytes_;
  bool hash_mapped_;
  ContentHasher hasher_;
  uint64_t next_index_ = 0;
  uint64_t offset_ = 0;

  // Streams only: the bytes from the next chunk's start, read so far.
  std::unique_ptr<char[]> buffer_;
  size_t buffer_size_ = 0;
  size_t buffer_capacity_ = 0;
  bool input_over_ = false;
};

}  // namespace pgnbase::indexer
