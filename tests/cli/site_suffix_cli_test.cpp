// Sites stored as a shared prefix and a per-game suffix (store/site_url.h): every game's
// Site comes back exactly, names holds the prefix once instead of one row per game, and
// --site finds games by a word of the prefix, the whole URL, or the game's id alone, as
// the word rule on the whole Site says (checked against search::words_match on the
// original text). The bundled sample (2,000 real lichess games) always runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "search/name_match.h"
#include "store/database.h"
#include "tests/cli/cli_support.h"
#include "tests/query/csv_reader.h"
#include "tests/support/bundled_sample.h"
#include "tests/support/files.h"

namespace pgnbase::cli_test {
namespace {

using namespace std::string_literals;

// The value of every [Site "..."] line of a PGN text, in order.
std::vector<std::string> site_tags(const std::string& pgn) {
  std::vector<std::string> sites;
  for (size_t at = 0; (at = pgn.find("[Site \"", at)) != std::string::npos; at += 7)
    sites.push_back(pgn.substr(at + 7, pgn.find("\"]", at) - at - 7));
  return sites;
}

int64_t count(const std::string& db_path, const std::string& sql) {
  store::Database db(db_path, store::Database::Mode::ReadOnly);
  store::Statement s = db.prepare(sql);
  EXPECT_TRUE(s.step()) << sql;
  return s.column_int64(0);
}

class SiteSuffixCli : public CliTest {
 protected:
  // The sites of the games `search DB --site PATTERN` lists (CSV), in id order.
  std::vector<std::string> sites_found(const std::string& db, const std::string& pattern) {
    Ran r = query({"search", db, "--site", pattern, "--format", "csv"});
    EXPECT_EQ(r.code, 0) << r;
    const auto records = csv_check::parse(r.out);
    EXPECT_TRUE(records && !records->empty()) << r;
    if (!records || records->empty()) return {};
    const auto& header = records->front();
    const size_t column = size_t(std::find(header.begin(), header.end(), "site") - header.begin());
    EXPECT_LT(column, header.size());
    std::vector<std::string> sites;
    for (size_t i = 1; i < records->size(); ++i) sites.push_back(records->at(i).at(column));
    return sites;
  }
};

TEST_F(SiteSuffixCli, SampleSitesComeBackWholeAndNamesHoldThePrefixOnce) {
  const std::vector<std::string> original = site_tags(test::sample_text());
  ASSERT_EQ(original.size(), 2000u);
  const std::string db = path("s.db");
  ASSERT_EQ(index({"-q", "-o", db, test::kSample.string()}).code, 0);
  ASSERT_EQ(count(db, "SELECT count(*) FROM games"), 2000);

  // Export (PGN and CSV) gives every Site back byte for byte, in input order.
  Ran exported = query({"export", db, "-o", "-"});
  ASSERT_EQ(exported.code, 0) << exported;
  EXPECT_EQ(site_tags(exported.out), original);
  std::vector<std::string> listed = sites_found(db, "lichess");
  EXPECT_EQ(listed, original);

  // One prefix row and its three words, instead of a names row (and four words) per game.
  EXPECT_EQ(count(db, "SELECT count(*) FROM games WHERE site_suffix IS NOT NULL"), 2000);
  EXPECT_EQ(count(db, "SELECT count(*) FROM names WHERE name GLOB 'http*'"), 1);
  EXPECT_EQ(count(db, "SELECT count(*) FROM name_words WHERE name_id = (SELECT site_id FROM games LIMIT 1)"), 3);
  const int64_t names = count(db, "SELECT count(*) FROM names");
  // The rows names held when every whole Site was a name of its own.
  const int64_t names_when_whole = count(
      db,
      "SELECT count(*) FROM (SELECT n.name FROM names n WHERE n.id IN (SELECT event_id FROM games UNION "
      "SELECT white_id FROM games UNION SELECT black_id FROM games) UNION "
      "SELECT si.name || coalesce(g.site_suffix, '') FROM games g JOIN names si ON si.id = g.site_id)");
  EXPECT_EQ(names_when_whole - names, 2000 - 1) << names << " names now";
  EXPECT_LT(names, 2000 / 4);
}

TEST_F(SiteSuffixCli, SiteFindsAPrefixWordTheWholeUrlOrTheGameIdAsTheWordRuleSays) {
  const std::vector<std::string> original = site_tags(test::sample_text());
  ASSERT_EQ(original.size(), 2000u);
  // Hand-made edge cases beside the real games: a Site that is only the shared prefix,
  // and one that is a place.
  const std::string extra = file("extra.pgn",
                                 "[Event \"Edge\"]\n[Site \"https://lichess.org/\"]\n[White \"A\"]\n[Black \"B\"]\n"
                                 "[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n"
                                 "[Event \"Edge\"]\n[Site \"London\"]\n[White \"A\"]\n[Black \"B\"]\n"
                                 "[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n");
  const std::string db = path("s.db");
  ASSERT_EQ(index({"-q", "-o", db, test::kSample.string(), extra}).code, 0);
  std::vector<std::string> all = original;
  all.push_back("https://lichess.org/");
  all.push_back("London");

  const std::string site = original[37];                      // https://lichess.org/XXXXXXXX
  const std::string id = site.substr(site.rfind('/') + 1);
  std::string flipped = id;  // the id with every letter's case changed
  for (char& c : flipped) c = std::isupper(static_cast<unsigned char>(c)) ? char(std::tolower(c)) : char(std::toupper(c));
  ASSERT_NE(flipped, id);
  const std::string other = original[38].substr(original[38].rfind('/') + 1);

  // The word rule on the whole value, by brute force over the original text.
  auto expected = [&](const std::string& pattern) {
    std::vector<std::string> sites;
    for (const std::string& s : all)
      if (search::words_match(search::NamePattern{pattern}, s)) sites.push_back(s);
    return sites;
  };
  for (const std::string& pattern :
       {"lichess"s, "LICHESS.ORG"s, site, "https://lichess.org/" + flipped, id, flipped, "lichess " + id,
        id.substr(0, 3) + "*", "?" + id.substr(1), id + " " + other, "chess.com"s, "london"s, "org https"s,
        // A word then '*' is a range of suffixes (store/game_query.cpp): either case, the
        // last letter or digit of the range's top.
        flipped.substr(0, 2) + "**", "lichess " + flipped.substr(0, 1) + "*", "z*"s, "Z*"s, "9*"s, "a9*"s})
    EXPECT_EQ(sites_found(db, pattern), expected(pattern)) << pattern;
  EXPECT_EQ(sites_found(db, site), std::vector<std::string>{site});
  EXPECT_EQ(sites_found(db, id).size(), expected(id).size());
  EXPECT_GE(sites_found(db, id).size(), 1u);

  // "=VALUE" is the stored value exactly: the prefix alone is one game's whole Site, not
  // the prefix of the others'.
  EXPECT_EQ(sites_found(db, "=" + site), std::vector<std::string>{site});
  EXPECT_EQ(sites_found(db, "=https://lichess.org/" + flipped), std::vector<std::string>{});
  EXPECT_EQ(sites_found(db, "=https://lichess.org/"), std::vector<std::string>{"https://lichess.org/"});
  EXPECT_EQ(sites_found(db, "=London"), std::vector<std::string>{"London"});
  // Every game has a Site: "?" (unknown) finds none.
  EXPECT_EQ(sites_found(db, "?"), std::vector<std::string>{});
}

}  // namespace
}  // namespace pgnbase::cli_test
