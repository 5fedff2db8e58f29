// Names as people type them (query/name_match.h): folding of case, accents and Latin-1,
// whole-word matching, wildcards, and the name_words look-up checked against a scan of
// every stored game on real files.
#include <gtest/gtest.h>

#include <set>

#include "store/name_words.h"
#include "search/game_search.h"
#include "store/game_query.h"
#include "search/name_match.h"
#include "query_test_support.h"
#include "tests/support/shared_data.h"
#include "tests/support/temp_dir.h"
#include "tests/support/bundled_sample.h"

namespace pgnbase::query {
namespace {

using Words = std::vector<std::string>;

bool matches(std::string_view pattern, std::string_view name) { return search::name_matches(search::NamePattern{std::string(pattern)}, name); }

TEST(NameFold, CaseAccentsAndLatin1FoldToTheSameWords) {
  const Words kramnik = {"kramnik", "vladimir"};
  EXPECT_EQ(store::fold_name_words("Kramník, Vladimir"), kramnik);        // UTF-8
  EXPECT_EQ(store::fold_name_words("Kr\xE1mn\xEDk, Vladimir"), kramnik);  // Latin-1
  EXPECT_EQ(store::fold_name_words("KRAMNÍK,VLADIMIR"), kramnik);
  EXPECT_EQ(store::fold_name_words("Vachier-Lagrave, M."), (Words{"vachier", "lagrave", "m"}));
  EXPECT_EQ(store::fold_name_words("Łukasz Żurawski"), (Words{"lukasz", "zurawski"}));
  EXPECT_EQ(store::fold_name_words("Straße Ærø Œuvre"), (Words{"strasse", "aero", "oeuvre"}));
  EXPECT_EQ(store::fold_name_words("\x8Akoda"), Words{"skoda"});  // Windows-1252 Š
  // Latin-1 bytes that look like the start of a UTF-8 sequence: "þ¡¡" and "ö¢¢" stay Latin-1.
  EXPECT_EQ(store::fold_name_words("\xFE\xA1\xA1 \xF6\xA2\xA2x"), (Words{"th", "o", "x"}));
  // Cyrillic capitals lowercased, a combining stress accent dropped inside its word.
  EXPECT_EQ(store::fold_name_words("Влади́мир КРАМНИК"), (Words{"владимир", "крамник"}));
  EXPECT_EQ(store::fold_name_words(" ,.-?"), Words{});
}

TEST(NameMatch, APlainWordIsAWholeWord) {
  EXPECT_TRUE(matches("Carlsen", "Carlsen, Magnus"));
  EXPECT_TRUE(matches("Carlsen", "Magnus Carlsen"));
  EXPECT_FALSE(matches("Carlsen", "Carlsenx"));
  EXPECT_FALSE(matches("Carlsen", "Carl Sen"));
  EXPECT_TRUE(matches("magnus carlsen", "Carlsen, Magnus"));
  EXPECT_TRUE(matches("carlsen m", "Carlsen, Magnus"));  // an initial
  EXPECT_FALSE(matches("carlsen x", "Carlsen, Magnus"));
  EXPECT_TRUE(matches("KRAMNÍK", "Kr\xE1mn\xEDk, Vladimir"));
  EXPECT_FALSE(matches("", "Carlsen, Magnus"));
}

TEST(NameMatch, WildcardsStayInsideAWord) {
  EXPECT_TRUE(matches("Carls?n", "Carlsen, Magnus"));
  EXPECT_TRUE(matches("*sen", "Carlsen, Magnus"));
  EXPECT_TRUE(matches("M?ller", "Müller, Hans"));  // ? is one character, not one byte
  EXPECT_FALSE(matches("M?ller", "Mueller, Hans"));
  EXPECT_TRUE(matches("*", "Anyone"));
  EXPECT_FALSE(matches("carlsen*magnus", "Carlsen, Magnus"));
  EXPECT_FALSE(matches("*a*a*a*a*a*a*a*b", std::string(5000, 'a')));  // no exponential backtracking
}

// The name rule as a table: each stored spelling against each typed form. 1: matches.
// Stored forms as TWIC, FIDE, lichess and old collections write them; typed forms as
// people type a name. Read by hand: a form agrees when the surname agrees and the given
// names are compatible (an initial matches a name it starts; a missing one matches any).
TEST(NameMatch, StoredFormsAgainstTypedForms) {
  const std::vector<std::string> typed = {"Magnus Carlsen", "Carlsen, Magnus", "Carlsen M", "Carlsen,M.", "M. Carlsen",
                                          "Carlsen", "Henrik Carlsen", "?"};
  struct Row {
    const char* stored;
    std::string expected;  // one character per typed form, in order
  };
  const std::vector<Row> table = {
      {"Carlsen,M", "11111100"},
      {"Carlsen, M.", "11111100"},
      {"Carlsen, Magnus", "11111100"},
      {"Carlsen,Magnus", "11111100"},
      {"Magnus Carlsen", "11111100"},
      {"Carlsen Magnus", "11111100"},  // old word rule: every typed word is a word of the name
      {"M. Carlsen", "11111100"},
      {"Carlsen M", "11111100"},
      {"Carlsen", "11111110"},         // no given name: any given name agrees
      {"Carlsen, Henrik", "00000110"},
      {"Carlsen,H", "00000110"},
      {"Carlsen, Magnus Oen", "11111100"},
      {"Carlsenx, M", "00000000"},
      {"Magnusson, Carl", "00000000"},
      {"Karlsen, Magnus", "00000000"},
      {"?", "00000001"},
      {"", "00000001"},
      {"-", "00000001"},
  };
  for (const Row& row : table) {
    ASSERT_EQ(row.expected.size(), typed.size()) << row.stored;
    for (size_t i = 0; i < typed.size(); ++i)
      EXPECT_EQ(matches(typed[i], row.stored), row.expected[i] == '1') << "typed '" << typed[i] << "', stored '" << row.stored << "'";
  }
}

TEST(NameMatch, GivenNamesAreComparedInOrderAndInitialsAreCompatible) {
  struct Case {
    const char* typed;
    const char* stored;
    bool match;
  };
  const Case cases[] = {
      {"Mikhail Tal", "Tal, M.", true},
      {"Mikhail Tal", "Tal,M", true},
      {"Mikhail Tal", "Tal, Mikhail N.", true},
      {"Mikhail Tal", "Tal", true},
      {"Mikhail Tal", "Tal, Josef", false},
      {"Tigran Petrosian", "Petrosian,T", true},
      {"Tigran Petrosian", "Petrosian, Tigran V.", true},
      {"Tigran Petrosian", "Petrosian, Arshak", false},
      {"Robert James Fischer", "Fischer, Robert J.", true},
      {"Robert Xavier Fischer", "Fischer, Robert J.", false},
      {"Maxime Vachier-Lagrave", "Vachier-Lagrave,M", true},
      {"Jan-Krzysztof Duda", "Duda,J", true},
      {"Carls?n, M", "Carlsen, Magnus", true},
      {"Magnus Carlsen", "Magnus", false},
      {"=Tal, M.", "Tal, M.", true},
      {"=Tal, M.", "Tal, Mikhail N.", false},
      {"?", "Tal, M.", false},
  };
  for (const Case& c : cases) EXPECT_EQ(matches(c.typed, c.stored), c.match) << c.typed << " / " << c.stored;
}

// The real files with the names users look for, and the lichess sample.
class NameSearchRealFiles : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new test::TempDir;
    db_path_ = dir_->file("names.db");
    std::vector<std::string> files = {test::kSample.string()};
    if (test::have_shared_data()) {
      for (const char* folder : {"nasty/scid-gtest", "nasty/pgn-extract-tests", "nasty/python-chess", "annotated"})
        for (const std::string& file : query_test::shared_files(folder)) files.push_back(file);
    }
    query_test::import_files(db_path_, files);
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }

