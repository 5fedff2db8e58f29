// The explorer on 2,000 real lichess games (tools/sample, in this repository): move counts
// under rating, date and time-control filters, from the game facets and from SQL, against
// a brute-force replay of every game; top games; opening names and the FEN after each move.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "indexer/source_removal.h"
#include "store/eco_table.h"
#include "store/game_facets.h"
#include "search/explorer.h"
#include "search/explorer_summary.h"
#include "search/game_search.h"
#include "store/position_index_reader.h"
#include "store/position_segments.h"
#include "search/time_control.h"
#include "query_test_support.h"
#include "sample_games.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"
#include "tests/support/bundled_sample.h"

namespace pgnbase::query {
namespace {

const std::string kSample = test::kSample.string();

// What the games table says of a game, read directly (the facets are not used).
struct Header {
  int64_t white_elo = 0, black_elo = 0, date_key = 0;
  std::string time_control = "?";
};

class ExplorerLichess : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new test::TempDir;
    db_path_ = dir_->file("lichess.db");
    query_test::import_files(db_path_, {kSample}, false);
    crowded_path_ = dir_->file("crowded.db");
    query_test::import_files(crowded_path_, {kSample}, false, kCrowdedFingerprintBits);
    games_ = new std::vector<query_test::ReplayedGame>(query_test::replay_all_games(db_path_, true));
    headers_ = new std::map<int64_t, Header>;
    store::Database db(db_path_, store::Database::Mode::ReadOnly);
    store::Statement s = db.prepare("SELECT id, white_elo, black_elo, date_key, time_control FROM games");
    while (s.step()) {
      Header& h = (*headers_)[s.column_int64(0)];
      if (!s.column_is_null(1)) h.white_elo = s.column_int64(1);
      if (!s.column_is_null(2)) h.black_elo = s.column_int64(2);
      if (!s.column_is_null(3)) h.date_key = s.column_int64(3);
      if (!s.column_is_null(4)) h.time_control = std::string(s.column_text(4));
    }
  }
  static void TearDownTestSuite() {
    delete games_;
    delete headers_;
    delete dir_;
  }

  // The brute-force verdict of the filter's rating, date and time-control parts.
  static bool passes(const search::GameFilter& f, const Header& h) {
    auto in = [&](int64_t elo) {
      return elo > 0 && (!f.min_elo || elo >= *f.min_elo) && (!f.max_elo || elo <= *f.max_elo);
    };
    if ((f.min_elo || f.max_elo) &&
        !(f.elo_either ? in(h.white_elo) || in(h.black_elo) : in(h.white_elo) && in(h.black_elo)))
      return false;
    // A partial date lies in a range when its first and last possible days both do.
    const int64_t first = h.date_key, last = first % 10000 == 0 ? first + 9999 : first % 100 == 0 ? first + 99 : first;
    if (f.date_from_key && !(first > 0 && first >= *f.date_from_key)) return false;
    if (f.date_to_key && !(first > 0 && last <= *f.date_to_key)) return false;
    return !f.time_control || f.time_control->matches(h.time_control);
  }

  // Per next position key, the passing games that move there from `key`.
  static std::map<Key, std::set<int64_t>> expected_moves(Key key, const search::GameFilter& f, std::string* fen) {
    std::map<Key, std::set<int64_t>> next;
    for (const auto& g : *games_) {
      if (!passes(f, headers_->at(g.id))) continue;
      for (size_t ply = 0; ply + 1 < g.keys.size(); ++ply)
        if (g.keys[ply] == key && g.codes[ply] != kNullMoveCode) {
          next[g.keys[ply + 1]].insert(g.id);
          *fen = g.fens[ply];
        }
    }
    return next;
  }

  static search::ExplorerResult run(const Board& position, const search::GameFilter& filter, bool facets,
                                    const std::string& path = db_path_) {
    store::Database db(path, store::Database::Mode::ReadOnly);
    search::ExplorerOptions options;
    options.filter = filter;
    options.filter.position = position;
    options.use_facets = facets;
    options.facet_min_games = 0;
    options.point_lookup_limit = facets ? 20000 : 0;  // SQL: one pass over the passing games
    return search::explore(db, options);
  }

  static void expect_counts_match_the_replay(const std::string& path, const std::vector<std::string>& fens);

  static inline test::TempDir* dir_ = nullptr;
  static inline std::string db_path_;
  // The same games with 10 fingerprint bits: about 150 postings of keys seen once share
  // each fingerprint, so every lookup meets other keys' postings.
  static constexpr int kCrowdedFingerprintBits = 10;
  static inline std::string crowded_path_;
  static inline std::vector<query_test::ReplayedGame>* games_ = nullptr;
  static inline std::map<int64_t, Header>* headers_ = nullptr;
};

