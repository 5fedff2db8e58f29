#include "io/file_identity.h"

#include <sys/stat.h>
#include <unistd.h>

namespace pgnbase::io {

namespace {

// stat() of path, or of the standard stream that "-" stands for; only regular files
// count (a terminal can be both standard input and output without harm).
std::optional<struct stat> identify(const std::string& path, int dash_descriptor) {
  struct stat info {};
  const int rc = path == "-" ? fstat(dash_descriptor, &info) : stat(path.c_str(), &info);
  if (rc != 0 || !S_ISREG(info.st_mode)) return std::nullopt;
  return info;
}

}  // namespace

std::vector<std::string> database_files(const std::string& path) {
  return {path, path + "-wal", path + "-shm", path + "-journal"};
}

void InputFiles::add(const std::string& path, std::string_view role) {
  if (auto info = identify(path, STDIN_FILENO))
    files_.push_back({path == "-" ? "<stdin>" : path, std::string(role), info->st_dev, info->st_ino});
}

void InputFiles::add_database(const std::string& path) {
  for (const std::string& file : database_files(path))
    if (file != "-") add(file, "database");
}

std::optional<std::string> InputFiles::clash(const std::string& output) const {
  const auto info = identify(output, STDOUT_FILENO);
  if (!info) return std::nullopt;
  for (const Entry& e : files_)
    if (e.device == info->st_dev && e.inode == info->st_ino)
      return "'" + (output == "-" ? std::string("<stdout>") : output) + "' is the same file as the " + e.role + " '" +
             e.name + "'";
  return std::nullopt;
}

}  // namespace pgnbase::io
