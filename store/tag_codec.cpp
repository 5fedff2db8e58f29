#include "store/tag_codec.h"

#include "store/annotations.h"
#include "store/date_key.h"

namespace pgnbase::store {

namespace {

bool digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

int64_t number(std::string_view s) {
  int64_t n = 0;
  for (char c : s) n = n * 10 + (c - '0');
  return n;
}

void keep(const std::string& value, std::optional<std::string>& column, bool& taken) {
  column = value;
  taken = true;
}

}  // namespace

std::optional<int64_t> canonical_rating(std::string_view text) {
  if (!digits(text) || text.size() > 5 || (text.size() > 1 && text[0] == '0')) return std::nullopt;
  return number(text);
}

void split_tags(const std::vector<Tag>& tags, HeaderColumns& h, std::string& blob) {
  std::vector<Tag> others;
  for (const Tag& t : tags) {
    bool taken = false;
    const std::string& n = t.name;
    if (n == "Event" && !h.event) keep(t.value, h.event, taken);
    else if (n == "Site" && !h.site) keep(t.value, h.site, taken);
    else if (n == "Date" && !h.date) keep(t.value, h.date, taken), h.date_key = date_key_of(t.value);
    else if (n == "Round" && !h.round) keep(t.value, h.round, taken);
    else if (n == "White" && !h.white) keep(t.value, h.white, taken);
    else if (n == "Black" && !h.black) keep(t.value, h.black, taken);
    else if (n == "Result" && !h.result) keep(t.value, h.result, taken);
    else if (n == "TimeControl" && !h.time_control) keep(t.value, h.time_control, taken);
    else if (n == "ECO" && !h.eco && !t.value.empty() && t.value != "?") keep(t.value, h.eco, taken);
    else if (n == "WhiteElo" && !h.white_elo) taken = (h.white_elo = canonical_rating(t.value)).has_value();
    else if (n == "BlackElo" && !h.black_elo) taken = (h.black_elo = canonical_rating(t.value)).has_value();
    if (!taken) others.push_back(t);
  }
  // lichess writes the day in UTCDate too, and some of its exports have no usable Date.
  if (!h.date_key)
    for (const Tag& t : tags)
      if (t.name == "UTCDate") {
        h.date_key = date_key_of(t.value);
        break;
      }
  blob.clear();
  encode_tags(others, blob);
}

void encode_tags(const std::vector<Tag>& tags, std::string& out) {
  for (const Tag& t : tags) {
    append_varint(t.name.size(), out);
    out += t.name;
    append_varint(t.value.size(), out);
    out += t.value;
  }
}

bool decode_tags(std::string_view payload, std::vector<TagView>& out) {
  out.clear();
  size_t pos = 0;
  while (pos < payload.size()) {
    TagView t;
    if (!read_length_prefixed(payload, pos, t.name) || !read_length_prefixed(payload, pos, t.value)) return false;
    out.push_back(t);
  }
  return true;
}

}  // namespace pgnbase::store
