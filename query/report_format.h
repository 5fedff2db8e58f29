// The output forms of the report commands (player, players, events, stats, explore).
#pragma once

#include <cstdint>

namespace pgnbase::query {

enum class ReportFormat : uint8_t { Table, Json, Csv };

}  // namespace pgnbase::query
