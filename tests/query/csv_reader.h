// A strict RFC 4180 reader for tests: CRLF record ends, quoted fields with doubled
// quotes, nothing else; nullopt when the text breaks a rule (a bare quote inside an
// unquoted field, an unterminated quote, a record without its CRLF).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pgnbase::csv_check {

using Record = std::vector<std::string>;

inline std::optional<std::vector<Record>> parse(std::string_view text) {
  std::vector<Record> records;
  size_t i = 0;
  while (i < text.size()) {
    Record record;
    while (true) {
      std::string field;
      if (i < text.size() && text[i] == '"') {
        ++i;
        while (true) {
          if (i >= text.size()) return std::nullopt;
          if (text[i] == '"') {
            if (i + 1 < text.size() && text[i + 1] == '"') {
              field += '"';
              i += 2;
              continue;
            }
            ++i;
            break;
          }
          field += text[i++];
        }
      } else {
        while (i < text.size() && text[i] != ',' && text[i] != '\r' && text[i] != '\n') {
          if (text[i] == '"') return std::nullopt;
          field += text[i++];
        }
      }
      record.push_back(std::move(field));
      if (i < text.size() && text[i] == ',') {
        ++i;
        continue;
      }
      if (text.substr(i, 2) != "\r\n") return std::nullopt;
      i += 2;
      break;
    }
    records.push_back(std::move(record));
  }
  return records;
}

}  // namespace pgnbase::csv_check
