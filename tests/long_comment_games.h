// Real games of the bundled sample (tools/sample) with a long comment before each first
// move: the edge case for tests that bound memory by bytes (export, export-dataset).
#pragma once

#include <string>

#include "indexer/input_source.h"

namespace pgnbase::test_support {

// The first n games of the sample, each with a comment of about comment_bytes.
inline std::string games_with_long_comments(size_t n, size_t comment_bytes) {
  indexer::InputSource source =
      indexer::InputSource::open(PGNBASE_SOURCE_DIR "/tools/sample/lichess-drnykterstein-2000.pgn.zst");
  std::string text(size_t{4} << 20, '\0');
  text.resize(source.read(text.data(), text.size()));
  std::string comment = "{";
  for (size_t i = 0; comment.size() < comment_bytes; ++i) comment += "note " + std::to_string(i % 1000) + " ";
  comment += "}\n";
  std::string out;
  size_t at = 0;
  for (size_t game = 0; game < n; ++game) {
    const size_t moves = text.find("\n\n", at) + 2;
    size_t next = text.find("\n\n[Event ", moves);
    next = next == std::string::npos ? text.size() : next + 2;
    out += text.substr(at, moves - at) + comment + text.substr(moves, next - moves);
    at = next;
  }
  return out;
}

}  // namespace pgnbase::test_support
