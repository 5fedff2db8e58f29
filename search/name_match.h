// The rule of every name filter (--white, --black, --player, --event, --site; query/README.md
// "Names"): the name and the pattern are folded (case, accents, Latin-1: store/name_words.h)
// and split into words; every word of the pattern must match a whole word of the name.
// '*' (any run of characters) and '?' (one character) are wildcards inside a word, and a
// one-letter word is an initial ("Carlsen M" finds "Carlsen, Magnus").
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "search/game_filter.h"

namespace pgnbase::search {

// The pattern's words as SQLite GLOB patterns over name_words.word (folded words hold no
// GLOB special character but the wildcards): an initial "m" becomes "m*". Empty when the
// pattern has no word, which matches no name.
std::vector<std::string> name_pattern_globs(const NamePattern& pattern);

// Whether a stored name matches the pattern, by the rule above, without the database:
// what the name_words look-up must agree with.
bool name_matches(const NamePattern& pattern, std::string_view name);

}  // namespace pgnbase::search
