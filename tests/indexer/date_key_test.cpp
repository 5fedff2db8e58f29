// games.date_key from the Date tag in every form real files write, the UTCDate fallback,
// and the Date text kept as written; checked on the real collections where present.
#include "store/date_key.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "core/pgn_reader.h"
#include "store/tag_codec.h"
#include "tests/support/files.h"
#include "tests/support/shared_data.h"

namespace pgnbase::indexer {
namespace {

namespace fs = std::filesystem;

TEST(DateKey, EveryFormRealFilesWrite) {
  const std::map<std::string, int64_t> keys = {
      {"1957.05.17", 19570517}, {"1957", 19570000},       {"1957.??.??", 19570000}, {"1957.05", 19570500},
      {"1957.05.??", 19570500}, {"1957-05-17", 19570517}, {"1957/05/17", 19570517}, {" 1957.??.?? ", 19570000},
      {"\t1957.05.17", 19570517}, {"2012.8.1", 20120801}, {"2013.5.06", 20130506}, {"1957.00.00", 19570000},
      {"1957.05.00", 19570500}, {"1957.?.?", 19570000},   {"1957-05", 19570500},    {"1957/05/??", 19570500}};
  for (const auto& [text, key] : keys) EXPECT_EQ(store::date_key_of(text), key) << "'" << text << "'";
}

TEST(DateKey, ImpossibleMonthOrDayKeepsWhatIsSure) {
  EXPECT_EQ(store::date_key_of("2013.30.4"), 20130000);  // day and month swapped: only the year is sure
  EXPECT_EQ(store::date_key_of("2012.14.3"), 20120000);
  EXPECT_EQ(store::date_key_of("1959.02.30"), 19590200);
  EXPECT_EQ(store::date_key_of("1960.02.29"), 19600229);  // a leap year
  EXPECT_EQ(store::date_key_of("1959.02.29"), 19590200);
  EXPECT_EQ(store::date_key_of("1959.??.17"), 19590000);  // a day without its month
}

TEST(DateKey, UnknownYearOrNoDateHasNoKey) {
  for (std::string_view text : {"????.??.??", "????", "", " ", "?", "57", "19570", "1957.05.17.1", "1957..05", "1957.",
                                "May 1957", "1957.May", "1957.05.17 (?)", "17.05.1957", "0000.00.00", "1957.005.17"})
    EXPECT_EQ(store::date_key_of(text), std::nullopt) << "'" << text << "'";
}

TEST(DateKey, DaysInMonth) {
  EXPECT_EQ(store::days_in_month(1959, 1), 31);
  EXPECT_EQ(store::days_in_month(1959, 2), 28);
  EXPECT_EQ(store::days_in_month(1960, 2), 29);
  EXPECT_EQ(store::days_in_month(1900, 2), 28);
  EXPECT_EQ(store::days_in_month(2000, 2), 29);
  EXPECT_EQ(store::days_in_month(1959, 4), 30);
  EXPECT_EQ(store::days_in_month(1959, 12), 31);
}

store::HeaderColumns columns_of(const std::vector<store::Tag>& tags) {
  store::HeaderColumns h;
  std::string blob;
  store::split_tags(tags, h, blob);
  return h;
}

TEST(DateKey, DateTextIsKeptAsWritten) {
  const store::HeaderColumns h = columns_of({{"Date", " 2007.??.??"}});
  EXPECT_EQ(h.date, " 2007.??.??");
  EXPECT_EQ(h.date_key, 20070000);
}

// lichess exports carry UTCDate; some have no Date or an unknown one.
TEST(DateKey, HandMadeLichessGameWithoutDateTakesUtcDate) {
  const store::HeaderColumns h = columns_of({{"Event", "Casual game"}, {"UTCDate", "2019.05.17"}, {"UTCTime", "19:28:36"}});
  EXPECT_EQ(h.date, std::nullopt);
  EXPECT_EQ(h.date_key, 20190517);
}

TEST(DateKey, HandMadeLichessGameWithUnknownDateTakesUtcDate) {
  const store::HeaderColumns h = columns_of({{"Date", "????.??.??"}, {"UTCDate", "2019.05.17"}});
  EXPECT_EQ(h.date, "????.??.??");
  EXPECT_EQ(h.date_key, 20190517);
}

TEST(DateKey, KnownDateWinsOverUtcDate) {
  EXPECT_EQ(columns_of({{"Date", "2019.05.17"}, {"UTCDate", "2019.05.18"}}).date_key, 20190517);
  EXPECT_EQ(columns_of({{"Date", "2019"}, {"UTCDate", "2019.05.18"}}).date_key, 20190000);
  EXPECT_EQ(columns_of({{"UTCDate", "????.??.??"}}).date_key, std::nullopt);
}

// Date and UTCDate of every game of a real file, in order ("" when absent).
struct DateTags : PgnVisitorBase {
  std::vector<std::vector<store::Tag>> games;
  void begin_game(uint64_t, uint32_t) { games.emplace_back(); }
  void tag(std::string_view name, std::string_view value) {
    if (name == "Date" || name == "UTCDate") games.back().push_back({std::string(name), std::string(value)});
  }
};

std::vector<std::vector<store::Tag>> date_tags_of(const fs::path& file) {
  const std::string content = test::read_file(file);
  DateTags tags;
  PgnReader reader(content);
  reader.read_all(tags);
  return tags.games;
}

// pgn-extract's Fischer and Petrosian collections date most games by the year alone.
TEST(DateKey, FischerAndPetrosianYearOnlyDatesHaveTheirYear) {
  PGNBASE_REQUIRE_SHARED("nasty/pgn-extract-tests/fischer.pgn", "nasty/pgn-extract-tests/petrosian.pgn");
  size_t year_only = 0, games = 0;
  for (const char* name : {"fischer.pgn", "petrosian.pgn"}) {
    for (const std::vector<store::Tag>& tags : date_tags_of(test::shared_data("nasty/pgn-extract-tests") / name)) {
      ++games;
      ASSERT_EQ(tags.size(), 1u);
      const std::string& date = tags[0].value;
      const std::optional<int64_t> key = columns_of(tags).date_key;
      ASSERT_TRUE(key.has_value()) << name << ": " << date;
      EXPECT_EQ(*key / 10000, std::stoi(date.substr(0, 4))) << date;
      if (date.size() == 4) {
        ++year_only;
        EXPECT_EQ(*key % 10000, 0) << date;
      }
    }
  }
  EXPECT_EQ(games, 69u);
  EXPECT_EQ(year_only, 37u);  // 30 in fischer.pgn, 7 in petrosian.pgn
}

// The pychess lichess studies: 401 games have UTCDate and no Date; 33 write one-digit
// months or days (2012.8.1), some with day and month swapped (2013.30.4); one writes a
// blank before the year. Every game gets a date_key.
TEST(DateKey, PychessStudiesWithoutDateAreDatedByUtcDate) {
  PGNBASE_REQUIRE_SHARED("annotated/pychess-learn-lichess-studies.pgn");
  size_t utc_only = 0, dated = 0, games = 0;
  const fs::path studies = test::shared_data("annotated/pychess-learn-lichess-studies.pgn");
  for (const std::vector<store::Tag>& tags : date_tags_of(studies)) {
    ++games;
    const bool has_date = !tags.empty() && tags[0].name == "Date";
    const std::optional<int64_t> key = columns_of(tags).date_key;
    if (!has_date && !tags.empty()) {
      ++utc_only;
      EXPECT_EQ(key, store::date_key_of(tags[0].value));
    }
    dated += key.has_value();
  }
  EXPECT_EQ(games, 1319u);
  EXPECT_EQ(utc_only, 401u);
  EXPECT_EQ(dated, 1319u);
}

}  // namespace
}  // namespace pgnbase::indexer
