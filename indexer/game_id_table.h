// The writer's per-game look-ups (a duplicate's key, a truncated copy's headers) for
// every stored game: a flat hash table of (64-bit key, 32-bit game id) in one array, 12
// bytes a slot (16 to 32 a game), where std::unordered_map spent a 32-byte node and an
// 8-byte bucket per game, and a malloc and a free for each node (on the writer's thread:
// the import's serial part).
//
// Keys are hashes already (well mixed); several ids may share a key. Each entry carries
// mark_bits bits of the caller's (a mark: the truncated-copy check's "finished" and the
// first bytes of the game's moves), kept in the key's lowest bits, so keys are compared
// on their other 64 - mark_bits. Game ids are never 0, which marks an empty slot. Linear
// probing at a load of at most 3/4.
//
// Not thread-safe: the writer's thread only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace pgnbase::indexer {

class GameIdTable {
 public:
  // mark_bits: 1 to 32.
  explicit GameIdTable(int mark_bits = 1) : mark_mask_((uint64_t{1} << mark_bits) - 1) {}

  // Adds (key, id, mark); id is not 0, mark fits in mark_bits.
  void add(uint64_t key, uint32_t id, uint32_t mark = 0) {
    if ((size_ + 1) * 4 > slots_.size() * 3) grow();
    place(Slot{(key & ~mark_mask_) | (mark & mark_mask_), id});
    ++size_;
  }

  // Adds (key, id) unless key has an entry already (the first stored game wins), in one
  // probe; returns whether it added.
  bool add_if_absent(uint64_t key, uint32_t id) {
    if ((size_ + 1) * 4 > slots_.size() * 3) grow();
    key &= ~mark_mask_;
    size_t i = slot_of(key);
    for (; slots_[i].id != 0; i = (i + 1) & mask())
      if ((slots_[i].key & ~mark_mask_) == key) return false;
    slots_[i] = Slot{key, id};
    ++size_;
    return true;
  }

  // Calls f(id, mark) (mark: uint32_t) for each entry of key, until f returns true; returns whether it did.
  template <class F>
  bool any_of(uint64_t key, F f) const {
    if (slots_.empty()) return false;
    key &= ~mark_mask_;
    for (size_t i = slot_of(key);; i = (i + 1) & mask()) {
      const Slot& s = slots_[i];
      if (s.id == 0) return false;
      if ((s.key & ~mark_mask_) == key && f(s.id, uint32_t(s.key & mark_mask_))) return true;
    }
  }

  // Whether two keys are one to this table (their marks aside).
  bool same_key(uint64_t a, uint64_t b) const { return ((a ^ b) & ~mark_mask_) == 0; }

  // An id added under key (the first one the probe meets), or 0.
  uint32_t find(uint64_t key) const {
    uint32_t found = 0;
    any_of(key, [&](uint32_t id, bool) {
      found = id;
      return true;
    });
    return found;
  }

  size_t size() const { return size_; }
  void clear() {
    slots_ = {};
    size_ = 0;
  }

 private:
  struct [[gnu::packed]] Slot {
    uint64_t key = 0;
    uint32_t id = 0;
  };
  static_assert(sizeof(Slot) == 12);

  size_t mask() const { return slots_.size() - 1; }
  // Fibonacci hashing of the key without its mark: the top bits of key times 2^64 / phi.
  size_t slot_of(uint64_t key) const { return size_t(((key & ~mark_mask_) * 0x9E3779B97F4A7C15ull) >> shift_); }

  void place(const Slot& slot) {
    size_t i = slot_of(slot.key);
    while (slots_[i].id != 0) i = (i + 1) & mask();
    slots_[i] = slot;
  }

  void grow() {
    std::vector<Slot> old = std::move(slots_);
    const size_t capacity = old.empty() ? 1024 : old.size() * 2;
    slots_.assign(capacity, Slot{});
    shift_ = 64 - __builtin_ctzll(capacity);
    for (const Slot& s : old)
      if (s.id != 0) place(s);
  }

  uint64_t mark_mask_;
  std::vector<Slot> slots_;
  size_t size_ = 0;
  int shift_ = 64;
};

}  // namespace pgnbase::indexer
