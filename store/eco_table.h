// ECO classification: the lichess opening table (store/eco/*.tsv, embedded at build
// time) keyed by the Polyglot key of each line's final position.
//
// A game is classified by the deepest of its positions that the table knows, so a
// transposition into a named line gets that line's code and name whatever the move
// order. Positions, not move sequences, are compared: the key includes side to move,
// castling rights and the en-passant file (Polyglot's rule).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace pgnbase::store {

struct EcoEntry {
  std::string_view eco;   // "C60"
  std::string_view name;  // "Ruy Lopez: Morphy Defense"
  int plies;              // length of the line's move sequence
};

// Immutable once built; every const member may be called from any thread.
// Entries view the TSV text given to the constructor (the builtin table's text is a
// static string), so that text must outlive the table.
class EcoTable {
 public:
  // Builds a table from TSV text: lines `eco<TAB>name<TAB>pgn` where pgn is SAN movetext
  // from the start position ("1. e4 e5 2. Nf3"); header lines ("eco\t...") and blank
  // lines are skipped. A line whose moves do not replay is left out and counted in
  // unplayable_lines(). When several lines reach the same position the one with the
  // fewest plies wins, and of those the first in the text: the shortest line is the
  // opening's main move order, a longer one reaching the same position is a transposition.
  explicit EcoTable(std::string_view tsv);

  // The embedded lichess table, built on first use (thread-safe) by replaying every
  // line: about 3,800 lines, a few milliseconds.
  static const EcoTable& builtin();

  // The entry whose final position has this Polyglot key, or nullptr.
  const EcoEntry* find(uint64_t polyglot_key) const;

  // The deepest match over a game's positions: keys[0] is the start position, keys[i]
  // the position after ply i. Walks from ply min(max_plies(), keys.size() - 1) down to
  // 0 and returns the first hit; nullptr when no position matches (for instance a game
  // from a set-up position that never reaches a named one).
  const EcoEntry* classify(std::span<const uint64_t> keys) const;

  // Lines that replayed (one entry each, duplicates of a position included).
  size_t size() const { return entries_.size(); }
  // Distinct positions in the table.
  size_t positions() const { return position_count_; }
  // Lines whose moves did not replay (0 for the builtin table).
  size_t unplayable_lines() const { return unplayable_lines_; }
  // The longest line, in plies: no game position deeper than this can match.
  int max_plies() const { return max_plies_; }
  std::span<const EcoEntry> entries() const { return entries_; }
  // Calls f(polyglot_key, entry) once per distinct position, in no particular order.
  template <typename F>
  void for_each_position(F&& f) const {
    for (const Slot& slot : slots_)
      if (slot.entry != kEmpty) f(slot.key, entries_[slot.entry]);
  }

 private:
  // Open addressing with linear probing on the low bits of the key (Polyglot keys are
  // uniform), behind a 64 Kbit filter on the top 16 bits that fits in L1: most positions
  // of a game are not in the table and are turned away by one bit test.
  struct Slot {
    uint64_t key;
    uint32_t entry;  // index into entries_, kEmpty when the slot is free
  };
  static constexpr uint32_t kEmpty = UINT32_MAX;

  static constexpr int kFilterShift = 48;
  static constexpr size_t kFilterWords = (size_t{1} << (64 - kFilterShift)) / 64;

  void insert(uint64_t key, uint32_t entry);
  bool may_contain(uint64_t key) const {
    const uint64_t bit = key >> kFilterShift;
    return (filter_[bit / 64] >> (bit % 64)) & 1;
  }

  std::vector<EcoEntry> entries_;
  std::vector<Slot> slots_;
  std::vector<uint64_t> filter_;
  uint64_t mask_ = 0;
  size_t position_count_ = 0;
  size_t unplayable_lines_ = 0;
  int max_plies_ = 0;
};

}  // namespace pgnbase::store