  static std::set<int64_t> searched(const search::NamePattern& pattern) {
    store::Database db(db_path_, store::Database::Mode::ReadOnly);
    search::SearchOptions options;
    options.filter.player = pattern;
    search::GameSearch search(db, std::move(options));
    std::set<int64_t> out;
    while (search.next()) out.insert(search.row().id);
    return out;
  }
  // Every stored game read, its White and Black tested with name_matches.
  static std::set<int64_t> scanned(const search::NamePattern& pattern) {
    store::Database db(db_path_, store::Database::Mode::ReadOnly);
    store::Statement s = db.prepare(
        "SELECT g.id, wh.name, bl.name FROM games g LEFT JOIN names wh ON wh.id = g.white_id "
        "LEFT JOIN names bl ON bl.id = g.black_id");
    std::set<int64_t> out;
    while (s.step()) {
      // A game without the tag has an unknown name: only "?" matches it.
      auto side_matches = [&](int column) {
        return s.column_is_null(column) ? search::is_unknown_name(pattern) : search::name_matches(pattern, s.column_text(column));
      };
      const bool white = side_matches(1), black = side_matches(2);
      if (white || black) out.insert(s.column_int64(0));
    }
    return out;
  }

  static test::TempDir* dir_;
  static std::string db_path_;
};

test::TempDir* NameSearchRealFiles::dir_ = nullptr;
std::string NameSearchRealFiles::db_path_;

