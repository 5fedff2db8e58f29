#include "query/output_format.h"

#include <string>

namespace pgnbase::query {

Parsed<OutputFormat> parse_format(std::string_view text, std::span<const FormatName> offered) {
  const bool json = text == "json" || text == "jsonl";
  std::string expected;
  for (size_t i = 0; i < offered.size(); ++i) {
    if (offered[i].name == text || (json && offered[i].format == OutputFormat::Json)) return offered[i].format;
    expected += i == 0 ? "" : i + 1 == offered.size() ? " or " : ", ";
    expected += offered[i].name;
  }
  return ParseError{"bad --format '" + std::string(text) + "': expected " + expected};
}

}  // namespace pgnbase::query
