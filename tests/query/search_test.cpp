// GameSearch over the sample database (sample_games.h): every header filter,
// the position filter (positions reached late, en-passant and castling-rights
// differences, a set-up position), their combinations, order, offset and limit.
#include <gtest/gtest.h>

#include <set>

#include "search/game_filter.h"
#include "search/game_search.h"
#include "sample_games.h"

namespace pgnbase::query {
namespace {

using query_test::board_of;

class SearchTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { db_path_ = query_test::sample_database(); }

  // Ids of the games the search returns, in order.
  static std::vector<int64_t> ids(search::SearchOptions options) {
    store::Database db(db_path_, store::Database::Mode::ReadOnly);
    search::GameSearch search(db, std::move(options));
    std::vector<int64_t> out;
    while (search.next()) out.push_back(search.row().id);
    return out;
  }
  static std::vector<int64_t> ids(search::GameFilter filter) {
    search::SearchOptions options;
    options.filter = std::move(filter);
    return ids(std::move(options));
  }
  // Plies per game of a position search.
  static std::map<int64_t, std::vector<uint32_t>> plies(search::GameFilter filter, size_t point_lookup_limit = 20000) {
    store::Database db(db_path_, store::Database::Mode::ReadOnly);
    search::SearchOptions options;
    options.filter = std::move(filter);
    options.point_lookup_limit = point_lookup_limit;
    search::GameSearch search(db, std::move(options));
    std::map<int64_t, std::vector<uint32_t>> out;
    while (search.next()) out[search.row().id].assign(search.plies().begin(), search.plies().end());
    return out;
  }
  static search::GameFilter position(std::string_view fen) {
    search::GameFilter f;
    f.position = board_of(fen);
    return f;
  }

