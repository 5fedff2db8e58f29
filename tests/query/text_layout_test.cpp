// Terminal widths of wide and combining characters, tables that stay aligned with them,
// cuts that keep a path's file name, --wide, and RFC 4180 CSV read back strictly.
#include <gtest/gtest.h>

#include "query/csv_writer.h"
#include "query/display_width.h"
#include "query/text_table.h"
#include "csv_reader.h"
#include "query_test_support.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"

namespace pgnbase {
namespace {

using query::display_width;

TEST(DisplayWidth, WideAndCombiningCharacters) {
  EXPECT_EQ(display_width("Carlsen"), 7u);
  EXPECT_EQ(display_width("Kramník"), 7u);             // precomposed í
  EXPECT_EQ(display_width("Kramni\xCC\x81k"), 7u);     // i + U+0301 combining acute
  EXPECT_EQ(display_width("丁立人"), 6u);               // CJK: two columns each
  EXPECT_EQ(display_width("이세돌"), 6u);               // Hangul
  EXPECT_EQ(display_width("🏆 cup"), 6u);               // emoji: two
  EXPECT_EQ(display_width("♔♕"), 2u);                   // chess symbols: one each
}

TEST(DisplayWidth, FittingNeverSplitsACharacter) {
  EXPECT_EQ(query::fitting_prefix("丁立人", 5), "丁立");
  EXPECT_EQ(query::fitting_prefix("Kramni\xCC\x81k", 6), "Kramni\xCC\x81");  // the accent stays with its i
  EXPECT_EQ(query::fitting_suffix("丁立人", 3), "人");
  EXPECT_EQ(query::fitting_suffix("ab\xCC\x81" "c", 2), "b\xCC\x81" "c");
  EXPECT_EQ(query::fitting_suffix("ab\xCC\x81" "c", 1), "c");  // no orphaned combining mark
}

// Each row's second column starts at the same terminal column.
void expect_aligned(const std::string& text) {
  size_t column = std::string::npos;
  size_t start = 0;
  for (size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1) {
    const std::string line = text.substr(start, end - start);
    const size_t gap = line.find("  ");
    ASSERT_NE(gap, std::string::npos) << line;
    size_t second = gap;
    while (line[second] == ' ') ++second;
    const size_t at = display_width(line.substr(0, second));
    if (column == std::string::npos) column = at;
    EXPECT_EQ(at, column) << line;
  }
}

std::string table_text(const std::vector<std::vector<std::string>>& rows, std::vector<query::TextTable::Column> columns,
                       bool wide = false, size_t fit = 0) {
  test::TempDir dir;
  {
    io::OutputFile out(dir.file("t.txt"));
    query::TextTable table(std::move(columns), out, wide);
    table.fit_to(fit);
    for (const auto& r : rows) table.add_row(r);
    table.finish();
    out.close();
  }
  return test::read_file(dir.file("t.txt"));
}

TEST(TextTable, ColumnsStayAlignedWithWideCharacters) {
  const std::string text = table_text({{"Ding Liren", "1"}, {"丁立人", "2"}, {"Kramni\xCC\x81k", "3"}, {"🏆 x", "4"}},
                                      {{"player", false, 20}, {"n", true, 3}});
  expect_aligned(text);
  EXPECT_NE(text.find("丁立人"), std::string::npos);
}

TEST(TextTable, PathsAreCutAtTheStartSoTheFileNameStays) {
  query::TextTable::Column path{"source", false, 20};
  path.keep_end = true;
  const std::string dir = "/a/long/directory/that/holds/many/files/";
  const std::string text = table_text({{dir + "first-file.pgn", "1"}, {dir + "second-file.pgn", "2"}},
                                      {path, {"n", true, 3}});
  EXPECT_NE(text.find("first-file.pgn"), std::string::npos) << text;
  EXPECT_NE(text.find("second-file.pgn"), std::string::npos) << text;
  EXPECT_EQ(text.find("/a/long"), std::string::npos) << text;  // the directory is what was cut
  EXPECT_NE(text.find("\n~"), std::string::npos) << text;
  expect_aligned(text);
}

// A search table of long names fits 80 and 60 columns: the widest text columns narrow
// first, ids and ratings stay whole; --wide keeps every cell.
TEST(TextTable, FitsTheTerminalNarrowingTheWidestColumnsFirst) {
  const std::vector<query::TextTable::Column> columns = {
      {"id", true, 12}, {"White", false, 28}, {"Elo", true, 5}, {"Black", false, 28}, {"Elo", true, 5},
      {"Result", false, 7}, {"Date", false, 10}, {"ECO", false, 4}, {"Event", false, 40}};
  const std::vector<std::vector<std::string>> rows = {
      {"1459666", "Vachier-Lagrave, Maxime", "2760", "Nepomniachtchi, Ian", "2795", "1/2-1/2", "2021.06.19", "C42",
       "FIDE World Cup 2021 Sochi RUS (knockout)"},
      {"7", "Carlsen, Magnus", "2855", "Duda, Jan-Krzysztof", "2760", "0-1", "2020.10.10", "A05", "Altibox Norway"}};
  auto widest_line = [](const std::string& text) {
    size_t widest = 0, start = 0;
    for (size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1)
      widest = std::max(widest, query::display_width(std::string_view(text).substr(start, end - start)));
    return widest;
  };
  const std::string full = table_text(rows, columns, true);
  EXPECT_GT(widest_line(full), 80u);
  for (size_t width : {80u, 60u}) {
    const std::string fitted = table_text(rows, columns, false, width);
    EXPECT_LE(widest_line(fitted), width) << fitted;
    EXPECT_NE(fitted.find("1459666"), std::string::npos);  // ids whole
    EXPECT_NE(fitted.find("2795"), std::string::npos);
    if (width == 80) {  // the widest narrow first: the date stays whole
      EXPECT_NE(fitted.find("2021.06.19"), std::string::npos) << fitted;
    }
  }
  EXPECT_NE(table_text(rows, columns, true, 60).find("FIDE World Cup 2021 Sochi RUS (knockout)"), std::string::npos);
}

TEST(TextTable, WideCutsNothing) {
  const std::string name(50, 'x');
  EXPECT_EQ(table_text({{name, "1"}}, {{"name", false, 10}, {"n", true, 3}}).find(name), std::string::npos);
  EXPECT_NE(table_text({{name, "1"}}, {{"name", false, 10}, {"n", true, 3}}, true).find(name), std::string::npos);
}

TEST(Csv, FieldsRoundTripThroughAStrictReader) {
  const std::vector<std::string> fields = {"plain", "with, comma", "say \"hi\"", "two\nlines", "", "Kramník",
                                           "carriage\r\nreturn"};
  test::TempDir dir;
  {
    io::OutputFile out(dir.file("t.csv"));
    query::CsvWriter csv({"a", "b", "c", "d", "e", "f", "g"}, out);
    csv.add_row(fields);
    out.close();
  }
  const std::string text = test::read_file(dir.file("t.csv"));
  EXPECT_EQ(text.substr(0, 15), "a,b,c,d,e,f,g\r\n");
  auto records = csv_check::parse(text);
  ASSERT_TRUE(records.has_value()) << text;
  ASSERT_EQ(records->size(), 2u);
  EXPECT_EQ((*records)[1], fields);
}

TEST(Csv, Latin1BytesBecomeUtf8) {
  std::string out;
  query::append_csv_field("Kramn\xEDk", out);  // í in Latin-1
  EXPECT_EQ(out, "Kramník");
}

}  // namespace
}  // namespace pgnbase
