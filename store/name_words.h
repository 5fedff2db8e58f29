// Names as people type them: the folding rule shared by the import (which writes the
// name_words table, docs/schema.md) and the query (which folds the user's pattern the
// same way, query/README.md "Names").
//
// Folding reads the stored bytes as pgnbase reads every text: a valid UTF-8 sequence is
// its character, any other byte a Windows-1252/Latin-1 character. Then letters are
// lowercased and Latin letters lose their accents ("Kramník" and "KRAMNÍK" -> "kramnik",
// "Ł" -> "l", "ß" -> "ss", "Æ" -> "ae"); Greek and Cyrillic capitals are lowercased and
// combining accents dropped. A word is a run of letters and digits; everything else
// (blanks, commas, periods, hyphens, apostrophes, brackets) separates words.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace pgnbase::store {

// The folded words of a name, in order, repeats included: "Carlsen, Magnus" -> {"carlsen",
// "magnus"}; "Vachier-Lagrave, M." -> {"vachier", "lagrave", "m"}.
std::vector<std::string> fold_name_words(std::string_view name);

// The same for a typed pattern: '*' and '?' stay in their word as wildcards.
std::vector<std::string> fold_pattern_words(std::string_view pattern);

// Whether a folded word matches a folded pattern word: '*' any run of characters, '?'
// one character (a UTF-8 character, not a byte).
bool word_matches(std::string_view pattern_word, std::string_view word);

// The same glob over any text, optionally with ASCII letters compared without case (the
// whole-value match of --tag).
bool glob_matches(std::string_view pattern, std::string_view text, bool ignore_ascii_case);

}  // namespace pgnbase::store
