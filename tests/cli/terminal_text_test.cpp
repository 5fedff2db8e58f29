// Tables and texts the programs print cannot drive the terminal (issue "Hardening,
// round 2", part 5): a tag holding ESC ] 0 ; ... BEL ESC [ 2 J must not retitle the
// window and clear the screen. Control characters come out escaped as \xHH, Latin-1
// names as UTF-8; a rejected game's original text stays byte for byte in a file.
#include <termios.h>

#include <gtest/gtest.h>

#include "tests/cli/cli_support.h"
#include "tests/support/files.h"

namespace pgnbase::cli_test {
namespace {

const std::string kRetitleAndClear = "\x1B]0;pwned\x07\x1B[2J";
const std::string kEscaped = "\\x1B]0;pwned\\x07\\x1B[2J";

// Every byte is printable UTF-8 text or a line break: no C0 (but '\n'), no DEL, and no
// C1 control either raw or encoded (C2 80..9F).
::testing::AssertionResult only_printable(const std::string& text) {
  for (size_t i = 0; i < text.size(); ++i) {
    const uint8_t c = uint8_t(text[i]);
    const bool c1 = c == 0xC2 && i + 1 < text.size() && uint8_t(text[i + 1]) >= 0x80 && uint8_t(text[i + 1]) <= 0x9F;
    if ((c < 0x20 && c != '\n') || c == 0x7F || c1 || (c >= 0x80 && c <= 0x9F && (i == 0 || uint8_t(text[i - 1]) < 0xC0)))
      return ::testing::AssertionFailure() << "control byte " << int(c) << " at " << i << " in:\n" << text;
  }
  return ::testing::AssertionSuccess();
}

// A pseudo-terminal in raw mode (no "\n" -> "\r\n"): the slave is the program's stdout.
class Terminal {
 public:
  Terminal() {
    master_ = posix_openpt(O_RDWR | O_NOCTTY);
    if (master_ < 0 || grantpt(master_) != 0 || unlockpt(master_) != 0) return;
    slave_ = open(ptsname(master_), O_RDWR | O_NOCTTY);
    termios mode{};
    if (slave_ >= 0 && tcgetattr(slave_, &mode) == 0) {
      cfmakeraw(&mode);
      tcsetattr(slave_, TCSANOW, &mode);
    }
  }
  ~Terminal() {
    if (slave_ >= 0) close(slave_);
    if (master_ >= 0) close(master_);
  }
  bool ok() const { return slave_ >= 0; }
  int slave() const { return slave_; }
  // What the program wrote, once it has exited (the output must fit the terminal's buffer).
  std::string drain() {
    close(slave_);
    slave_ = -1;
    std::string text;
    char buffer[4096];
    for (ssize_t n; (n = read(master_, buffer, sizeof buffer)) > 0;) text.append(buffer, size_t(n));
    return text;
  }

 private:
  int master_ = -1, slave_ = -1;
};

class TerminalText : public CliTest {
 protected:
  // A database with a hostile White, a Latin-1 Event, and a game rejected for its
  // hostile Variant tag.
  std::string hostile_database() {
    const std::string db = path("hostile.db");
    const std::string pgn = "[Event \"Gr\xFCnfeld Open\"]\n[White \"" + kRetitleAndClear + "\"]\n[Black \"B\"]\n" +
                            "[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n" +
                            "[Event \"Rejected\"]\n[Variant \"" + kRetitleAndClear + "\"]\n\n1. e4 *\n\n";
    Ran r = index({"-q", "-o", db, file("hostile.pgn", pgn)});
    EXPECT_EQ(r.code, 0) << r;
    return db;
  }
};

TEST_F(TerminalText, SearchTableEscapesControlCharactersAndShowsLatin1AsUtf8) {
  Ran r = query({"search", hostile_database()});
  ASSERT_EQ(r.code, 0) << r;
  EXPECT_TRUE(only_printable(r.out));
  EXPECT_NE(r.out.find(kEscaped), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Gr\xC3\xBCnfeld Open"), std::string::npos) << r.out;
  // JSON keeps the exact characters, escaped the JSON way.
  Ran json = query({"search", path("hostile.db"), "--format", "jsonl"});
  EXPECT_NE(json.out.find("\\u001b]0;pwned\\u0007\\u001b[2J"), std::string::npos) << json.out;
}

TEST_F(TerminalText, StatsTableEscapesASourcePath) {
  const std::string db = path("stats.db");
  file("evil\x1B[31m.pgn", "[Event \"x\"]\n\n1. e4 *\n\n");
  Redirects in_work;
  in_work.working_dir = path("");  // a short relative path, so the column does not cut it
  ASSERT_EQ(index({"-q", "-o", db, "evil\x1B[31m.pgn"}, in_work).code, 0);
  Ran r = query({"stats", db});
  ASSERT_EQ(r.code, 0) << r;
  EXPECT_TRUE(only_printable(r.out));
  EXPECT_NE(r.out.find("evil\\x1B[31m.pgn"), std::string::npos) << r.out;
}

TEST_F(TerminalText, RejectsTableEscapesTheReason) {
  Ran r = query({"rejects", hostile_database()});
  ASSERT_EQ(r.code, 0) << r;
  EXPECT_TRUE(only_printable(r.out));
  EXPECT_NE(r.out.find("unsupported variant: " + kEscaped), std::string::npos) << r.out;
}

TEST_F(TerminalText, RejectedTextIsExactInAFileAndEscapedOnATerminal) {
  const std::string db = hostile_database();
  const std::string text_file = path("rejects.pgn");
  Ran to_file = query({"rejects", db, "-o", text_file});
  ASSERT_EQ(to_file.code, 0) << to_file;
  EXPECT_NE(test::read_file(text_file).find("[Variant \"" + kRetitleAndClear + "\"]"), std::string::npos)
      << "a file gets the original bytes, so that it re-imports";

  Terminal terminal;
  if (!terminal.ok()) GTEST_SKIP() << "no pseudo-terminal here";
  Redirects to_terminal;
  to_terminal.stdout_fd = terminal.slave();
  Ran shown = query({"rejects", db, "-o", "-"}, to_terminal);
  ASSERT_EQ(shown.code, 0) << shown;
  const std::string screen = terminal.drain();
  EXPECT_TRUE(only_printable(screen));
  EXPECT_NE(screen.find("[Variant \"" + kEscaped + "\"]\n\n1. e4 *\n"), std::string::npos) << screen;
}

TEST_F(TerminalText, PgnExportIsExactInAFileAndEscapedOnATerminal) {
  const std::string db = hostile_database();
  const std::string pgn = path("export.pgn");
  ASSERT_EQ(query({"export", db, "-o", pgn}).code, 0);
  EXPECT_NE(test::read_file(pgn).find("[White \"" + kRetitleAndClear + "\"]"), std::string::npos);

  Terminal terminal;
  if (!terminal.ok()) GTEST_SKIP() << "no pseudo-terminal here";
  Redirects to_terminal;
  to_terminal.stdout_fd = terminal.slave();
  Ran shown = query({"export", db, "-o", "-"}, to_terminal);
  ASSERT_EQ(shown.code, 0) << shown;
  const std::string screen = terminal.drain();
  EXPECT_TRUE(only_printable(screen));
  EXPECT_NE(screen.find("[White \"" + kEscaped + "\"]\n"), std::string::npos) << screen;
  EXPECT_NE(screen.find("[Event \"Gr\xC3\xBCnfeld Open\"]\n"), std::string::npos) << screen;
}

}  // namespace
}  // namespace pgnbase::cli_test
