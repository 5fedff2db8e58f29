// How a Site tag is stored (docs/schema.md, games.site_suffix). A Site that is the URL of
// one game ("https://lichess.org/AbCd1234", "https://www.chess.com/game/live/123456") is
// split into a prefix shared by all the games of that place, interned once in names (with
// its name_words), and the per-game rest, kept in the games row. Every reader gives back
// prefix + suffix, which is the tag's value exactly.
//
// The rule: the value starts with "http://" or "https://" (lower case, as every site
// writes them), a host of at least one character follows, and after the value's last '/'
// (which must come after the host) follow 1 to kMaxSiteSuffix ASCII letters and digits and
// nothing else. The prefix is the value up to and including that '/', the suffix the rest.
// Anything else ("London", "https://lichess.org/", a URL ending in "?gid=123") is stored
// whole, as before.
//
// The suffix being one word of ASCII letters and digits is what lets a --site pattern's
// word be tested against it in SQL (search/site_match.h): its folded word is lower(suffix).
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace pgnbase::store {

inline constexpr size_t kMaxSiteSuffix = 32;

struct SiteParts {
  std::string_view prefix, suffix;  // views into the value split
};

// The value's prefix and suffix by the rule above; nullopt when it is stored whole.
std::optional<SiteParts> split_site(std::string_view site);

// Whether a stored name can be the prefix of a split site (what split_site gives for some
// value): the candidates a --site pattern's suffix word is looked up under.
bool is_site_prefix(std::string_view name);

}  // namespace pgnbase::store
