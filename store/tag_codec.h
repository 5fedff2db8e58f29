// Which tags live in their own games columns, and the blob that keeps all the others.
//
// A tag goes to its column only when the column holds it exactly (WhiteElo "2710" does,
// WhiteElo "-" does not), and only its first occurrence; everything else goes to the
// tags blob: a sequence of  varint name length | name | varint value length | value,
// in file order. So export writes back every tag the file had.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <cstdint>

namespace pgnbase::store {

struct Tag {
  std::string name;
  std::string value;  // unescaped
};
// A tag as read back: views into the payload given to decode_tags.
struct TagView {
  std::string_view name, value;
};

struct HeaderColumns {
  std::optional<std::string> event, site, date, round, white, black, result, eco, time_control;
  // Date as YYYYMMDD, unknown month/day as 00 (store/date_key.h); from UTCDate when
  // Date is absent or its year unknown.
  std::optional<int64_t> date_key;
  std::optional<int64_t> white_elo, black_elo;
};

void split_tags(const std::vector<Tag>& tags, HeaderColumns& columns, std::string& other_tags_blob);

void encode_tags(const std::vector<Tag>& tags, std::string& out);
// Reads a tags payload (stored unframed); false when it is corrupt.
bool decode_tags(std::string_view payload, std::vector<TagView>& out);

// A plain decimal rating written without sign or leading zeros.
std::optional<int64_t> canonical_rating(std::string_view text);

}  // namespace pgnbase::store
