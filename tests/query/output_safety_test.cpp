// Outputs that cannot destroy data: an output naming an input (by any name) is found,
// and a file is only ever replaced whole, by rename, once it is complete.
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>

#include "io/file_identity.h"
#include "io/output_file.h"
#include "io/replacing_file.h"
#include "query_test_support.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"

namespace pgnbase::query {
namespace {

namespace fs = std::filesystem;
using test::read_file;
using test::TempDir;
using test::write_file;

// The names in dir, sorted.
std::vector<std::string> listing(const TempDir& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir.path())) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

TEST(InputFiles, SameFileUnderAnyNameIsAClash) {
  TempDir dir;
  const std::string db = dir.file("games.db");
  write_file(db, "database");
  fs::create_symlink(db, dir.file("link.db"));
  fs::create_hard_link(db, dir.file("hard.db"));
  write_file(dir.file("games.db-wal"), "wal");
  io::InputFiles inputs;
  inputs.add_database(db);
  for (const std::string& name : {db, dir.file("link.db"), dir.file("hard.db"), dir.path().string() + "/./games.db"}) {
    auto clash = inputs.clash(name);
    ASSERT_TRUE(clash.has_value()) << name;
    EXPECT_NE(clash->find("same file as the database '" + db + "'"), std::string::npos) << *clash;
  }
  EXPECT_TRUE(inputs.clash(dir.file("games.db-wal")).has_value()) << "the WAL holds committed pages";
  write_file(dir.file("other.pgn"), "other");
  EXPECT_FALSE(inputs.clash(dir.file("other.pgn")).has_value());
  EXPECT_FALSE(inputs.clash(dir.file("new.pgn")).has_value()) << "a file that does not exist yet";
  EXPECT_FALSE(inputs.clash("/dev/null").has_value());
}

TEST(ReplacingFile, CommitRenamesTheCompleteFileOverTheOldOne) {
  TempDir dir;
  const std::string path = dir.file("out.pgn");
  write_file(path, "old");
  io::ReplacingFile file(path);
  EXPECT_NE(file.write_path(), path);
  EXPECT_EQ(fs::path(file.write_path()).parent_path(), dir.path()) << "beside it: rename is atomic on one file system";
  write_file(file.write_path(), "new");
  EXPECT_EQ(read_file(path), "old") << "the asked name is untouched until commit";
  file.commit();
  EXPECT_EQ(read_file(path), "new");
  EXPECT_EQ(listing(dir), std::vector<std::string>{"out.pgn"});
}

TEST(ReplacingFile, WithoutCommitTheOldFileStaysAndTheTemporaryGoes) {
  TempDir dir;
  const std::string path = dir.file("out.pgn");
  write_file(path, "old");
  {
    io::ReplacingFile file(path);
    write_file(file.write_path(), "half of the ne");
  }
  EXPECT_EQ(read_file(path), "old");
  EXPECT_EQ(listing(dir), std::vector<std::string>{"out.pgn"});
  {
    io::ReplacingFile file(dir.file("fresh.pgn"));
  }
  EXPECT_EQ(listing(dir), std::vector<std::string>{"out.pgn"}) << "no empty file for a failed first write";
}

TEST(ReplacingFile, ALinkIsFollowedAndThePermissionsKept) {
  TempDir dir;
  const std::string target = dir.file("target.pgn"), link = dir.file("link.pgn");
  write_file(target, "old");
  fs::permissions(target, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  fs::create_symlink(target, link);
  io::ReplacingFile file(link);
  write_file(file.write_path(), "new");
  file.commit();
  EXPECT_TRUE(fs::is_symlink(link)) << "the link stays a link";
  EXPECT_EQ(read_file(target), "new");
  EXPECT_EQ(fs::status(target).permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
}

TEST(ReplacingFile, DevicesAreWrittenInPlace) {
  io::ReplacingFile file("/dev/null");
  EXPECT_TRUE(file.in_place());
  EXPECT_EQ(file.write_path(), "/dev/null");
  file.commit();
  struct stat info {};
  ASSERT_EQ(stat("/dev/null", &info), 0);
  EXPECT_TRUE(S_ISCHR(info.st_mode)) << "/dev/null must never be replaced by a file";
}

TEST(OutputFile, AnExceptionBeforeCloseLeavesTheOldFile) {
  TempDir dir;
  const std::string path = dir.file("export.pgn");
  write_file(path, "previous export");
  try {
    io::OutputFile out(path);
    out.buffer() = std::string(3 * io::OutputFile::kFlushBytes, 'x');
    out.flush();  // part of the new file is on disk, under the temporary name
    throw std::runtime_error("the search failed");
  } catch (const std::runtime_error&) {
  }
  EXPECT_EQ(read_file(path), "previous export");
  EXPECT_EQ(listing(dir), std::vector<std::string>{"export.pgn"});
  {
    io::OutputFile out(path);
    out.buffer() = "complete";
    out.close();
  }
  EXPECT_EQ(read_file(path), "complete");
  EXPECT_EQ(listing(dir), std::vector<std::string>{"export.pgn"});
}

}  // namespace
}  // namespace pgnbase::query
