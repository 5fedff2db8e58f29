// The rule that splits a Site URL into a shared prefix and a per-game suffix
// (store/site_url.h). Hand-made values, each named for its case.
#include "store/site_url.h"

#include <gtest/gtest.h>

#include "indexer/game_encoder.h"

#include <string>

namespace pgnbase::store {
namespace {

// "prefix|suffix", or "whole" when the value is stored whole.
std::string split(std::string_view site) {
  const std::optional<SiteParts> parts = split_site(site);
  if (!parts) return "whole";
  EXPECT_EQ(std::string(parts->prefix) + std::string(parts->suffix), site);  // nothing lost
  return std::string(parts->prefix) + "|" + std::string(parts->suffix);
}

TEST(SiteUrl, GameUrlsSplitAfterTheLastSlash) {
  EXPECT_EQ(split("https://lichess.org/AbCd1234"), "https://lichess.org/|AbCd1234");
  EXPECT_EQ(split("https://www.chess.com/game/live/123456"), "https://www.chess.com/game/live/|123456");
  EXPECT_EQ(split("http://example.org/x"), "http://example.org/|x");
  EXPECT_EQ(split("https://lichess.org/study/abcd/EFgh1234"), "https://lichess.org/study/abcd/|EFgh1234");
}

TEST(SiteUrl, NamesAndOtherUrlsStayWhole) {
  for (std::string_view site : {
           "London", "Wijk aan Zee NED", "?", "", "Berlin/Potsdam",
           "https://lichess.org/",                                  // no suffix
           "https://lichess.org",                                   // no path
           "https:///abc", "https://",                              // no host
           "ftp://example.org/abc",                                 // another scheme
           "HTTPS://lichess.org/AbCd1234",                          // schemes as sites write them
           "lichess.org/AbCd1234",                                  // no scheme
           "https://www.chessgames.com/perl/chessgame?gid=1018910", // not only letters and digits
           "https://lichess.org/AbCd 1234", "https://lichess.org/AbCd-1234",
           "https://lichess.org/Ab\xC3\xA9",                        // not ASCII
       })
    EXPECT_EQ(split(site), "whole") << site;
}

TEST(SiteUrl, SuffixesUpToTheLimit) {
  const std::string longest(kMaxSiteSuffix, 'a');
  EXPECT_EQ(split("https://h/" + longest), "https://h/|" + longest);
  EXPECT_EQ(split("https://h/" + longest + "a"), "whole");
}

TEST(SiteUrl, PrefixesAreWhatSplitsGive) {
  EXPECT_TRUE(is_site_prefix("https://lichess.org/"));
  EXPECT_TRUE(is_site_prefix("https://www.chess.com/game/live/"));
  EXPECT_FALSE(is_site_prefix("https://lichess.org"));
  EXPECT_FALSE(is_site_prefix("https://"));
  EXPECT_FALSE(is_site_prefix("https:///"));
  EXPECT_FALSE(is_site_prefix("London/"));
}

// The worker splits the Site for the writer (indexer::name_keys_of) where split_site does,
// and hashes the part that is interned.
TEST(SiteUrl, TheWorkersNameKeysSplitWhereSplitSiteDoes) {
  for (std::string_view site : {"https://lichess.org/AbCd1234", "https://www.chess.com/game/live/123456", "London",
                                "https://lichess.org/", "?"}) {
    indexer::GameRecord game;
    game.header.site = std::string(site);
    const indexer::NameKeys keys = indexer::name_keys_of(game);
    const std::optional<SiteParts> parts = split_site(site);
    EXPECT_EQ(keys.site_prefix_length, parts ? parts->prefix.size() : 0) << site;
    EXPECT_EQ(keys.site, indexer::name_hash(parts ? parts->prefix : site)) << site;
  }
}

}  // namespace
}  // namespace pgnbase::store