TEST_F(ExplorerLichess, FacetsAreStoredForEveryGame) {
  store::Database db(db_path_, store::Database::Mode::ReadOnly);
  std::optional<store::GameFacets> facets = store::read_game_facets(db);
  ASSERT_TRUE(facets);
  EXPECT_EQ(facets->last_id, uint32_t(headers_->rbegin()->first));
  for (const auto& [id, h] : *headers_) {
    ASSERT_EQ(facets->white_elo[size_t(id)], h.white_elo) << id;
    ASSERT_EQ(facets->black_elo[size_t(id)], h.black_elo) << id;
    ASSERT_EQ(facets->date_key[size_t(id)], h.date_key) << id;
    const uint16_t tc = facets->time_control[size_t(id)];
    ASSERT_EQ(tc ? facets->time_controls[tc - 1] : std::string("?"), h.time_control) << id;
  }
}

// The counts of every filter at a few positions, from the facets and from SQL, against the
// replay; in the database of automatic fingerprints and in the crowded one.
void ExplorerLichess::expect_counts_match_the_replay(const std::string& path, const std::vector<std::string>& fens) {
  std::vector<std::pair<std::string, search::GameFilter>> filters;
  filters.push_back({"none", {}});
  search::GameFilter f;
  f.min_elo = 3000;
  filters.push_back({"min-elo 3000", f});
  f.elo_either = true;
  filters.push_back({"min-elo 3000 either", f});
  f = {};
  f.min_elo = 2500;
  f.max_elo = 3100;
  filters.push_back({"elo 2500-3100", f});
  f = {};
  f.date_from_key = 20210300;  // March 2021 (a whole-month bound, as parse_date_bound writes it)
  f.date_to_key = 20210699;
  filters.push_back({"2021.03-2021.06", f});
  f = {};
  f.time_control = *search::TimeControlMatcher::parse("bullet");
  f.min_elo = 2800;
  f.date_from_key = 20210000;
  filters.push_back({"bullet, 2800+, from 2021", f});
  for (const auto& [label, filter] : filters)
    for (const std::string& fen : fens) {
      const Board position = query_test::board_of(fen);
      std::string ignored;
      const auto want = expected_moves(position.key(), filter, &ignored);
      uint64_t want_total = 0;
      for (const auto& [next, ids] : want) want_total += ids.size();
      for (bool facets : {true, false}) {
        const search::ExplorerResult r = run(position, filter, facets, path);
        EXPECT_EQ(r.used_facets, facets) << label;
        std::map<Key, std::set<int64_t>> found_keys;
        uint64_t total = 0;
        std::map<Key, uint64_t> found, wanted;
        for (const search::ExplorerMove& m : r.moves) {
          Board after = position;
          UndoInfo undo;
          after.do_move(m.move, undo);
          found[after.key()] = m.games;
          total += m.games;
          EXPECT_EQ(m.fen, write_fen(after));
        }
        for (const auto& [next, ids] : want) wanted[next] = ids.size();
        EXPECT_EQ(found, wanted) << label << " " << fen << (facets ? " (facets)" : " (SQL)") << " in " << path;
        EXPECT_EQ(total, want_total) << label;
      }
    }
}

TEST_F(ExplorerLichess, FilteredCountsMatchAFullReplay) {
  // The start position, a first-move position and one a few moves deep.
  expect_counts_match_the_replay(db_path_, {std::string(kStartFen), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
                                            "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"});
}

TEST_F(ExplorerLichess, CrowdedFingerprintsChangeNoCount) {
  // The same, and positions from the middle of real games (few games each, so that the
  // postings of other keys outnumber the position's own).
  std::vector<std::string> fens = {std::string(kStartFen), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
                                   "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"};
  for (size_t i = 0; i < games_->size(); i += 97) {
    const query_test::ReplayedGame& g = (*games_)[i];
    for (size_t ply : {6u, 14u, 30u})
      if (ply + 1 < g.fens.size()) fens.push_back(g.fens[ply]);
  }
  ASSERT_GT(fens.size(), 40u);
  expect_counts_match_the_replay(crowded_path_, fens);
  // The crowded segment does crowd: a lookup meets other keys' postings.
  store::Database db(crowded_path_, store::Database::Mode::ReadOnly);
  store::PositionIndexReader reader(db);
  const Board position = query_test::board_of(fens.back());
  size_t own = 0;
  for (const auto& g : *games_) own += size_t(std::count(g.keys.begin(), g.keys.end(), position.key()));
  EXPECT_GT(reader.lookup(position.key()).size(), own + 20);
  // A FEN search finds the games that reach each position, and no other.
  for (const std::string& fen : fens) {
    const Board target = query_test::board_of(fen);
    std::vector<int64_t> want, got;
    for (const auto& g : *games_)
      if (std::find(g.keys.begin(), g.keys.end(), target.key()) != g.keys.end()) want.push_back(g.id);
    search::SearchOptions options;
    options.filter.position = target;
    search::GameSearch search(db, options);
    while (search.next()) got.push_back(search.row().id);
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got, want) << fen;
  }
}

