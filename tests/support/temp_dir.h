// Temporary folders for tests: TempDir, a fresh folder removed with everything in it
// when the object dies, and TempDirTest, a GoogleTest fixture with one per test (dir_).
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

namespace pgnbase::test {

// A new folder under the system temp folder, named pgnbase-LABEL-XXXXXX (mkdtemp), so
// that one left behind by a crash tells which test made it; removed with everything in
// it when the object dies. Not copyable.
class TempDir {
 public:
  explicit TempDir(std::string_view label = "test") {
    std::string name = "pgnbase-" + std::string(label) + "-XXXXXX";
    std::replace(name.begin(), name.end(), '/', '-');  // parameterized names: Prefix/Suite.Test/0
    std::string pattern = (std::filesystem::temp_directory_path() / name).string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("cannot make a temporary folder " + pattern);
    path_ = pattern;
    // rwxr-xr-x rather than mkdtemp's rwx------: some tests run a program as another user
    // (nobody) on files inside.
    using std::filesystem::perms;
    std::filesystem::permissions(
        path_, perms::owner_all | perms::group_read | perms::group_exec | perms::others_read | perms::others_exec);
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  // The path of name inside the folder.
  std::string file(std::string_view name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

// A fixture with a fresh temporary folder per test in dir_, named after the test and
// removed after it. A fixture that overrides SetUp calls this one first; one that
// overrides TearDown calls this one last.
class TempDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    temp_.emplace(std::string(info->test_suite_name()) + "-" + info->name());
    dir_ = temp_->path();
  }
  void TearDown() override { temp_.reset(); }

  std::filesystem::path dir_;

 private:
  std::optional<TempDir> temp_;
};

}  // namespace pgnbase::test
