// The bundled sample (tools/sample: 2,000 real lichess games), always in the repository,
// cut into its games, for tests that build files of real games.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "indexer/input_source.h"

namespace pgnbase::test {

inline const std::filesystem::path kSample =
    std::filesystem::path(PGNBASE_SOURCE_DIR) / "tools" / "sample" / "lichess-drnykterstein-2000.pgn.zst";

// The sample's text (7.6 MB), read once.
inline const std::string& sample_text() {
  static const std::string text = [] {
    indexer::InputSource source = indexer::InputSource::open(kSample.string());
    std::string piece(size_t{1} << 20, '\0'), all;
    for (size_t n; (n = source.read(piece.data(), piece.size())) > 0;) all.append(piece, 0, n);
    return all;
  }();
  return text;
}

// The sample cut into its games (each ends with its blank lines).
inline const std::vector<std::string>& sample_games() {
  static const std::vector<std::string> games = [] {
    const std::string& all = sample_text();
    std::vector<std::string> out;
    for (size_t at = 0; at < all.size();) {
      size_t next = all.find("\n\n[Event ", at);
      next = next == std::string::npos ? all.size() : next + 2;
      out.push_back(all.substr(at, next - at));
      at = next;
    }
    return out;
  }();
  return games;
}

// The first games of the sample, about bytes long (at most), cut at a game start.
inline std::string sample_head(size_t bytes) {
  const std::string text = sample_text().substr(0, bytes);
  return text.substr(0, text.rfind("\n[Event ") + 1);
}

// Games [first, end) of the sample, as one text.
inline std::string games_text(size_t first, size_t end) {
  std::string text;
  for (size_t i = first; i < end; ++i) text += sample_games()[i];
  return text;
}

// The first n games of the sample, each with a comment of about comment_bytes before
// its first move: the edge case for tests that bound memory by bytes (export,
// export-dataset).
inline std::string games_with_long_comments(size_t n, size_t comment_bytes) {
  std::string comment = "{";
  for (size_t i = 0; comment.size() < comment_bytes; ++i) comment += "note " + std::to_string(i % 1000) + " ";
  comment += "}\n";
  std::string out;
  for (size_t i = 0; i < n; ++i) {
    const std::string& game = sample_games()[i];
    const size_t moves = game.find("\n\n") + 2;
    out += game.substr(0, moves) + comment + game.substr(moves);
  }
  return out;
}

}  // namespace pgnbase::test
