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
      bool white = !s.column_is_null(1) && search::name_matches(pattern, s.column_text(1));
      bool black = !s.column_is_null(2) && search::name_matches(pattern, s.column_text(2));
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
                           "Kramnik", "KRAMNÍK", "Kr?mn?k", "Крамник", "*ov", "Tal", "NN", "?", "a", "*", "Carlsen"}) {
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

TEST_F(NameSearchRealFiles, APlayerQueryLooksUpNameWordsAndTheGameIndexes) {
  search::GameFilter filter;
  filter.player = search::NamePattern{"Fischer R"};
  store::SqlQuery q = store::build_game_query(filter.sql_conditions(), search::GameOrder::Id);
  store::Database db(db_path_, store::Database::Mode::ReadOnly);
  store::Statement plan = db.prepare("EXPLAIN QUERY PLAN " + q.sql);
  q.bind(plan);
  std::string text;
  while (plan.step()) text += std::string(plan.column_text(3)) + "\n";
  EXPECT_NE(text.find("name_words USING PRIMARY KEY"), std::string::npos) << text;
  EXPECT_EQ(text.find("SCAN g"), std::string::npos) << text;  // no scan of every game
}

}  // namespace
}  // namespace pgnbase::query
