#include "indexer/source_removal.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <map>

#include "indexer/position_index.h"
#include "store/counters.h"
#include "store/database_identity.h"
#include "store/game_facets.h"
#include "store/material_blocks.h"
#include "store/moves_codec.h"
#include "store/position_segments.h"
#include "store/games_sql.h"
#include "store/sources_sql.h"

namespace pgnbase::indexer {

namespace {

uint64_t count(store::Database& db, std::string_view sql, int64_t source_id) {
  store::Statement s = db.prepare(sql);
  s.bind_int64(1, source_id);
  return s.step() ? uint64_t(s.column_int64(0)) : 0;
}

void run_for_source(store::Database& db, std::string_view sql, int64_t source_id) {
  store::Statement s = db.prepare(sql);
  s.bind_int64(1, source_id);
  s.run();
}

struct Segment {
  int64_t id = 0, first_game = 0, last_game = 0;
  uint64_t postings = 0;
};

// The source's position-index segments: its own (id = the source's id) and those written
// for games that moved to it. Each covers an id range holding all of its games.
std::vector<Segment> segments_of(store::Database& db, int64_t source_id) {
  std::vector<Segment> segments;
  store::Statement s = db.prepare(store::sql::kSegmentsOfSource);
  s.bind_int64(1, source_id);
  while (s.step())
    segments.push_back({s.column_int64(0), s.column_int64(1), s.column_int64(2), uint64_t(s.column_int64(3))});
  return segments;
}

// The ids of the source's games. Every game has a posting (its start position), so the
// segments' id ranges cover them; a source without segments stored no game.
std::vector<int64_t> games_of(store::Database& db, int64_t source_id, const std::vector<Segment>& segments) {
  std::vector<int64_t> ids;
  store::Statement s = db.prepare(store::sql::kGamesOfSourceInRange);
  for (const Segment& segment : segments) {
    s.reset();
    s.bind_int64(1, source_id);
    s.bind_int64(2, segment.first_game);
    s.bind_int64(3, segment.last_game);
    while (s.step()) ids.push_back(s.column_int64(0));
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

// For each game of the source that another source also held (game_copies), the source it
// moves to: the oldest of them.
std::map<int64_t, int64_t> new_owners(store::Database& db, int64_t source_id) {
  std::map<int64_t, int64_t> owner_by_game;
  store::Statement s = db.prepare(store::sql::kNewOwners);
  s.bind_int64(1, source_id);
  while (s.step()) owner_by_game.emplace(s.column_int64(0), s.column_int64(1));
  return owner_by_game;
}

// Indexes the positions of games that move to `owner` in a new segment that `owner` owns,
// replaying each game's stored moves (their postings lived in the removed source's segment).
// Returns how many postings it wrote.
uint64_t index_moved_games(store::Database& db, int64_t owner, const std::vector<int64_t>& games) {
  PositionIndexBuilder builder(PositionIndexOptions{.memory_budget_bytes = size_t{64} << 20, .key_bits = 0, .lean = true});
  store::Statement s = db.prepare(store::sql::kGameForReindex);
  std::vector<MoveCode> codes;
  std::vector<uint64_t> keys;
  for (int64_t id : games) {
    s.reset();
    s.bind_int64(1, id);
    if (!s.step()) continue;
    Board start;
    const std::optional<std::string_view> fen =
        s.column_is_null(1) ? std::nullopt : std::optional<std::string_view>(s.column_text(1));
    const std::span<const std::byte> blob = s.column_blob(2);
    keys.clear();
    codes.clear();
    if (!store::stored_start_position(store::Variant(s.column_int64(0)), fen, start) ||
        !store::decode_moves(std::string_view(reinterpret_cast<const char*>(blob.data()), blob.size()), start, codes,
                      [&](const Board& board, size_t) {
                        keys.push_back(board.key());
                        return true;
                      }))
      throw store::PositionIndexError(db.path() + ": game " + std::to_string(id) +
                               " does not replay from its stored moves; nothing removed");
    builder.add_game(uint32_t(id), store::GameResult(s.column_int64(3)), keys, codes);
  }
  const int64_t segment_id = store::allocate_source_id(db);
  const store::SegmentStats stats = builder.write_segment(db, segment_id);
  store::Statement insert = db.prepare(store::sql::kInsertMovedSegment);
  insert.bind_int64(1, segment_id);
  insert.bind_int64(2, owner);
  insert.run();
  return stats.postings;
}

}  // namespace

std::vector<int64_t> find_sources_named(store::Database& db, std::string_view id_or_path) {
  std::vector<int64_t> ids;
  int64_t id = 0;
  const char* end = id_or_path.data() + id_or_path.size();
  auto [at, error] = std::from_chars(id_or_path.data(), end, id);
  store::Statement s = db.prepare(store::sql::kSourcesNamed);
  s.bind_text(1, std::string(id_or_path));
  s.bind_int64(2, error == std::errc() && at == end ? id : -1);
  while (s.step()) ids.push_back(s.column_int64(0));
  if (!ids.empty()) return ids;
  // Imported by a relative path and named by an absolute one, or the other way round: the
  // two agree once both are made absolute from the current folder (symlinks followed where
  // the file exists). A relative path stored from another folder is unknown to us: it is
  // taken when it is the end of the named path, component by component, and only one
  // source is such.
  auto absolute = [](std::string_view path) {
    std::error_code error;
    std::filesystem::path p = std::filesystem::weakly_canonical(std::filesystem::path(path), error);
    if (error) p = std::filesystem::absolute(std::filesystem::path(path), error).lexically_normal();
    return p;
  };
  auto ends_with = [](const std::filesystem::path& whole, const std::filesystem::path& tail) {
    std::vector<std::filesystem::path> a(whole.begin(), whole.end()), b(tail.begin(), tail.end());
    return !b.empty() && b.size() <= a.size() && std::equal(b.rbegin(), b.rend(), a.rbegin());
  };
  const std::filesystem::path wanted = absolute(id_or_path);
  std::vector<int64_t> by_tail;
  store::Statement all = db.prepare(store::sql::kSourceIdsAndPaths);
  while (all.step()) {
    const std::filesystem::path stored(all.column_text(1));
    if (absolute(all.column_text(1)) == wanted) ids.push_back(all.column_int64(0));
    else if (stored.is_relative() && ends_with(wanted, stored.lexically_normal())) by_tail.push_back(all.column_int64(0));
  }
  if (ids.empty() && by_tail.size() == 1) ids = by_tail;
  return ids;
}

RemovedSource remove_source(store::Database& db, int64_t source_id) {
  RemovedSource removed;
  removed.id = source_id;
  // The identity is the first source's hash: keep it before that source can go.
  store::pin_database_identity(db);
  {
    store::Statement s = db.prepare(store::sql::kSourcePathById);
    s.bind_int64(1, source_id);
    if (s.step()) removed.path = std::string(s.column_text(0));
  }
  const std::vector<Segment> segments = segments_of(db, source_id);
  const std::vector<int64_t> games = games_of(db, source_id, segments);
  const std::map<int64_t, int64_t> owners = new_owners(db, source_id);

  // Games another source holds move to it: their row stays (same id), their positions go
  // into a segment of the new owner, and that source no longer counts as a copy.
  std::map<int64_t, std::vector<int64_t>> moving;  // new owner -> games
  store::Statement move = db.prepare(store::sql::kMoveGameToSource);
  store::Statement uncopy = db.prepare(store::sql::kDeleteCopy);
  store::Statement log = db.prepare(store::sql::kLogGameMoved);
  for (const auto& [game, owner] : owners) {
    moving[owner].push_back(game);
    for (store::Statement* s : {&move, &uncopy, &log}) {
      s->reset();
      s->bind_int64(1, game);
      s->bind_int64(2, owner);
      s->run();
    }
  }
  removed.games_moved = owners.size();
  uint64_t postings_kept = 0;
  for (const auto& [owner, moved] : moving) postings_kept += index_moved_games(db, owner, moved);

  std::vector<int64_t> gone;
  for (int64_t id : games)
    if (!owners.count(id)) gone.push_back(id);
  std::vector<store::Statement> delete_game;
  for (std::string_view sql : store::sql::kDeleteGameRows) delete_game.push_back(db.prepare(sql));
  delete_game.push_back(db.prepare(store::sql::kLogGameRemoved));
  for (int64_t id : gone) {
    for (store::Statement& s : delete_game) {
      s.reset();
      s.bind_int64(1, id);
      s.run();
    }
  }
  store::remove_material_runs(db, gone);
  store::clear_game_facets(db, gone);
  removed.games = gone.size();

  removed.rejects = count(db, store::sql::kRejectCountOfSource, source_id);
  removed.copies = count(db, store::sql::kCopyCountOfSource, source_id);
  run_for_source(db, store::sql::kDeleteRejectsOfSource, source_id);
  run_for_source(db, store::sql::kDeleteCopiesOfSource, source_id);
  run_for_source(db, store::sql::kDeleteSource, source_id);
  // A segment holds only its owner's games: dropping them removes every posting of the
  // removed games (the moved ones were indexed again above), so no search or explorer
  // count can meet a removed game.
  for (const Segment& segment : segments) {
    removed.postings += segment.postings;
    store::delete_position_segment(db, segment.id);
  }
  removed.postings -= std::min(removed.postings, postings_kept);
  run_for_source(db, store::sql::kDeleteMovedSegmentsOfSource, source_id);
  store::bump_content_version(db);
  return removed;
}

std::string describe(const RemovedSource& removed) {
  std::string text = "source " + std::to_string(removed.id) + " (" + removed.path + "): " +
                     std::to_string(removed.games) + (removed.games == 1 ? " game, " : " games, ") +
                     std::to_string(removed.rejects) + (removed.rejects == 1 ? " reject, " : " rejects, ") +
                     std::to_string(removed.postings) + " positions removed";
  if (removed.games_moved > 0)
    text += "; " + std::to_string(removed.games_moved) +
            (removed.games_moved == 1 ? " game stays: another source holds it" : " games stay: other sources hold them");
  return text;
}

}  // namespace pgnbase::indexer
