// The query string of one API request, read with bounds: every parameter by name, its
// length capped, numbers range-checked, and the search filters built by the same code as
// pgn-query's options (tools/query_filters.h), so an API answer equals the CLI's.
//
// Parameters take the names of the command-line options without their dashes:
// /api/search?white=carlsen&min-elo=2500&eco=C60-C99. A bad value throws RequestError,
// whose message (one line) becomes the body of a 400 answer.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/board.h"
#include "search/game_filter.h"

namespace pgnbase::serve {

// A request the API refuses (400): what is wrong, in one line.
struct RequestError {
  std::string message;
};

class ApiRequest {
 public:
  static constexpr size_t kMaxParameterBytes = 1024;
  static constexpr size_t kMaxParameters = 48;

  // Takes the decoded parameters (the last value of a repeated name wins). Throws
  // RequestError when there are too many or one is too long.
  explicit ApiRequest(const std::multimap<std::string, std::string>& params);

  // The value, "" when absent.
  const std::string& text(std::string_view name) const;
  bool has(std::string_view name) const { return !text(name).empty(); }
  // An integer in [min, max]; fallback when absent. Throws RequestError otherwise.
  int64_t integer(std::string_view name, int64_t fallback, int64_t min, int64_t max) const;
  // true, false (or 1, 0); false when absent.
  bool flag(std::string_view name) const;
  // Names not in ALLOWED are an error: a misspelt filter must not widen a search silently.
  void check_names(const std::vector<std::string_view>& allowed) const;

  // The position FEN (the start position when absent) with PLAY (comma-separated moves,
  // UCI or SAN) played from it; path_keys receives every position on the way.
  Board position(std::vector<uint64_t>* path_keys = nullptr, std::vector<std::string>* played_san = nullptr) const;

  // The header filters of search and explore as pgn-query's options make them; for
  // search also moves (a move sequence, which names a position) and the material and
  // placement patterns. fen and play are the caller's (position()).
  enum class Use { Explorer, Search };
  search::GameFilter filter(Use use) const;

 private:
  std::map<std::string, std::string, std::less<>> values_;
};

// Parameter names of the filters of search and explore: fen, play, eco, white, ... max-plies.
const std::vector<std::string_view>& filter_parameter_names();
const std::vector<std::string_view>& pattern_parameter_names();

}  // namespace pgnbase::serve