TEST_F(NameSearchRealFiles, IndexLookUpAgreesWithAScanOfEveryGame) {
  for (const char* text : {"DrNykterstein", "drnyk*", "Fischer", "fischer r", "Robert Fischer", "PETROSIAN", "Tigran",
                           "Kramnik", "KRAMNÍK", "Kr?mn?k", "Крамник", "*ov", "Tal", "NN", "?", "a", "*", "Carlsen",
                           "Mikhail Tal", "Tigran Petrosian", "Petrosian, T.", "T. Petrosian", "Petrosian T",
                           "Vladimir Kramnik", "Garry Kasparov", "Kasparov, G", "=Tal, M.", " ? "}) {
    const search::NamePattern pattern{text};
    EXPECT_EQ(searched(pattern), scanned(pattern)) << text;
  }
  EXPECT_EQ(searched(search::NamePattern{"DrNykterstein"}).size(), 2000u);
}

TEST_F(NameSearchRealFiles, KramnikIsFoundInLatin1AndInUtf8) {
  PGNBASE_REQUIRE_SHARED();
  store::Database db(db_path_, store::Database::Mode::ReadOnly);
  // The scid files: the same game stored as Latin-1 ("Kràmnìk") and as UTF-8 ("Kramnik").
  store::Statement s = db.prepare(
      "SELECT g.id FROM games g JOIN sources src ON src.id = g.source_id WHERE src.path LIKE '%res_game%'");
  std::set<int64_t> scid;
  while (s.step()) scid.insert(s.column_int64(0));
  ASSERT_EQ(scid.size(), 2u);
  const std::set<int64_t> found = searched(search::NamePattern{"KRAMNÍK"});
  for (int64_t id : scid) EXPECT_TRUE(found.count(id)) << id;
  EXPECT_GE(searched(search::NamePattern{"Fischer"}).size(), 76u);  // 76 White tags of the real files
}

TEST_F(NameSearchRealFiles, FullNamesFindThePlayersStoredWithInitials) {
  PGNBASE_REQUIRE_SHARED();
  // Tal's games of the real files, four spellings (`players --like tal`, 23 games, none
  // between two Tals): "Mikhail Tal" and "Tal, Mikhail N." (7 each), "Tal, M." (7),
  // "Tal,M" (2). The word rule alone found the 14 of the first two.
  auto count_stored = [](const char* spelling) { return searched(search::NamePattern{std::string("=") + spelling}).size(); };
  const size_t tal =
      count_stored("Mikhail Tal") + count_stored("Tal, Mikhail N.") + count_stored("Tal, M.") + count_stored("Tal,M");
  EXPECT_EQ(tal, 23u);
  EXPECT_EQ(searched(search::NamePattern{"Mikhail Tal"}).size(), tal);
  EXPECT_EQ(searched(search::NamePattern{"M. Tal"}).size(), tal);
  EXPECT_EQ(searched(search::NamePattern{"Tal, M"}).size(), tal);
  const size_t petrosian_full = searched(search::NamePattern{"Tigran Petrosian"}).size();
  EXPECT_EQ(petrosian_full, searched(search::NamePattern{"Petrosian T"}).size());
  // "Petrosian, T." and "Petrosian,T" agree with the typed full name, not with the word rule alone.
  EXPECT_GT(petrosian_full, searched(search::NamePattern{"Petrosian Tigran"}).size());
}

TEST_F(NameSearchRealFiles, APlayerQueryLooksUpNameWordsAndTheGameIndexes) {
  search::GameFilter filter;
  filter.player = search::NamePattern{"Fischer R"};
  store::Database db(db_path_, store::Database::Mode::ReadOnly);
  store::Statement candidates = db.prepare("EXPLAIN QUERY PLAN " +
                                           store::build_name_candidates_query({{"fischer", "r*"}, {"fischer"}}).sql);
  store::build_name_candidates_query({{"fischer", "r*"}, {"fischer"}}).bind(candidates);
  std::string text;
  while (candidates.step()) text += std::string(candidates.column_text(3)) + "\n";
  EXPECT_NE(text.find("name_words USING PRIMARY KEY"), std::string::npos) << text;
  store::SqlQuery q = store::build_game_query(filter.sql_conditions(db), search::GameOrder::Id);
  store::Statement plan = db.prepare("EXPLAIN QUERY PLAN " + q.sql);
  q.bind(plan);
  text.clear();
  while (plan.step()) text += std::string(plan.column_text(3)) + "\n";
  EXPECT_NE(text.find("games_white"), std::string::npos) << text;
  EXPECT_EQ(text.find("SCAN g"), std::string::npos) << text;  // no scan of every game
}

}  // namespace
}  // namespace pgnbase::query
