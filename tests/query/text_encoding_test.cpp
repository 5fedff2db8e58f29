// Stored text as the outputs show it: one reading rule (valid UTF-8, else Latin-1) for
// JSON and tables, and tables that cannot be made to act on the terminal.
#include "query/text_encoding.h"

#include <gtest/gtest.h>

#include <cstdio>

#include "io/output_file.h"
#include "query/text_table.h"
#include "query_test_support.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"

namespace pgnbase::query {
namespace {

TEST(TextEncoding, ReadsUtf8AndFallsBackToLatin1ByteByByte) {
  const std::string text = "K\xC3\xADk\xED\xF0\x9F\x98\x80\xC0\xAF";  // ASCII, UTF-8 í, Latin-1 í, emoji, overlong
  std::vector<std::pair<char32_t, size_t>> read;
  for (size_t i = 0; i < text.size();) {
    const Character c = read_character(text, i);
    read.emplace_back(c.code_point, c.bytes);
    i += c.bytes;
  }
  const std::vector<std::pair<char32_t, size_t>> want = {{U'K', 1}, {U'í', 2}, {U'k', 1}, {U'í', 1},
                                                         {U'😀', 4}, {0xC0, 1}, {0xAF, 1}};
  EXPECT_EQ(read, want);
}

TEST(TextEncoding, PrintableEscapesC0DelAndC1AndConvertsLatin1) {
  // The hostile tag of the issue: set the window title, then clear the screen.
  EXPECT_EQ(printable("\x1B]0;pwned\x07\x1B[2J"), "\\x1B]0;pwned\\x07\\x1B[2J");
  EXPECT_EQ(printable("a\tb\nc\rd\x7F"), "a\\x09b\\x0Ac\\x0Dd\\x7F");
  // C1 CSI as valid UTF-8 (U+009B) and as a lone Latin-1 byte: both escaped.
  EXPECT_EQ(printable("\xC2\x9B" "31m|\x9B" "31m"), "\\x9B31m|\\x9B31m");
  // Latin-1 letters become UTF-8; valid UTF-8 and backslashes stay as they are.
  EXPECT_EQ(printable("Kram\xEDk, Kramn\xC3\xADk, a\\b"), "Kram\xC3\xADk, Kramn\xC3\xADk, a\\b");
}

TEST(TextEncoding, BlockTextKeepsItsLineBreaksButNotALoneCarriageReturn) {
  std::string out;
  append_printable("[Event \"x\"]\r\n1. e4\t*\n\x1B[2Jfake\rover", out, LineBreaks::Keep);
  EXPECT_EQ(out, "[Event \"x\"]\r\n1. e4\t*\n\\x1B[2Jfake\\x0Dover");
}

// Renders a table into a file and returns the text.
std::string render(const std::vector<std::vector<std::string>>& rows) {
  test::TempDir dir;
  const std::string path = dir.file("table.txt");
  {
    io::OutputFile out(path);
    TextTable table({{"name", false, 40}, {"n", true, 4}}, out);
    for (const auto& row : rows) table.add_row(row);
    table.finish();
    out.close();
  }
  return test::read_file(path);
}

TEST(TextTable, CellsCannotHoldControlCharactersOrLineBreaks) {
  const std::string text = render({{"\x1B]0;title\x07\x1B[2Jname", "1"}, {"two\nlines", "2"}});
  for (char c : text) EXPECT_TRUE(c == '\n' || (uint8_t(c) >= 0x20 && c != 0x7F)) << int(c);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 3) << text;
  EXPECT_NE(text.find("\\x1B]0;title\\x07\\x1B[2Jname"), std::string::npos) << text;
  EXPECT_NE(text.find("two\\x0Alines"), std::string::npos) << text;
}

TEST(TextTable, Latin1NamesAreShownAsUtf8AndAligned) {
  const std::string text = render({{"Kram\xEDk", "1"}, {"Kramn\xC3\xADk", "22"}});
  // Widths count characters: "Kramík" is 6 wide whichever encoding it was stored in.
  EXPECT_EQ(text, "name      n\nKramík    1\nKramník  22\n") << text;
}

}  // namespace
}  // namespace pgnbase::query
