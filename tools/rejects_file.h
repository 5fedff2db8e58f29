// pgn-index --rejects FILE: the original text of every rejected game, for exactly the
// input files this run imported. The text goes to a temporary file (a ReplacingFile),
// each input's part is kept only once that input is committed to the database (a
// failed input's rejects are written over by the next one), and the file is put in
// place at the end, when the run imported at least one file. Otherwise FILE keeps what
// it held before.
#pragma once

#include <fstream>
#include <memory>
#include <string>

#include "io/replacing_file.h"

namespace pgnbase::tools {

class RejectsFile {
 public:
  // Creates the temporary file. Throws io::OutputError.
  explicit RejectsFile(const std::string& path);

  // Where the import writes; call begin_input() before each input, keep_input() after
  // one that was committed. (A FIFO or a terminal, written in place, keeps everything.)
  std::ostream& stream() { return stream_; }
  void begin_input();
  void keep_input();

  // Cuts what was not kept and renames the file into place. Throws io::OutputError.
  void commit();

 private:
  std::string path_;
  io::ReplacingFile target_;
  std::ofstream stream_;
  std::streamoff kept_ = 0;
};

}  // namespace pgnbase::tools
