#include "search/name_match.h"

#include <algorithm>

#include "store/name_words.h"

namespace pgnbase::search {

std::vector<std::string> name_pattern_globs(const NamePattern& pattern) {
  std::vector<std::string> globs = store::fold_pattern_words(pattern.text);
  for (std::string& word : globs)
    if (word.find_first_of("*?") == std::string::npos && store::word_matches("?", word)) word += '*';
  return globs;
}

bool name_matches(const NamePattern& pattern, std::string_view name) {
  const std::vector<std::string> globs = name_pattern_globs(pattern);
  if (globs.empty()) return false;
  const std::vector<std::string> words = store::fold_name_words(name);
  return std::all_of(globs.begin(), globs.end(), [&](const std::string& glob) {
    return std::any_of(words.begin(), words.end(), [&](const std::string& w) { return store::word_matches(glob, w); });
  });
}

}  // namespace pgnbase::search
