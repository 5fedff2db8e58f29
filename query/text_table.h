// Aligned text columns for terminal output. Column widths come from the header and
// the first kSampleRows rows (held back until then), so output of any length streams
// with bounded memory; a later, wider cell just pushes its line out. Cells longer than
// the column limit are cut with '~' (at the end, or at the start for a path, so that
// the file name stays), unless the table is wide (--wide), which cuts nothing. Widths
// are terminal columns (query/display_width.h: CJK and emoji take two, combining
// accents none). Cells are shown as printable() text
// (query/text_encoding.h): Latin-1 bytes as their characters, control characters
// escaped as \xHH, so a hostile tag can neither move the cursor nor break a line.
// On a terminal (or after fit_to) the table also fits its width: the widest text column
// is narrowed first, one column at a time, never below its header (or 3 columns), and
// right-aligned columns (numbers, ids) are never cut; --wide keeps every cell whole.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "query/display_width.h"
#include "io/output_file.h"

namespace pgnbase::query {

class TextTable {
 public:
  static constexpr size_t kSampleRows = 1000;

  struct Column {
    std::string header;
    bool right_aligned = false;
    size_t max_width = 32;
    bool keep_end = false;  // cut a long cell at its start (paths: the file name stays)
  };

  // wide: no cell is cut, whatever the columns' max_width.
  TextTable(std::vector<Column> columns, io::OutputFile& out, bool wide = false);

  // Fits the table to this many terminal columns (0: no limit); call before add_row.
  // A table to a terminal fits the terminal's width unless wide.
  void fit_to(size_t width) { fit_width_ = width; }

  // cells.size() must equal the column count.
  void add_row(std::vector<std::string> cells);
  // Prints what is held back (the header too, when there were no rows). Call once.
  void finish();

 private:
  void fix_widths();
  void narrow_to_fit();
  void print_row(const std::vector<std::string>& cells);

  std::vector<Column> columns_;
  io::OutputFile& out_;
  std::vector<size_t> widths_;
  std::vector<std::vector<std::string>> held_;
  bool widths_fixed_ = false;
  bool wide_ = false;
  size_t fit_width_ = 0;
};

// The width of the terminal on standard output, or 0 when it is not one.
size_t terminal_width();

}  // namespace pgnbase::query
