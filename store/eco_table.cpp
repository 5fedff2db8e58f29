#include "store/eco_table.h"

#include <algorithm>
#include <bit>

#include "core/board.h"
#include "core/notation.h"
#include "core/replay.h"

namespace pgnbase::store {

namespace detail {
// The five TSV files, concatenated; defined in the generated eco_openings_data.cpp.
extern const std::string_view kEcoOpeningsTsv;
}  // namespace detail

namespace {

// Splits off the text up to the next separator (or the end) and advances past it.
std::string_view next_field(std::string_view& rest, char separator) {
  const size_t end = rest.find(separator);
  std::string_view field = rest.substr(0, end);
  rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
  return field;
}

// Appends the move tokens of SAN movetext ("1. e4 e5 2. Nf3"), leaving out move numbers.
void split_moves(std::string_view movetext, std::vector<std::string_view>& tokens) {
  tokens.clear();
  while (!movetext.empty()) {
    std::string_view token = next_field(movetext, ' ');
    if (token.empty()) continue;
    const bool move_number = token.front() >= '0' && token.front() <= '9' && token.back() == '.';
    if (!move_number) tokens.push_back(token);
  }
}

}  // namespace

EcoTable::EcoTable(std::string_view tsv) {
  struct Placed {
    uint64_t key;
    uint32_t entry;
  };
  std::vector<Placed> placed;
  std::vector<std::string_view> tokens;
  ReplayOutput replayed;
  ReplayFailure failure;
  const Board start;
  while (!tsv.empty()) {
    std::string_view line = next_field(tsv, '\n');
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line.starts_with("eco\t")) continue;
    std::string_view rest = line;
    const std::string_view eco = next_field(rest, '\t');
    const std::string_view name = next_field(rest, '\t');
    const std::string_view movetext = next_field(rest, '\t');
    split_moves(movetext, tokens);
    if (eco.empty() || !replay_moves(start, tokens, &english(), replayed, failure)) {
      ++unplayable_lines_;
      continue;
    }
    const int plies = static_cast<int>(tokens.size());
    placed.push_back({replayed.keys.back(), static_cast<uint32_t>(entries_.size())});
    entries_.push_back({eco, name, plies});
    if (plies > max_plies_) max_plies_ = plies;
  }
  // At most half full, so a probe rarely takes more than one or two slots.
  const size_t capacity = std::bit_ceil(std::max<size_t>(16, placed.size() * 2));
  slots_.assign(capacity, Slot{0, kEmpty});
  mask_ = capacity - 1;
  filter_.assign(kFilterWords, 0);
  for (const Placed& p : placed) insert(p.key, p.entry);
}

void EcoTable::insert(uint64_t key, uint32_t entry) {
  const uint64_t bit = key >> kFilterShift;
  filter_[bit / 64] |= uint64_t{1} << (bit % 64);
  for (uint64_t i = key & mask_;; i = (i + 1) & mask_) {
    Slot& slot = slots_[i];
    if (slot.entry == kEmpty) {
      slot = {key, entry};
      ++position_count_;
      return;
    }
    if (slot.key == key) {
      // Same position: the shorter line wins; on a tie the earlier one stays.
      if (entries_[entry].plies < entries_[slot.entry].plies) slot.entry = entry;
      return;
    }
  }
}

const EcoEntry* EcoTable::find(uint64_t polyglot_key) const {
  if (!may_contain(polyglot_key)) return nullptr;
  for (uint64_t i = polyglot_key & mask_;; i = (i + 1) & mask_) {
    const Slot& slot = slots_[i];
    if (slot.entry == kEmpty) return nullptr;
    if (slot.key == polyglot_key) return &entries_[slot.entry];
  }
}

const EcoEntry* EcoTable::classify(std::span<const uint64_t> keys) const {
  if (keys.empty()) return nullptr;
  size_t ply = std::min(keys.size() - 1, static_cast<size_t>(max_plies_));
  for (;; --ply) {
    if (const EcoEntry* hit = find(keys[ply])) return hit;
    if (ply == 0) return nullptr;
  }
}

const EcoTable& EcoTable::builtin() {
  static const EcoTable table(detail::kEcoOpeningsTsv);
  return table;
}

}  // namespace pgnbase::store
