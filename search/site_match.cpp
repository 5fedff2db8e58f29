#include "search/site_match.h"

#include <algorithm>
#include <map>

#include "search/name_match.h"
#include "store/name_words.h"
#include "store/names_sql.h"
#include "store/site_url.h"

namespace pgnbase::search {

namespace {

// The id of the name spelled exactly `name`, if stored.
std::vector<int64_t> ids_named(store::Database& db, std::string_view name) {
  store::Statement s = db.prepare(store::sql::kNameByName);
  s.bind_text(1, name);
  std::vector<int64_t> ids;
  while (s.step()) ids.push_back(s.column_int64(0));
  return ids;
}

}  // namespace

store::SiteIds matching_sites(store::Database& db, const NamePattern& pattern) {
  store::SiteIds sites;
  if (const auto exact = exact_name(pattern)) {
    // An exact URL that the import splits is stored split, and only so.
    if (const auto parts = store::split_site(*exact)) {
      std::vector<int64_t> prefix = ids_named(db, parts->prefix);
      if (!prefix.empty()) sites.suffixes.push_back({std::move(prefix), std::string(parts->suffix), true});
    } else {
      sites.names = matching_names(db, pattern);
      sites.whole_only = true;  // the name may also be the prefix of other games' sites
    }
    return sites;
  }
  sites.names = matching_names(db, pattern);
  if (is_unknown_name(pattern)) return sites;  // a split site always has words
  // A split site's words are its prefix's and its suffix, one word of ASCII letters and
  // digits whose folded form is lower(suffix): a prefix holding every pattern word but one
  // leaves that one to the suffix. (Holding all of them, it is among sites.names.)
  std::vector<std::string> globs = pattern_word_globs(pattern);
  std::sort(globs.begin(), globs.end());
  globs.erase(std::unique(globs.begin(), globs.end()), globs.end());
  std::map<std::string, std::vector<int64_t>> prefixes_by_word;
  store::Statement s = db.prepare(store::sql::kSitePrefixCandidates);
  while (s.step()) {
    const std::string_view name = s.column_text(1);
    if (!store::is_site_prefix(name)) continue;
    const std::vector<std::string> words = store::fold_name_words(name);
    const std::string* left_over = nullptr;
    size_t left = 0;
    for (const std::string& glob : globs) {
      if (std::any_of(words.begin(), words.end(), [&](const std::string& w) { return store::word_matches(glob, w); }))
        continue;
      left_over = &glob;
      ++left;
    }
    if (left == 1) prefixes_by_word[*left_over].push_back(s.column_int64(0));
  }
  for (auto& [word, ids] : prefixes_by_word) {
    std::sort(ids.begin(), ids.end());
    sites.suffixes.push_back({std::move(ids), word, false});
  }
  return sites;
}

}  // namespace pgnbase::search
