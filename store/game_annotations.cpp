#include "store/game_annotations.h"

#include <algorithm>

#include "store/blob_codec.h"

namespace pgnbase::store {

void encode_game_annotations(std::span<const AnnotationView> entries, std::string& out) {
  // One set per thread, reused game after game.
  thread_local std::vector<LiftedCommands> lifted;
  thread_local std::string text_entries, stored, section;
  lifted.clear();
  text_entries.clear();
  for (const AnnotationView& entry : entries) {
    LiftedCommands commands;
    std::string_view text = entry.text;
    if ((lifted.empty() || lifted.back().ply < entry.ply) && lift_commands(entry.ply, entry.text, stored, commands)) {
      lifted.push_back(commands);
      text = stored;
    }
    if (text.empty()) continue;
    append_varint(entry.ply, text_entries);
    append_varint(text.size(), text_entries);
    text_entries += text;
  }
  if (!lifted.empty()) {
    section.clear();
    encode_lifted(lifted, section);
    append_varint(kLiftedSectionKey, out);
    append_varint(section.size(), out);
    out += section;
  }
  out += text_entries;
}

bool AnnotationReader::read(std::string_view blob) {
  stored_.clear();
  entries_.clear();
  lifted_.clear();
  restored_.clear();
  clock_evals_.clear();
  clock_evals_read_ = false;
  if (blob.empty()) return true;
  std::string_view section;
  if (!decode_blob(blob, payload_) || !decode_annotations(payload_, stored_, section) ||
      (!section.empty() && !decode_lifted(section, lifted_))) {
    stored_.clear();
    lifted_.clear();
    return false;
  }
  const auto by_ply = [](const AnnotationView& a, const AnnotationView& b) { return a.ply < b.ply; };
  std::stable_sort(stored_.begin(), stored_.end(), by_ply);
  // The restored texts go into one buffer first: views into it are taken once it stops growing.
  struct Restored {
    size_t entry, offset, size;
  };
  std::vector<Restored> restored;
  size_t next = 0;
  for (const LiftedCommands& l : lifted_) {
    while (next < stored_.size() && stored_[next].ply < l.ply) entries_.push_back(stored_[next++]);
    const bool own = next < stored_.size() && stored_[next].ply == l.ply;
    const size_t offset = restored_.size();
    if (!restore_commands(own ? stored_[next].text : std::string_view(), l, restored_)) {
      stored_.clear();
      entries_.clear();
      lifted_.clear();
      return false;
    }
    restored.push_back({entries_.size(), offset, restored_.size() - offset});
    entries_.push_back({l.ply, {}});
    next += own;
  }
  while (next < stored_.size()) entries_.push_back(stored_[next++]);
  for (const Restored& r : restored) entries_[r.entry].text = std::string_view(restored_).substr(r.offset, r.size);
  return true;
}

const std::vector<PlyClockEval>& AnnotationReader::clock_evals() {
  if (clock_evals_read_) return clock_evals_;
  clock_evals_read_ = true;
  size_t next_lifted = 0, next_stored = 0;
  while (next_stored < stored_.size() && stored_[next_stored].ply == 0) ++next_stored;  // before the first move
  while (next_lifted < lifted_.size() || next_stored < stored_.size()) {
    const uint32_t ply = std::min(next_lifted < lifted_.size() ? lifted_[next_lifted].ply : UINT32_MAX,
                                  next_stored < stored_.size() ? stored_[next_stored].ply : UINT32_MAX);
    PlyClockEval ply_data{ply, -1, {}};
    if (next_lifted < lifted_.size() && lifted_[next_lifted].ply == ply) {
      const LiftedCommands& l = lifted_[next_lifted++];
      if (l.layout & LIFT_CLOCK) ply_data.clock = l.clock;
      if (l.layout & LIFT_EVAL) ply_data.eval = l.eval;
    }
    for (; next_stored < stored_.size() && stored_[next_stored].ply == ply; ++next_stored)
      read_clock_eval(stored_[next_stored].text, ply_data);
    if (ply_data.clock >= 0 || ply_data.eval.kind != EvalKind::None) clock_evals_.push_back(ply_data);
  }
  return clock_evals_;
}

}  // namespace pgnbase::store
