// pgn-index on zip members that other tools write: names flagged UTF-8 (Python's
// zipfile, Java's jar, Windows), and several members of one name, each told apart as
// ARCHIVE:NAME, ARCHIVE:NAME#2, ... Fixtures: tests/data/archives (README there), real
// games of tools/sample.
#include "indexer/store/database.h"
#include "tests/cli/cli_support.h"

namespace pgnbase::cli_test {
namespace {

const std::string kArchives = PGNBASE_SOURCE_DIR "/tests/data/archives/";

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

}  // namespace
}  // namespace pgnbase::cli_test