TEST_F(ExplorerLichess, TopGamesAreTheHighestRatedReachingThePosition) {
  search::GameFilter filter;
  filter.time_control = *search::TimeControlMatcher::parse("blitz");
  const Board position = query_test::board_of("rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1");
  std::string ignored;
  std::vector<std::pair<int64_t, int64_t>> rated;  // (-rating sum, id)
  for (const auto& [next, ids] : expected_moves(position.key(), filter, &ignored))
    for (int64_t id : ids) {
      const Header& h = headers_->at(id);
      if (h.white_elo && h.black_elo) rated.push_back({-(h.white_elo + h.black_elo), id});
    }
  std::sort(rated.begin(), rated.end());
  rated.erase(std::unique(rated.begin(), rated.end()), rated.end());
  ASSERT_GE(rated.size(), 5u);
  for (bool facets : {true, false}) {
    const search::ExplorerResult r = run(position, filter, facets);
    ASSERT_EQ(r.top_games.size(), 5u);
    for (size_t i = 0; i < 5; ++i) {
      const search::TopGame& g = r.top_games[i];
      EXPECT_EQ(g.id, rated[i].second) << i;
      EXPECT_EQ(g.white_elo, headers_->at(g.id).white_elo);
      EXPECT_EQ(g.black_elo, headers_->at(g.id).black_elo);
      EXPECT_FALSE(g.white.empty());
      EXPECT_FALSE(g.san.empty());
      EXPECT_EQ(g.date.substr(0, 2), "20");
    }
  }
}

TEST_F(ExplorerLichess, OpeningNamesComeFromTheDeepestNamedPosition) {
  const store::EcoTable& table = store::EcoTable::builtin();
  // 1.e4 c5 2.Nf3 is named (B27 Sicilian Defense); each of its moves names its own line
  // or, when the table has no entry, inherits the position's.
  const Board position = query_test::board_of("rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
  const search::ExplorerResult r = run(position, {}, true);
  const store::EcoEntry* own = table.find(position.key());
  ASSERT_TRUE(own);
  EXPECT_EQ(r.opening.eco, own->eco);
  EXPECT_EQ(r.opening.name, own->name);
  ASSERT_GE(r.moves.size(), 3u);
  size_t named = 0;
  for (const search::ExplorerMove& m : r.moves) {
    const store::EcoEntry* child = table.find(query_test::board_of(m.fen).key());
    EXPECT_EQ(m.opening.name, child ? child->name : own->name) << m.san;
    named += child != nullptr;
  }
  EXPECT_GT(named, 0u);
}

// Stored answers (explorer_summary.h) equal the answers counted from the postings, and
// are ignored once the position index changes.
TEST_F(ExplorerLichess, SummariesAnswerAsThePostingsDo) {
  const std::string copy = dir_->file("summaries.db");
  std::filesystem::copy_file(db_path_, copy);
  search::SummaryBuildStats stats;
  {
    store::Database db(copy, store::Database::Mode::ReadWrite);
    store::Transaction t(db);
    stats = search::build_explorer_summaries(db, 50);
    t.commit();
  }
  EXPECT_GT(stats.positions, 20u);
  store::Database db(copy, store::Database::Mode::ReadOnly);
  store::Statement keys = db.prepare("SELECT count(*) FROM explorer_summaries");
  ASSERT_TRUE(keys.step());
  EXPECT_EQ(uint64_t(keys.column_int64(0)), stats.positions);
  // Walk the tree the summaries cover; each stored answer against a counted one.
  std::vector<Board> todo = {Board()};
  size_t compared = 0;
  while (!todo.empty()) {
    const Board position = todo.back();
    todo.pop_back();
    const std::optional<search::ExplorerResult> stored = search::read_explorer_summary(db, position);
    if (!stored) continue;
    search::ExplorerOptions options;
    options.filter.position = position;
    const search::ExplorerResult a = search::explore(db, options);
    options.use_summaries = false;
    const search::ExplorerResult b = search::explore(db, options);
    ASSERT_EQ(a.games, b.games);
    EXPECT_EQ(a.ended_here, b.ended_here);
    ASSERT_EQ(a.moves.size(), b.moves.size()) << a.fen;
    for (size_t i = 0; i < a.moves.size(); ++i) {
      EXPECT_EQ(a.moves[i].san, b.moves[i].san);
      EXPECT_EQ(a.moves[i].fen, b.moves[i].fen);
      EXPECT_EQ(a.moves[i].games, b.moves[i].games);
      EXPECT_EQ(a.moves[i].white_wins, b.moves[i].white_wins);
      EXPECT_EQ(a.moves[i].draws, b.moves[i].draws);
      EXPECT_EQ(a.moves[i].black_wins, b.moves[i].black_wins);
      EXPECT_EQ(a.moves[i].rated_games, b.moves[i].rated_games);
      EXPECT_DOUBLE_EQ(a.moves[i].rating_sum, b.moves[i].rating_sum);
      if (a.moves[i].games >= 50) todo.push_back(query_test::board_of(a.moves[i].fen));
      // Names come from the stored eco_positions here; they are the builtin table's.
      const uint64_t child = query_test::board_of(a.moves[i].fen).key();
      const store::EcoEntry* entry = store::EcoTable::builtin().find(child);
      EXPECT_EQ(store::name_opening(db, std::span(&child, 1)).name, entry ? std::string(entry->name) : "");
    }
    ASSERT_EQ(a.top_games.size(), b.top_games.size());
    for (size_t i = 0; i < a.top_games.size(); ++i) {
      EXPECT_EQ(a.top_games[i].id, b.top_games[i].id);
      EXPECT_EQ(a.top_games[i].san, b.top_games[i].san);
      EXPECT_EQ(a.top_games[i].white, b.top_games[i].white);
    }
    ++compared;
  }
  EXPECT_EQ(compared, stats.positions);
  // Another import changes the position index: the stored answers no longer count.
  const std::string more = dir_->file("more.pgn");
  test::write_file(more, query_test::kSampleGames);
  query_test::import_files(copy, {more});
  store::Database after(copy, store::Database::Mode::ReadOnly);
  EXPECT_FALSE(search::read_explorer_summary(after, Board()));
}

}  // namespace
}  // namespace pgnbase::query