  static std::string db_path_;
};

std::string SearchTest::db_path_;

using Ids = std::vector<int64_t>;
using Plies = std::map<int64_t, std::vector<uint32_t>>;

TEST_F(SearchTest, DatabaseHoldsTheEightGoodGames) {
  EXPECT_EQ(ids(search::GameFilter{}), (Ids{1, 2, 3, 4, 5, 6, 7, 8}));
}

TEST_F(SearchTest, APlainWordMatchesAWholeWordOfTheName) {
  search::GameFilter f;
  f.white = search::NamePattern{"CARLSEN, MAGNUS"};
  EXPECT_EQ(ids(f), (Ids{1, 2}));
  f.white = search::NamePattern{"Carlsen"};
  EXPECT_EQ(ids(f), (Ids{1, 2}));
  f.white = search::NamePattern{"Magnus Carlsen"};  // any order, the comma is no part of a word
  EXPECT_EQ(ids(f), (Ids{1, 2}));
  f.white = search::NamePattern{"Carlse"};  // not a whole word
  EXPECT_EQ(ids(f), Ids{});
  f.white = search::NamePattern{"Carlsen M"};  // one letter: an initial
  EXPECT_EQ(ids(f), (Ids{1, 2}));
  f.white = search::NamePattern{"Carlsen Hans"};  // every word must be in the name
  EXPECT_EQ(ids(f), Ids{});
}

TEST_F(SearchTest, BlackTakesWildcards) {
  search::GameFilter f;
  f.black = search::NamePattern{"carlsen*"};
  EXPECT_EQ(ids(f), Ids{3});
  f.black = search::NamePattern{"*er"};  // a word ending in "er": Müller, Other
  EXPECT_EQ(ids(f), (Ids{4, 5, 7}));
  f.black = search::NamePattern{"M?ller"};  // ? is one character, ü included
  EXPECT_EQ(ids(f), Ids{4});
}

TEST_F(SearchTest, PlayerMatchesEitherColour) {
  search::GameFilter f;
  f.player = search::NamePattern{"carlsen, magnus"};
  EXPECT_EQ(ids(f), (Ids{1, 2, 3}));
  f.player = search::NamePattern{"*kamura*"};
  EXPECT_EQ(ids(f), (Ids{1, 4}));
  f.player = search::NamePattern{"MULLER, HANS"};  // case and accents folded
  EXPECT_EQ(ids(f), (Ids{3, 4}));
}

TEST_F(SearchTest, PunctuationInNamesSeparatesWords) {
  search::GameFilter f;
  f.white = search::NamePattern{"Test_Player%"};
  EXPECT_EQ(ids(f), Ids{5});
  f.white = search::NamePattern{"TestXPlayer%"};
  EXPECT_EQ(ids(f), Ids{});
  f.white = search::NamePattern{"test player"};
  EXPECT_EQ(ids(f), Ids{5});
  f.white = search::NamePattern{"%_"};  // no word at all: no name
  EXPECT_EQ(ids(f), Ids{});
}

TEST_F(SearchTest, EloBoundsApplyToBothPlayers) {
  search::GameFilter f;
  f.min_elo = 2200;
  EXPECT_EQ(ids(f), (Ids{1, 5}));
  f.min_elo.reset();
  f.max_elo = 2500;
  EXPECT_EQ(ids(f), (Ids{2, 5}));  // game 3 has no Black rating
  f.min_elo = 2150;
  EXPECT_EQ(ids(f), (Ids{5}));
}

TEST_F(SearchTest, PartialDatesBoundWholeYearsAndMonths) {
  auto from = [&](std::string_view text) {
    search::GameFilter f;
    f.date_from_key = search::parse_date_bound(text, false).value();
    return f;
  };
  auto to = [&](std::string_view text) {
    search::GameFilter f;
    f.date_to_key = search::parse_date_bound(text, true).value();
    return f;
  };
  EXPECT_EQ(ids(from("2019")), (Ids{1, 2, 3, 6, 7, 8}));
  EXPECT_EQ(ids(from("2019.05")), (Ids{1, 3, 6, 7, 8}));
  EXPECT_EQ(ids(to("2019")), (Ids{1, 2, 5}));
  EXPECT_EQ(ids(to("2019.04")), (Ids{5}));  // game 2, of "2019.??.??", may be after April
  EXPECT_EQ(ids(to("2019.??.??")), (Ids{1, 2, 5}));
  search::GameFilter june = from("2021.06.01");
  june.date_to_key = to("2021.06.07").date_to_key;
  EXPECT_EQ(ids(june), Ids{6});
}

TEST_F(SearchTest, ResultCodes) {
  auto with = [&](std::string_view text) {
    search::GameFilter f;
    f.result = search::parse_result(text).value();
    return ids(f);
  };
  EXPECT_EQ(with("1-0"), (Ids{1, 5}));
  EXPECT_EQ(with("0-1"), (Ids{2, 6}));
  EXPECT_EQ(with("1/2-1/2"), (Ids{3, 7}));
  EXPECT_EQ(with("*"), (Ids{4, 8}));
}

TEST_F(SearchTest, EventAndSite) {
  search::GameFilter f;
  f.event = search::NamePattern{"club"};
  EXPECT_EQ(ids(f), (Ids{3, 4, 5}));
  f.event = search::NamePattern{"champ*"};
  EXPECT_EQ(ids(f), Ids{5});
  f.event.reset();
  f.site = search::NamePattern{"LICHESS*"};
  EXPECT_EQ(ids(f), Ids{2});
  f.site = search::NamePattern{"berlin"};
  f.event = search::NamePattern{"Club Championship"};
  EXPECT_EQ(ids(f), Ids{5});
}

TEST_F(SearchTest, EcoCodeRangeAndVolume) {
  // Games without an ECO tag get the computed code; read them back to build expectations.
  store::Database db(db_path_, store::Database::Mode::ReadOnly);
  std::map<int64_t, std::string> eco;
  store::Statement s = db.prepare("SELECT id, eco, eco_source FROM games");
  while (s.step()) eco[s.column_int64(0)] = std::string(s.column_text(1));
  EXPECT_EQ(eco[1], "C60");
  EXPECT_EQ(eco[3], "B90");
  auto expected = [&](std::string_view low, std::string_view high) {
    Ids out;
    for (auto& [id, code] : eco)
      if (!code.empty() && code >= low && code.substr(0, high.size()) <= high) out.push_back(id);
    return out;
  };
  for (auto [text, low, high] : {std::tuple{"C60", "C60", "C60"}, std::tuple{"c60-c99", "C60", "C99"},
                                 std::tuple{"C", "C", "C"}, std::tuple{"A00-B99", "A00", "B99"}}) {
    search::GameFilter f;
    f.eco = search::parse_eco_range(text).value();
    EXPECT_EQ(ids(f), expected(low, high)) << text;
  }
  search::GameFilter c60;
  c60.eco = search::parse_eco_range("C60").value();
  EXPECT_EQ(ids(c60), Ids{1});
}

TEST_F(SearchTest, TimeControlPatterns) {
  auto with = [&](std::string_view pattern) {
    search::GameFilter f;
    f.time_control = search::TimeControlMatcher::parse(pattern).value();
    return ids(f);
  };
  EXPECT_EQ(with("180+2"), Ids{1});
  EXPECT_EQ(with("40/7200:3600"), Ids{5});
  EXPECT_EQ(with("bullet"), Ids{7});
  EXPECT_EQ(with("?"), (Ids{4, 8}));  // no TimeControl tag counts as unknown
  // Everything else: the library's matcher decides, once per distinct value.
  search::TimeControlMatcher blitz = *search::TimeControlMatcher::parse("blitz");
  std::map<int64_t, std::string> values = {{1, "180+2"}, {2, "600"}, {3, "-"}, {4, "?"},
                                           {5, "40/7200:3600"}, {6, "300+0"}, {7, "60+0"}, {8, "?"}};
  Ids expected;
  for (auto& [id, v] : values)
    if (blitz.matches(v)) expected.push_back(id);
  EXPECT_EQ(with("blitz"), expected);
}

TEST_F(SearchTest, PlyBounds) {
  search::GameFilter f;
  f.min_plies = 10;
  EXPECT_EQ(ids(f), (Ids{3, 5}));
  f.max_plies = 10;
  EXPECT_EQ(ids(f), Ids{3});
  f.min_plies.reset();
  f.max_plies = 4;
  EXPECT_EQ(ids(f), (Ids{2, 8}));
}

TEST_F(SearchTest, FiltersCombineWithAnd) {
  search::GameFilter f;
  f.player = search::NamePattern{"carlsen, magnus"};
  f.result = 1;
  EXPECT_EQ(ids(f), Ids{1});
  f.result.reset();
  f.date_from_key = 20200000;
  EXPECT_EQ(ids(f), Ids{3});
}

TEST_F(SearchTest, OrderOffsetAndLimit) {
  search::SearchOptions o;
  o.order = search::GameOrder::Date;  // unknown dates last
  EXPECT_EQ(ids(o), (Ids{5, 2, 1, 3, 6, 7, 8, 4}));
  o.order = search::GameOrder::Elo;  // a lone rating counts for both players
  EXPECT_EQ(ids(o), (Ids{1, 2, 5, 3, 4, 6, 7, 8}));
  o.order = search::GameOrder::Id;
  o.offset = 2;
  o.limit = 3;
  EXPECT_EQ(ids(o), (Ids{3, 4, 5}));
  o.offset = 7;
  EXPECT_EQ(ids(o), Ids{8});
  o.limit = 0;
  EXPECT_EQ(ids(o), Ids{});
}

TEST_F(SearchTest, CountAgreesWithTheRows) {
  store::Database db(db_path_, store::Database::Mode::ReadOnly);
  search::SearchOptions o;
  o.filter.event = search::NamePattern{"club*"};
  EXPECT_EQ(search::GameSearch(db, o).count(), 3);
  o.offset = 1;
  o.limit = 1;
  EXPECT_EQ(search::GameSearch(db, o).count(), 1);
  search::SearchOptions p;
  p.filter.position = board_of("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
  EXPECT_EQ(search::GameSearch(db, p).count(), 3);
}

TEST_F(SearchTest, PositionFoundAtEveryPly) {
  EXPECT_EQ(plies(position("r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4")),
            (Plies{{1, {6}}}));
  EXPECT_EQ(plies(position(kStartFen)), (Plies{{1, {0}}, {2, {0}}, {3, {0}}, {4, {0}}, {5, {0}}, {6, {0}}, {7, {0}}}));
  // Reached twice in game 7 (the knights went out and back), and late in game 6.
  EXPECT_EQ(plies(position("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")),
            (Plies{{1, {2}}, {6, {2}}, {7, {2, 6}}}));
}

TEST_F(SearchTest, CastlingRightsTellPositionsApart) {
  // Game 6 walked both kings out and back: same placement, no castling rights.
  EXPECT_EQ(plies(position("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w - - 4 4")), (Plies{{6, {6}}}));
  EXPECT_EQ(plies(position("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w Kq - 4 4")), Plies{});
}

TEST_F(SearchTest, CapturableEnPassantTellsPositionsApart) {
  // After 2...d5 in game 4 White can take en passant; game 5 reaches the same placement
  // at ply 12 with no double step just played.
  EXPECT_EQ(plies(position("rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3")), (Plies{{4, {4}}}));
  EXPECT_EQ(plies(position("rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 7")), (Plies{{5, {12}}}));
}

TEST_F(SearchTest, EnPassantSquareNoPawnCanTakeIsIgnored) {
  const Plies expected = {{3, {2}}};
  EXPECT_EQ(plies(position("rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2")), expected);
  EXPECT_EQ(plies(position("rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")), expected);
}

TEST_F(SearchTest, SetUpPositionsAreSearchedFromTheirFen) {
  EXPECT_EQ(plies(position("4k3/8/8/8/8/8/4P3/4K3 b - - 0 40")), (Plies{{8, {0}}}));
  EXPECT_EQ(plies(position("8/8/4k3/8/4P3/8/8/4K3 w - - 1 42")), (Plies{{8, {3}}}));
}

TEST_F(SearchTest, PositionAndHeaderFiltersCombine) {
  search::GameFilter f = position("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
  f.result = 3;
  EXPECT_EQ(plies(f), (Plies{{6, {2}}}));
  // The other strategy: one pass over the filtered games merged with the candidates.
  EXPECT_EQ(plies(f, 0), (Plies{{6, {2}}}));
  f.result.reset();
  f.time_control = *search::TimeControlMatcher::parse("*+0");
  EXPECT_EQ(plies(f, 0), (Plies{{6, {2}}, {7, {2, 6}}}));
}

TEST_F(SearchTest, PositionSearchHonoursOrderOffsetAndLimit) {
  search::SearchOptions o;
  o.filter = position("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
  o.order = search::GameOrder::Date;
  EXPECT_EQ(ids(o), (Ids{1, 6, 7}));
  o.order = search::GameOrder::Elo;
  EXPECT_EQ(ids(o), (Ids{1, 6, 7}));
  o.offset = 1;
  o.limit = 1;
  EXPECT_EQ(ids(o), (Ids{6}));
}

TEST(GameFilterParse, EcoRanges) {
  Parsed<search::EcoRange> r = search::parse_eco_range("C60");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->low, "C60");
  EXPECT_EQ(r->high_exclusive, "C61");
  r = search::parse_eco_range("b20-B99");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->low, "B20");
  EXPECT_EQ(r->high_exclusive, "B9:");
  r = search::parse_eco_range("E");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->low, "E");
  EXPECT_EQ(r->high_exclusive, "F");
  r = search::parse_eco_range("b2");  // a prefix is its ten codes
  ASSERT_TRUE(r);
  EXPECT_EQ(r->low, "B2");
  EXPECT_EQ(r->high_exclusive, "B3");
  for (std::string_view bad : {"", "F00", "C6x", "C600", "C99-C60", "C-C60", "Cxx", "C60-", "C6-C60"}) {
    r = search::parse_eco_range(bad);
    ASSERT_FALSE(r) << bad;
    EXPECT_NE(r.error().find("ECO"), std::string::npos);
  }
}

TEST(GameFilterParse, DateBounds) {
  auto key = [](std::string_view text, bool upper) { return search::parse_date_bound(text, upper).value(); };
  EXPECT_EQ(key("2019", false), 20190000);
  EXPECT_EQ(key("2019", true), 20199999);
  EXPECT_EQ(key("2019.05", true), 20190599);
  EXPECT_EQ(key("2019-05-17", false), 20190517);
  EXPECT_EQ(key("2019.??.??", false), 20190000);
  // Bounds that cover whole months are their month's or year's key.
  EXPECT_EQ(key("2019.05.01", false), 20190500);
  EXPECT_EQ(key("2019.01.01", false), 20190000);
  EXPECT_EQ(key("2019.05.31", true), 20190599);
  EXPECT_EQ(key("2019.02.28", true), 20190299);
  EXPECT_EQ(key("2020.02.28", true), 20200228);  // a leap year
  EXPECT_EQ(key("2019.12.31", true), 20199999);
  EXPECT_EQ(key("2019.12", true), 20199999);
  EXPECT_EQ(key("2019.??.17", false), 20190000);
  for (std::string_view bad : {"", "19", "2019.5", "2019.13", "2019.05.32", "2019.05.17.1", "????", "2019."})
    EXPECT_FALSE(search::parse_date_bound(bad, false)) << bad;
}

TEST(GameFilterParse, ResultsOrdersAndLikePatterns) {
  const Parsed<int> r = search::parse_result("1/2-1/2");
  ASSERT_TRUE(r);
  EXPECT_EQ(*r, 2);
  EXPECT_FALSE(search::parse_result("1-1"));
  const Parsed<search::GameOrder> o = search::parse_order("elo");
  ASSERT_TRUE(o);
  EXPECT_EQ(*o, search::GameOrder::Elo);
  EXPECT_FALSE(search::parse_order("name"));
  EXPECT_EQ(search::like_pattern(search::NamePattern{"a*b%c_d\\"}), "a%b\\%c\\_d\\\\");
}

}  // namespace
}  // namespace pgnbase::query
