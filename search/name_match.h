// The rule of every name filter (--white, --black, --player, --event, --site; query/README.md
// "Names"). The name and the pattern are folded (case, accents, Latin-1: store/name_words.h)
// and split into words. A name matches when either
//  - every word of the pattern matches a whole word of the name, in any order ('*' and '?'
//    are wildcards inside a word, a one-letter word is an initial: "Carlsen M" finds
//    "Carlsen, Magnus"), or
//  - the two agree as people's names: read as surname and given names (below), every
//    surname word of the pattern is a surname word of the name, and their given names are
//    compatible: one side has none (a missing first name matches any), or, in order, each
//    pair is equal or one is an initial the other starts with ("Magnus Carlsen" finds
//    "Carlsen,M", "Mikhail Tal" finds "Tal, M." and "Tal", not "Tal, Josef").
// A name is read as "Last, Given" when it has a comma; else as "Last F" when it ends in
// initials (one-letter words); else its last word is the surname ("First Last", "F. Last",
// "First M. Last").
// A pattern that is only "?" (PGN's unknown name) matches only unknown names: those with no
// word at all, and games without the tag. A pattern starting with '=' is the stored
// spelling exactly ("=Tal, M."): what a player report's list of merged spellings offers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "search/game_filter.h"
#include "store/database.h"
#include "store/game_query.h"

namespace pgnbase::search {

// Whether a stored name matches the pattern, by the rule above, without the database:
// what matching_names must agree with.
bool name_matches(const NamePattern& pattern, std::string_view name);

// The first half of the rule alone: every pattern word matches a whole word of the text
// (the rule of --comment and --opening, where there is no surname).
bool words_match(const NamePattern& pattern, std::string_view text);

// The pattern's words as the word rule matches them (folded; an initial "m" as "m*").
std::vector<std::string> pattern_word_globs(const NamePattern& pattern);

// The stored spelling an "=NAME" pattern asks for exactly; empty for other patterns.
std::optional<std::string_view> exact_name(const NamePattern& pattern);
// Whether the pattern is PGN's unknown name "?" (blanks around it allowed).
bool is_unknown_name(const NamePattern& pattern);

// The stored names the pattern matches, by id: the candidates come from the name_words
// index (names holding every pattern word, or every surname word), and each is tested
// with name_matches. The caller holds a read snapshot.
store::NameIds matching_names(store::Database& db, const NamePattern& pattern);

}  // namespace pgnbase::search
