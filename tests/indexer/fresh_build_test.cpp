// A new database is built under a private name and published by a rename that never
// replaces (indexer/fresh_build.h); a second build of the same path waits for the first.
#include "indexer/fresh_build.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <thread>

#include "tests/support/files.h"
#include "tests/support/temp_dir.h"

namespace pgnbase::indexer {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

class FreshBuildTest : public test::TempDirTest {
 protected:
  std::string db() const { return (dir_ / "games.db").string(); }
};

TEST_F(FreshBuildTest, BuildsUnderAPrivateNameAndPublishesByRenaming) {
  std::optional<FreshBuild> build = FreshBuild::start(db());
  ASSERT_TRUE(build);
  EXPECT_EQ(build->build_path(), db() + "-building");
  EXPECT_TRUE(fs::exists(build->build_path()));
  EXPECT_FALSE(fs::exists(db()));
  test::write_file(build->build_path(), "the new database");
  build->publish();
  EXPECT_EQ(test::read_file(db()), "the new database");
  build.reset();
  EXPECT_FALSE(fs::exists(db() + "-building"));
  EXPECT_EQ(test::read_file(db()), "the new database");
  EXPECT_FALSE(FreshBuild::start(db())) << "a database that exists is appended to, not built";
}

TEST_F(FreshBuildTest, AnUnpublishedBuildIsRemoved) {
  {
    std::optional<FreshBuild> build = FreshBuild::start(db());
    ASSERT_TRUE(build);
    test::write_file(build->build_path(), "half a database");
  }
  EXPECT_FALSE(fs::exists(db() + "-building"));
  EXPECT_FALSE(fs::exists(db()));
}

TEST_F(FreshBuildTest, WhatAKilledBuildLeftIsEmptiedAndReused) {
  test::write_file(db() + "-building", "what a kill -9 left");
  test::write_file(db() + "-building-journal", "a hot journal that must not be rolled back into the next build");
  std::optional<FreshBuild> build = FreshBuild::start(db());
  ASSERT_TRUE(build);
  EXPECT_EQ(fs::file_size(build->build_path()), 0u);
  EXPECT_FALSE(fs::exists(db() + "-building-journal"));
}

TEST_F(FreshBuildTest, PublishNeverReplacesAFileThatAppearedMeanwhile) {
  std::optional<FreshBuild> build = FreshBuild::start(db());
  ASSERT_TRUE(build);
  test::write_file(build->build_path(), "the new database");
  test::write_file(db(), "someone else's");
  EXPECT_THROW(build->publish(), std::runtime_error);
  build.reset();
  EXPECT_EQ(test::read_file(db()), "someone else's");
  EXPECT_EQ(test::read_file(db() + "-building"), "the new database") << "the build is left for the user";
}

TEST_F(FreshBuildTest, ASecondBuildWaitsAndThenAppendsToWhatTheFirstPublished) {
  std::optional<FreshBuild> first = FreshBuild::start(db());
  ASSERT_TRUE(first);
  std::atomic<bool> told_to_wait = false;
  auto second = std::async(std::launch::async, [&] {
    return FreshBuild::start(db(), [&] { told_to_wait = true; }).has_value();
  });
  EXPECT_EQ(second.wait_for(300ms), std::future_status::timeout) << "the second build did not wait";
  EXPECT_TRUE(told_to_wait);
  test::write_file(first->build_path(), "published");
  first->publish();
  first.reset();
  EXPECT_FALSE(second.get()) << "the second import must append to the published database";
  EXPECT_EQ(test::read_file(db()), "published");
}

TEST_F(FreshBuildTest, ASecondBuildWaitingForAFailedOneBuildsItself) {
  std::optional<FreshBuild> first = FreshBuild::start(db());
  ASSERT_TRUE(first);
  auto second = std::async(std::launch::async, [&] { return FreshBuild::start(db()); });
  EXPECT_EQ(second.wait_for(300ms), std::future_status::timeout);
  first.reset();  // failed: removed unpublished
  std::optional<FreshBuild> own = second.get();
  ASSERT_TRUE(own);
  EXPECT_TRUE(fs::exists(own->build_path()));
  EXPECT_FALSE(fs::exists(db()));
}

}  // namespace
}  // namespace pgnbase::indexer
