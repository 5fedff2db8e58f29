// Fuzz target: the PGN reader over an arbitrary byte range. Every view it hands out
// is read byte by byte and must lie inside the range; offsets and lines must be sane;
// every game must consume input (no endless loop). The same bytes are read again as
// two ranges split at a point chosen by the input, as the splitter's chunks are.
#include <string>

#include "core/pgn_reader.h"
#include "tests/fuzz/fuzz_check.h"

namespace {

using namespace pgnbase;
using pgnbase::fuzz::check;
using pgnbase::fuzz::inside;
using pgnbase::fuzz::touch;

struct TouchingVisitor {
  TouchingVisitor(const uint8_t* d, size_t n, uint64_t base) : data(d), size(n), base_offset(base) {}

  const uint8_t* data;
  size_t size;
  uint64_t base_offset;
  uint64_t sink = 0;
  uint64_t games = 0;
  bool in_game = false;
  int depth = 0;
  std::string unescaped;

  void see(std::string_view view) {
    check(inside(view, data, size), "view outside the reader's range");
    sink += touch(view);
  }
  void begin_game(uint64_t offset, uint64_t line) {
    check(!in_game, "begin_game twice without end_game");
    check(offset >= base_offset && offset <= base_offset + size, "game offset outside the range");
    check(line >= 1, "line 0");
    in_game = true;
    depth = 0;
    ++games;
  }
  void tag(std::string_view name, std::string_view value) {
    check(in_game, "tag outside a game");
    check(!name.empty(), "empty tag name");
    see(name);
    see(value);
    unescaped.clear();
    unescape_tag_value(value, unescaped);
    check(unescaped.size() <= value.size(), "unescaping grew the value");
  }
  bool end_tags() { return true; }
  void move(std::string_view token) {
    check(!token.empty(), "empty move token");
    see(token);
  }
  void nag(int value) { check(value >= 0, "negative NAG"); }
  void comment(std::string_view text) { see(text); }
  void draw_offer() {}
  void begin_variation() { ++depth; }
  void end_variation() {
    --depth;
    check(depth >= 0, "end_variation without begin_variation");
  }
  void result(std::string_view token) {
    check(!token.empty(), "empty result token");
    see(token);
  }
  void end_game(const GameText& game, const PgnError* error) {
    check(in_game, "end_game outside a game");
    in_game = false;
    see(game.text);
    check(game.offset >= base_offset && game.offset <= base_offset + size, "game text offset outside the range");
    if (error) {
      see(error->token);
      check(describe(error->code) != nullptr, "error without a description");
      check(error->offset >= base_offset && error->offset <= base_offset + size, "error offset outside the range");
      check(error->line >= 1, "error on line 0");
    }
  }
};

static_assert(PgnVisitor<TouchingVisitor>);

// Skips every game after its tags, as a header-only reader does.
struct TagsOnlyVisitor : TouchingVisitor {
  using TouchingVisitor::TouchingVisitor;
  bool end_tags() { return false; }
};

template <class V>
uint64_t read_range(const uint8_t* data, size_t size, uint64_t base_offset) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  PgnReader reader(text, base_offset, 1);
  V visitor(data, size, base_offset);
  size_t before = reader.position();
  while (reader.read_game(visitor)) {
    check(reader.position() <= size, "reader position past the end");
    check(reader.position() > before || size == 0, "a game consumed no input");
    check(visitor.games <= size + 1, "more games than bytes");
    before = reader.position();
  }
  check(!visitor.in_game, "game left open");
  return visitor.sink + visitor.games;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static volatile uint64_t sink [[maybe_unused]];
  sink = read_range<TouchingVisitor>(data, size, 0);
  sink = read_range<TagsOnlyVisitor>(data, size, 0);
  if (size >= 2) {
    const size_t split = (size_t(data[0]) << 8 | data[size - 1]) % size;
    sink = read_range<TouchingVisitor>(data, split, 7);
    sink = read_range<TouchingVisitor>(data + split, size - split, 7 + split);
  }
  return 0;
}