namespace pgnbase::query {
namespace {

// Issue 21 item 8: a --replace whose import brings the same moves (the posting count does
// not change) and that ends before the summaries are rebuilt (Ctrl-C) must not leave them
// answering: they name games that no longer exist.
TEST_F(ExplorerLichess, SummariesAreStaleAfterAReplacementWithTheSameMoves) {
  const std::string copy = dir_->file("replaced.db");
  std::filesystem::copy_file(db_path_, copy);
  {
    store::Database db(copy, store::Database::Mode::ReadWrite);
    store::Transaction t(db);
    search::build_explorer_summaries(db, 50);
    t.commit();
  }
  {
    store::Database db(copy, store::Database::Mode::ReadOnly);
    ASSERT_TRUE(search::read_explorer_summary(db, Board()));
  }
  indexer::DatabaseWriter writer(copy, indexer::WriterOptions{});
  indexer::ImportOptions options;
  options.threads = 2;
  options.replace = true;
  options.dedupe = false;  // as the database was imported: the same postings
  options.build.keep_annotations = true;  // another option, the same games and moves
  const indexer::ImportOutcome outcome = indexer::import_file(kSample, writer, options);
  ASSERT_EQ(outcome.replaced.size(), 1u);
  store::Database after(copy, store::Database::Mode::ReadOnly);
  EXPECT_FALSE(search::read_explorer_summary(after, Board()));
}

}  // namespace
}  // namespace pgnbase::query

