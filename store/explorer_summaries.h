// Tables explorer_summaries and eco_positions (docs/schema.md): their statements and the
// summary row's codec. What a summary holds is the explorer's unfiltered answer for a
// position; the explorer computes it (query/explorer_summary.h), this file stores it.
//
// A row is valid while the database's content version and posting count are what they
// were when it was written (its stamp); after any import, removal or replacement (even
// one interrupted before the rebuild) it reads as absent.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "store/database.h"

namespace pgnbase::store {

// A summary row, moves as stored move codes (core/move_code.h) of the row's position.
struct ExplorerSummary {
  static constexpr uint16_t kEndedHere = 0xFFFF;  // a top game's code when the game ended here
  struct Move {
    uint16_t code = 0;
    uint32_t games = 0, white_wins = 0, draws = 0, black_wins = 0, rated_games = 0;
    uint64_t rating_sum = 0;  // of the mover's ratings
  };
  struct TopGame {
    uint32_t id = 0;
    uint16_t code = kEndedHere;  // the move it played here
  };
  uint32_t games = 0, ended_here = 0;
  std::vector<Move> moves;
  std::vector<TopGame> top_games;
};

// Replaces every summary, inside the caller's transaction: the constructor empties the
// table (store/schema.h creates it, as every writer opens a database) and reads the
// stamp that every row written through it carries.
class ExplorerSummaryWriter {
 public:
  explicit ExplorerSummaryWriter(Database& db);
  // Writes the row of the position with this key; returns the bytes of its data.
  size_t write(uint64_t key, const ExplorerSummary& summary);

 private:
  Statement insert_;
  int64_t stamp_;
};

// The row of the position with this key, or nullopt when there is none, it is stale,
// or it is malformed.
std::optional<ExplorerSummary> read_explorer_summary(Database& db, uint64_t key);

// The stamp rows written now would carry (what the position index holds, by content).
int64_t summary_stamp(Database& db);

// The position segments with ids below below_id: how many, their postings, the largest
// id (0 when none); what an update of the summaries checks is unchanged.
struct SegmentTotals {
  int64_t segments = 0, postings = 0, last_id = 0;
  bool operator==(const SegmentTotals&) const = default;
};
SegmentTotals segment_totals(Database& db, int64_t below_id);

// Every well-formed row written under stamp, by key (for an update after an import that
// only added games: the rows as of before it).
std::unordered_map<uint64_t, ExplorerSummary> read_explorer_summaries(Database& db, int64_t stamp);

// Writes the builtin ECO table's positions (store/eco_table.h) into eco_positions,
// replacing what is there, so that naming a position costs a look-up, not the replay of
// the whole table.
void write_eco_positions(Database& db);

// The opening a position belongs to: the deepest position of the ECO table on the way
// to it (lichess's rule), or empty when none is known.
struct OpeningName {
  std::string eco, name;
};

// The opening of the deepest of keys (the way to a position, the position last) that the
// ECO table names: from eco_positions when the database has it filled, else from the
// builtin table.
OpeningName name_opening(Database& db, std::span<const uint64_t> keys);

}  // namespace pgnbase::store
