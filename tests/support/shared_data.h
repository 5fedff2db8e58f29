// The project's real-game corpora: ../shared/data beside the repository, present on
// development machines only. Tests on the repository's own files (tests/data,
// tools/sample) always run; a test that needs the shared data starts with
// PGNBASE_REQUIRE_SHARED and skips itself, alone, with the missing path as its reason.
// The environment variable PGNBASE_SHARED_DATA names another folder; a folder that
// does not exist shows what a machine without the data runs:
//   PGNBASE_SHARED_DATA=/nonexistent ctest
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <initializer_list>
#include <string>

namespace pgnbase::test {

// The shared data folder (which may not exist).
inline std::filesystem::path shared_data() {
  if (const char* folder = std::getenv("PGNBASE_SHARED_DATA"); folder != nullptr && *folder != '\0') return folder;
  return std::filesystem::path(PGNBASE_SOURCE_DIR) / ".." / "shared" / "data";
}

// A path under the shared data folder.
inline std::filesystem::path shared_data(const std::filesystem::path& relative) { return shared_data() / relative; }

inline bool have_shared_data() { return std::filesystem::is_directory(shared_data()); }

// The first of paths (relative to the shared data folder, or absolute) that does not
// exist, as a skip reason; "" when all exist. No paths asks for the folder itself.
inline std::string missing_shared_data(std::initializer_list<std::filesystem::path> paths) {
  if (!have_shared_data()) return "no shared data folder " + shared_data().string() + " (see PGNBASE_SHARED_DATA)";
  for (const std::filesystem::path& path : paths) {
    const std::filesystem::path full = shared_data() / path;
    if (!std::filesystem::exists(full)) return "shared data file missing: " + full.string();
  }
  return "";
}

}  // namespace pgnbase::test

// Skips the current test (from its body or its fixture's SetUp) unless the shared
// data folder and each given path in it exist: PGNBASE_REQUIRE_SHARED("notation/x.pgn").
#define PGNBASE_REQUIRE_SHARED(...)                                                                     \
  do {                                                                                                  \
    if (const std::string pgnbase_missing = ::pgnbase::test::missing_shared_data({__VA_ARGS__});        \
        !pgnbase_missing.empty())                                                                       \
      GTEST_SKIP() << pgnbase_missing;                                                                  \
  } while (false)
