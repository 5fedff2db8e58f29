// The bundled sample (tools/sample: 2,000 real lichess games), cut into its games, for
// tests that build files of real games.
#pragma once

#include <string>
#include <vector>

#include "indexer/input_source.h"
#include "tests/cli/cli_support.h"

namespace pgnbase::cli_test {

inline const fs::path kSample = fs::path(PGNBASE_SOURCE_DIR) / "tools" / "sample" / "lichess-drnykterstein-2000.pgn.zst";

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

// Games [first, end) of the sample, as one text.
inline std::string games_text(size_t first, size_t end) {
  std::string text;
  for (size_t i = first; i < end; ++i) text += sample_games()[i];
  return text;
}

}  // namespace pgnbase::cli_test
