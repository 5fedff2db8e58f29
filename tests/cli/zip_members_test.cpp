// pgn-index on zip members that other tools write: names flagged UTF-8 (Python's
// zipfile, Java's jar, Windows), and several members of one name, each told apart as
// ARCHIVE:NAME, ARCHIVE:NAME#2, ... Fixtures: tests/data/archives (README there), real
// games of tools/sample. And a zip of thousands of one-game members, made here with
// libarchive, imported member by member.
#include "store/database.h"
#include "tests/support/archives.h"
#include "tests/cli/cli_support.h"
#include "tests/support/files.h"

namespace pgnbase::cli_test {
namespace {

const std::string kArchives = PGNBASE_SOURCE_DIR "/tests/data/archives/";

size_t occurrences(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size())) ++n;
  return n;
}

std::vector<std::string> column(const std::string& db, const std::string& sql) {
  store::Database d(db, store::Database::Mode::ReadOnly);
  store::Statement s = d.prepare(sql);
  std::vector<std::string> values;
  while (s.step()) values.emplace_back(s.column_text(0));
  return values;
}

class ZipMembers : public CliTest {};

TEST_F(ZipMembers, MemberFlaggedUtf8IsImported) {
  const std::string db = path("games.db");
  const std::string zip = kArchives + "utf8-name.zip";
  Ran r = index({"-o", db, zip});
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_NE(r.out.find(zip + ":Caf\xC3\xA9.pgn: 3 games found, 3 imported, 0 rejected"), std::string::npos) << r;
  EXPECT_EQ(column(db, "SELECT path FROM sources"), std::vector<std::string>{zip + ":Caf\xC3\xA9.pgn"});
  EXPECT_EQ(column(db, "SELECT COUNT(*) FROM games"), std::vector<std::string>{"3"});
}

TEST_F(ZipMembers, MembersOfOneNameAreEachImported) {
  const std::string db = path("games.db");
  const std::string zip = kArchives + "same-names.zip";
  Ran r = index({"-o", db, zip});
  EXPECT_EQ(r.code, 0) << r;
  for (const char* member : {":games.pgn: ", ":games.pgn#2: ", ":games.pgn#3: "})
    EXPECT_NE(r.out.find(zip + member + "3 games found, 3 imported, 0 rejected"), std::string::npos) << r;
  EXPECT_EQ(r.out.find("already in the database"), std::string::npos) << r;
  EXPECT_EQ(column(db, "SELECT path FROM sources ORDER BY id"),
            (std::vector<std::string>{zip + ":games.pgn", zip + ":games.pgn#2", zip + ":games.pgn#3"}));
  EXPECT_EQ(column(db, "SELECT COUNT(*) FROM games"), std::vector<std::string>{"9"});
}

TEST_F(ZipMembers, NumberedPathImportsExactlyThatMember) {
  const std::string db = path("games.db");
  const std::string zip = kArchives + "same-names.zip";
  Ran second = index({"-o", db, zip + ":games.pgn#2"});
  EXPECT_EQ(second.code, 0) << second;
  EXPECT_EQ(column(db, "SELECT COUNT(*) FROM games"), std::vector<std::string>{"3"});
  // The whole archive then adds the other two members: the second one's content is stored.
  Ran all = index({"-o", db, zip});
  EXPECT_EQ(all.code, 0) << all;
  EXPECT_NE(all.out.find(zip + ":games.pgn#2: already in the database (source 1)"), std::string::npos) << all;
  EXPECT_EQ(column(db, "SELECT COUNT(*) FROM games"), std::vector<std::string>{"9"});
  // A number past the last member is an error naming it.
  Ran none = index({"-o", db, zip + ":games.pgn#4"});
  EXPECT_EQ(none.code, 1) << none;
  EXPECT_NE(none.err.find("the zip archive has no member 'games.pgn#4'"), std::string::npos) << none;
}

TEST_F(ZipMembers, ReplaceReimportsEachMemberInPlaceOfItsOlderSource) {
  // --replace reads each member twice (its hash first, then the import), through two
  // readers that each go through the archive once.
  const std::string db = path("games.db");
  const std::string zip = kArchives + "same-names.zip";
  ASSERT_EQ(index({"-o", db, zip}).code, 0);
  Ran r = index({"-o", db, "--replace", zip});
  EXPECT_EQ(r.code, 0) << r;
  for (const char* member : {":games.pgn): 3 games", ":games.pgn#2): 3 games", ":games.pgn#3): 3 games"})
    EXPECT_NE(r.out.find(zip + member), std::string::npos) << r;
  for (const char* member : {":games.pgn: ", ":games.pgn#2: ", ":games.pgn#3: "})
    EXPECT_NE(r.out.find(zip + member + "3 games found, 3 imported, 0 rejected"), std::string::npos) << r;
  EXPECT_EQ(column(db, "SELECT path FROM sources ORDER BY id"),
            (std::vector<std::string>{zip + ":games.pgn", zip + ":games.pgn#2", zip + ":games.pgn#3"}));
  EXPECT_EQ(column(db, "SELECT COUNT(*) FROM games"), std::vector<std::string>{"9"});
}

// An exported club archive: 400 members of one game each. Each is its own source, and a
// second run finds every one already in the database. (Each member used to be found by
// walking the archive from its start, for the listing and again for the import: 1,000
// members took 13 s and 4,000 took 159 s; bench/README.md has today's figures. That the
// reading is one pass is checked on 1,000 members by CompressedInputTest; 400 keep this
// test quick in the sanitizer build.)
TEST_F(ZipMembers, ManyMembersAreManySources) {
  constexpr int kMembers = 400;
  std::vector<test::ZipMember> members;
  for (int i = 0; i < kMembers; ++i)
    members.push_back({"club/game-" + std::to_string(i) + ".pgn", random_games(1, uint32_t(1000 + i))});
  const std::string zip = path("club.zip");
  test::write_file(zip, test::make_zip(members));
  const std::string db = path("games.db");
  Ran first = index({"-j", "2", "-o", db, zip});
  ASSERT_EQ(first.code, 0) << first;
  EXPECT_EQ(occurrences(first.out, ": 1 game found, 1 imported, 0 rejected"), size_t(kMembers)) << first;
  EXPECT_NE(first.out.find(zip + ":club/game-399.pgn: 1 game found"), std::string::npos) << first;
  EXPECT_EQ(column(db, "SELECT COUNT(DISTINCT path) FROM sources WHERE path LIKE '%/club.zip:club/game-%.pgn'"),
            std::vector<std::string>{std::to_string(kMembers)});
  EXPECT_EQ(column(db, "SELECT COUNT(*) FROM sources"), std::vector<std::string>{std::to_string(kMembers)});
  EXPECT_EQ(column(db, "SELECT COUNT(*) FROM games"), std::vector<std::string>{std::to_string(kMembers)});
  Ran again = index({"-j", "2", "-o", db, zip});
  ASSERT_EQ(again.code, 0) << again;
  EXPECT_EQ(occurrences(again.out, ": already in the database (source "), size_t(kMembers)) << again;
  EXPECT_NE(again.out.find(zip + ":club/game-0.pgn: already in the database (source 1)"), std::string::npos) << again;
  EXPECT_EQ(column(db, "SELECT COUNT(*) FROM sources"), std::vector<std::string>{std::to_string(kMembers)});
  EXPECT_EQ(column(db, "SELECT COUNT(*) FROM games"), std::vector<std::string>{std::to_string(kMembers)});
}

}  // namespace
}  // namespace pgnbase::cli_test
