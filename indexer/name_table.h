// The writer's names (or openings) and their ids, looked up by text with the hash the
// worker made (GameRecord::name_keys): four or five look-ups a game on the import's
// serial thread. One flat array of (hash, entry) slots, probed linearly at a load of at
// most a half, where std::unordered_map followed a bucket to a node and allocated a node
// for each name: the writer's interning took 155 instructions a call on the master-style
// bench file (one name in eight new), 118 with this table (bench/README.md).
//
// Not thread-safe: the writer's thread only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pgnbase::indexer {

class NameTable {
 public:
  // The id of text (hash: its name_hash), or 0 when it has none.
  int64_t find(std::string_view text, uint64_t hash) const {
    if (slots_.empty()) return 0;
    for (size_t i = hash & mask();; i = (i + 1) & mask()) {
      const Slot& s = slots_[i];
      if (s.entry == 0) return 0;
      if (s.hash == hash && entries_[s.entry - 1].text == text) return entries_[s.entry - 1].id;
    }
  }

  // Adds text, which has no id yet, with id (not 0).
  void add(std::string text, uint64_t hash, int64_t id) {
    if ((entries_.size() + 1) * 2 > slots_.size()) grow();
    entries_.push_back({std::move(text), id, hash});
    place(hash, uint32_t(entries_.size()));
  }

  size_t size() const { return entries_.size(); }
  void clear() {
    slots_ = {};
    entries_ = {};
  }

 private:
  struct Slot {
    uint64_t hash = 0;
    uint32_t entry = 0;  // 1 + its index in entries_; 0: empty
  };
  struct Entry {
    std::string text;
    int64_t id;
    uint64_t hash;  // for growing without hashing again
  };
  size_t mask() const { return slots_.size() - 1; }
  void place(uint64_t hash, uint32_t entry) {
    size_t i = hash & mask();
    while (slots_[i].entry != 0) i = (i + 1) & mask();
    slots_[i] = Slot{hash, entry};
  }
  void grow() {
    slots_.assign(slots_.empty() ? 1024 : slots_.size() * 2, Slot{});
    for (size_t e = 0; e < entries_.size(); ++e) place(entries_[e].hash, uint32_t(e + 1));
  }

  std::vector<Slot> slots_;
  std::vector<Entry> entries_;
};

}  // namespace pgnbase::indexer
