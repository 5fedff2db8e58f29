// Refusing an output that would overwrite an input. Files are compared by device and
// inode, never by name: stat() follows symbolic links and hard links share the inode,
// so "x.db", "./x.db", a link to it and another name of it are all the same file.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pgnbase::io {

// The files SQLite keeps for the database at path: the file, and the -wal, -shm and
// -journal files beside it (overwriting a WAL that holds committed pages loses them).
std::vector<std::string> database_files(const std::string& path);

// The inputs of one command. Not thread-safe.
class InputFiles {
 public:
  // An input as the user typed it; "-" is standard input. role names it in messages
  // ("input", "database"). Only regular files are kept: a path that does not exist
  // (yet), a terminal or a pipe is left out.
  void add(const std::string& path, std::string_view role);
  // Every file of database_files(path), with the role "database".
  void add_database(const std::string& path);

  // "'OUTPUT' is the same file as the database 'x.db'" when writing to output ("-":
  // standard output) would write into one of the inputs; nullopt otherwise, and when
  // output does not exist yet.
  std::optional<std::string> clash(const std::string& output) const;

 private:
  struct Entry {
    std::string name, role;
    dev_t device;
    ino_t inode;
  };
  std::vector<Entry> files_;
};

}  // namespace pgnbase::io
