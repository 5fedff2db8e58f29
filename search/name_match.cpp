#include "search/name_match.h"

#include <algorithm>

#include "store/name_words.h"
#include "store/names_sql.h"

namespace pgnbase::search {

namespace {

size_t characters(std::string_view word) {
  return size_t(std::count_if(word.begin(), word.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

bool is_initial(std::string_view word) { return characters(word) == 1 && word.find_first_of("*?") == std::string_view::npos; }

// The pattern's words as GLOB patterns over name_words.word (folded words hold no GLOB
// special character but the wildcards): an initial "m" becomes "m*".
std::vector<std::string> word_globs(std::string_view pattern) {
  std::vector<std::string> globs = store::fold_pattern_words(pattern);
  for (std::string& word : globs)
    if (is_initial(word)) word += '*';
  return globs;
}

bool all_words_match(const std::vector<std::string>& globs, const std::vector<std::string>& words) {
  if (globs.empty()) return false;
  return std::all_of(globs.begin(), globs.end(), [&](const std::string& glob) {
    return std::any_of(words.begin(), words.end(), [&](const std::string& w) { return store::word_matches(glob, w); });
  });
}

struct PersonName {
  std::vector<std::string> surname, given;
};

// A name read as surname and given names (the header's rule); pattern: fold '*' and '?'
// as wildcards.
PersonName read_person_name(std::string_view text, bool pattern) {
  auto fold = [pattern](std::string_view part) {
    return pattern ? store::fold_pattern_words(part) : store::fold_name_words(part);
  };
  PersonName name;
  const size_t comma = text.find(',');
  if (comma != std::string_view::npos) {
    name.surname = fold(text.substr(0, comma));
    name.given = fold(text.substr(comma + 1));
    if (!name.surname.empty()) return name;
    name.given.clear();
  }
  // Tokens between blanks and periods: "F. Last", "Last F", "First Last".
  std::vector<std::vector<std::string>> tokens;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find_first_of(" \t.", start);
    if (end == std::string_view::npos) end = text.size();
    std::vector<std::string> words = fold(text.substr(start, end - start));
    if (!words.empty()) tokens.push_back(std::move(words));
    start = end + 1;
  }
  auto initial = [](const std::vector<std::string>& words) {
    return std::all_of(words.begin(), words.end(), [](const std::string& w) { return is_initial(w); });
  };
  // "Last F" / "Last F.M.": the initials at the end are the given names; otherwise the
  // last token is the surname ("First Last", "F. Last", "First M. Last").
  size_t given_from = tokens.size();
  while (given_from > 1 && initial(tokens[given_from - 1])) --given_from;
  const bool last_first = given_from < tokens.size();
  for (size_t i = 0; i < tokens.size(); ++i) {
    const bool given = last_first ? i >= given_from : i + 1 < tokens.size();
    std::vector<std::string>& to = given ? name.given : name.surname;
    to.insert(to.end(), tokens[i].begin(), tokens[i].end());
  }
  return name;
}

// Equal, or one an initial that the other starts with.
bool given_names_compatible(const std::string& pattern_word, const std::string& word) {
  if (store::word_matches(pattern_word, word)) return true;
  if (is_initial(pattern_word)) return word.starts_with(pattern_word);
  if (is_initial(word)) return pattern_word.starts_with(word);
  return false;
}

bool person_names_agree(const PersonName& pattern, const PersonName& name) {
  if (pattern.surname.empty() || name.surname.empty()) return false;
  if (!all_words_match(pattern.surname, name.surname)) return false;
  const size_t common = std::min(pattern.given.size(), name.given.size());
  for (size_t i = 0; i < common; ++i)
    if (!given_names_compatible(pattern.given[i], name.given[i])) return false;
  return true;
}

}  // namespace

std::vector<std::string> pattern_word_globs(const NamePattern& pattern) { return word_globs(pattern.text); }

std::optional<std::string_view> exact_name(const NamePattern& pattern) {
  if (!pattern.text.starts_with('=')) return std::nullopt;
  return std::string_view(pattern.text).substr(1);
}

bool is_unknown_name(const NamePattern& pattern) {
  const size_t first = pattern.text.find_first_not_of(" \t");
  return first != std::string::npos && pattern.text[first] == '?' &&
         pattern.text.find_first_not_of(" \t", first + 1) == std::string::npos;
}

bool words_match(const NamePattern& pattern, std::string_view text) {
  return all_words_match(word_globs(pattern.text), store::fold_name_words(text));
}

bool name_matches(const NamePattern& pattern, std::string_view name) {
  if (const auto exact = exact_name(pattern)) return name == *exact;
  const std::vector<std::string> words = store::fold_name_words(name);
  if (is_unknown_name(pattern)) return words.empty();
  if (all_words_match(word_globs(pattern.text), words)) return true;
  return person_names_agree(read_person_name(pattern.text, true), read_person_name(name, false));
}

store::NameIds matching_names(store::Database& db, const NamePattern& pattern) {
  store::NameIds names;
  auto keep_matches = [&](store::Statement& s) {
    while (s.step())
      if (name_matches(pattern, s.column_text(1))) names.ids.push_back(s.column_int64(0));
  };
  if (const auto exact = exact_name(pattern)) {
    store::Statement s = db.prepare(store::sql::kNameByName);
    s.bind_text(1, *exact);
    keep_matches(s);
  } else if (is_unknown_name(pattern)) {
    names.or_absent = true;
    store::Statement s = db.prepare(store::sql::kWordlessNameCandidates);
    keep_matches(s);
  } else {
    const PersonName person = read_person_name(pattern.text, true);
    store::SqlQuery q = store::build_name_candidates_query({word_globs(pattern.text), person.surname});
    store::Statement s = db.prepare(q.sql);
    q.bind(s);
    keep_matches(s);
  }
  std::sort(names.ids.begin(), names.ids.end());
  return names;
}

}  // namespace pgnbase::search
