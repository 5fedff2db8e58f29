// The values of the games table's enumerated columns, named once for the writer and
// every reader (docs/schema.md). GameResult (games.result) is in tag_codec.h.
#pragma once

#include <cstdint>

namespace pgnbase::store {

// games.variant
enum class Variant : uint8_t { Standard = 0, Chess960 = 1 };

// games.eco_source: where games.eco came from.
enum class EcoSource : uint8_t { None = 0, Tag = 1, Computed = 2 };

}  // namespace pgnbase::store
