#include "query/csv_writer.h"

#include "query/text_encoding.h"

namespace pgnbase::query {

void append_csv_field(std::string_view text, std::string& out, bool terminal) {
  std::string utf8;
  if (terminal) {
    append_printable(text, utf8);
  } else {
    for (size_t i = 0; i < text.size();) {
      const Character ch = read_character(text, i);
      append_utf8(ch.code_point, utf8);
      i += ch.bytes;
    }
  }
  if (utf8.find_first_of(",\"\r\n") == std::string::npos) {
    out += utf8;
    return;
  }
  out += '"';
  for (char c : utf8) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

CsvWriter::CsvWriter(const std::vector<std::string>& header, io::OutputFile& out) : out_(out) { add_row(header); }

void CsvWriter::add_row(const std::vector<std::string>& fields) {
  std::string& o = out_.buffer();
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i) o += ',';
    append_csv_field(fields[i], o, out_.is_terminal());
  }
  o += "\r\n";
  out_.maybe_flush();
}

}  // namespace pgnbase::query