namespace pgnbase::query {
namespace {

// Every summary row, key to data (the stamp aside).
std::map<int64_t, std::string> summary_rows(const std::string& path) {
  store::Database db(path, store::Database::Mode::ReadOnly);
  store::Statement s = db.prepare("SELECT key, data FROM explorer_summaries");
  std::map<int64_t, std::string> rows;
  while (s.step()) {
    auto data = s.column_blob(1);
    rows[s.column_int64(0)] = std::string(reinterpret_cast<const char*>(data.data()), data.size());
  }
  return rows;
}

// threads > 1: each level's positions explored on read connections of their own.
search::SummaryBuildStats build_summaries(const std::string& path, const search::SummaryBase* since,
                                          unsigned threads = 1) {
  store::Database db(path, store::Database::Mode::ReadWrite);
  store::Transaction t(db);
  const search::SummaryBuildStats stats = search::build_explorer_summaries(db, 20, since, threads);
  t.commit();
  return stats;
}

// The positions of a level explored on several read connections: the rows that one
// connection writes, byte for byte. A position index the writer changed and did not
// commit (here the second half's segment deleted) is not what a reader sees: then the
// writer's own connection explores, and the summaries follow its changes.
TEST_F(ExplorerLichess, SummariesExploredOnSeveralConnectionsAreTheSame) {
  const std::vector<std::string>& games = test::sample_games();
  std::string half_one, half_two;
  for (size_t i = 0; i < games.size(); ++i) (i < games.size() / 2 ? half_one : half_two) += games[i];
  const std::string one = dir_->file("one.db"), four = dir_->file("four.db");
  const std::string first = dir_->file("one.pgn"), second = dir_->file("two.pgn");
  test::write_file(first, half_one);
  test::write_file(second, half_two);
  query_test::import_files(one, {first}, false);
  query_test::import_files(one, {second}, false);
  std::filesystem::copy_file(one, four);
  const search::SummaryBuildStats by_one = build_summaries(one, nullptr, 1);
  EXPECT_GT(by_one.positions, 20u);
  EXPECT_EQ(build_summaries(four, nullptr, 4).positions, by_one.positions);
  EXPECT_EQ(summary_rows(four), summary_rows(one));

  auto last_segment = [](store::Database& db) {
    store::Statement s = db.prepare("SELECT max(segment_id) FROM position_segments");
    return s.step() ? s.column_int64(0) : 0;
  };
  {
    store::Database db(one, store::Database::Mode::ReadWrite);
    store::Transaction t(db);
    ASSERT_TRUE(store::delete_position_segment(db, last_segment(db)));
    t.commit();
  }
  const search::SummaryBuildStats committed = build_summaries(one, nullptr, 1);
  EXPECT_LT(committed.positions, by_one.positions);
  {
    store::Database db(four, store::Database::Mode::ReadWrite);
    store::Transaction t(db);
    ASSERT_TRUE(store::delete_position_segment(db, last_segment(db)));
    EXPECT_EQ(search::build_explorer_summaries(db, 20, nullptr, 4).positions, committed.positions);
    t.commit();
  }
  EXPECT_EQ(summary_rows(four), summary_rows(one));
}

// An import that only adds games updates the stored answers from the new games' postings;
// the rows are those a rebuild writes, byte for byte. After a removal they are rebuilt.
TEST_F(ExplorerLichess, SummariesUpdatedAfterAnAppendAreThoseOfARebuild) {
  const std::vector<std::string>& games = test::sample_games();
  std::string half_one, half_two;
  for (size_t i = 0; i < games.size(); ++i) (i < games.size() / 2 ? half_one : half_two) += games[i];
  const std::string first = dir_->file("first.pgn"), second = dir_->file("second.pgn");
  test::write_file(first, half_one);
  test::write_file(second, half_two);
  const std::string updated = dir_->file("updated.db"), rebuilt = dir_->file("rebuilt.db");
  query_test::import_files(updated, {first}, false);
  ASSERT_GT(build_summaries(updated, nullptr).positions, 20u);
  search::SummaryBase since;
  {
    store::Database db(updated, store::Database::Mode::ReadOnly);
    since = search::summary_base(db);
  }
  query_test::import_files(updated, {second}, false);
  std::filesystem::copy_file(updated, rebuilt);
  const search::SummaryBuildStats update = build_summaries(updated, &since, 4);
  const search::SummaryBuildStats rebuild = build_summaries(rebuilt, nullptr);
  EXPECT_GT(update.updated, 20u);
  EXPECT_EQ(rebuild.updated, 0u);
  EXPECT_GT(rebuild.positions, update.updated);  // some positions reach 20 games only now
  EXPECT_EQ(update.positions, rebuild.positions);
  EXPECT_EQ(summary_rows(updated), summary_rows(rebuilt));

  // A removal since the base: the rows of before no longer add up, so all are recounted.
  {
    store::Database db(updated, store::Database::Mode::ReadWrite);
    since = search::summary_base(db);
    store::Transaction t(db);
    const std::vector<int64_t> sources = indexer::find_sources_named(db, first);
    ASSERT_EQ(sources.size(), 1u);
    indexer::remove_source(db, sources[0]);
    t.commit();
  }
  std::filesystem::remove(rebuilt);
  std::filesystem::copy_file(updated, rebuilt);
  EXPECT_EQ(build_summaries(updated, &since).updated, 0u);
  build_summaries(rebuilt, nullptr);
  EXPECT_EQ(summary_rows(updated), summary_rows(rebuilt));
}

}  // namespace
}  // namespace pgnbase::query
