// The output forms of pgn-query's commands, and the one parser of their --format.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "core/parsed.h"

namespace pgnbase::query {

enum class OutputFormat : uint8_t {
  Table,  // aligned columns for a terminal
  Json,   // JSON: one object per line (search, show, rejects, players), or one object (explore, stats, player)
  Pgn,
  Csv,
  Text,   // show's reading view of one game
};

// A format a command offers, under the name its help and errors give it.
struct FormatName {
  std::string_view name;
  OutputFormat format;
};

// Parses --format TEXT against the formats a command offers, "json" and "jsonl" both
// naming Json. The error lists them as given: "bad --format 'x': expected table, json or csv".
Parsed<OutputFormat> parse_format(std::string_view text, std::span<const FormatName> offered);

}  // namespace pgnbase::query
