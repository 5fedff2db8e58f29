// CSV output as RFC 4180 (https://www.rfc-editor.org/rfc/rfc4180) writes it: a header
// line, CRLF line ends, a field quoted when it holds a comma, a quote, CR or LF, and
// quotes inside doubled. Stored text is written as UTF-8 (Latin-1 bytes become their
// characters, the reading of query/text_encoding.h). On a terminal, control characters
// are escaped as \xHH like every other table.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "io/output_file.h"

namespace pgnbase::query {

// Appends one field (no separator) to out.
void append_csv_field(std::string_view text, std::string& out, bool terminal = false);

// Writes rows of fields to an OutputFile. The header is written by the constructor.
class CsvWriter {
 public:
  CsvWriter(const std::vector<std::string>& header, io::OutputFile& out);
  void add_row(const std::vector<std::string>& fields);

 private:
  io::OutputFile& out_;
};

}  // namespace pgnbase::query
