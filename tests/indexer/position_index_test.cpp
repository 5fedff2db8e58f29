#include "indexer/position_index.h"
#include "store/position_index_sql.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <set>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "core/board.h"
#include "core/move_code.h"
#include "core/movegen.h"
#include "store/database.h"
#include "store/position_index_reader.h"
#include "tests/support/temp_dir.h"

namespace pgnbase::indexer {
namespace {

namespace fs = std::filesystem;

constexpr uint64_t kStartPositionKey = 0x463b96181691fc9cull;  // Polyglot's published start key
constexpr uint64_t kTwoTo63 = 0x8000000000000000ull;

// A well-mixed key for a shared opening position (splitmix64's finaliser), so that
// shared keys spread over the key space like real Polyglot keys.
uint64_t opening_key(int ply, uint64_t variant) {
  uint64_t z = 0x9e3779b97f4a7c15ull * (static_cast<uint64_t>(ply) * 16 + variant + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

bool game_ply_less(const store::Posting& a, const store::Posting& b) {
  return a.game_id != b.game_id ? a.game_id < b.game_id : a.ply < b.ply;
}

// Postings of `games` synthetic games: every game starts with one shared key, the next
// plies pick among a few shared keys (openings), the rest are random and unique.
std::vector<store::Posting> make_games(uint32_t first_game, uint32_t games, uint32_t seed) {
  std::mt19937_64 random(seed);
  std::vector<store::Posting> postings;
  for (uint32_t game = first_game; game < first_game + games; ++game) {
    auto result = static_cast<store::GameResult>(random() % 4);
    int plies = 20 + static_cast<int>(random() % 40);
    for (int ply = 0; ply <= plies; ++ply) {
      uint64_t key;
      if (ply == 0)
        key = kStartPositionKey;
      else if (ply < 6)
        key = opening_key(ply, random() % 3);  // a few shared openings
      else
        key = random();
      uint16_t move = ply == plies ? 0 : static_cast<uint16_t>(random() & 0x7fff);
      postings.push_back(store::Posting{key, game, static_cast<uint16_t>(ply), move, result});
    }
  }
  return postings;
}

// The expected answer: postings by key, each list sorted by game then ply.
std::map<uint64_t, std::vector<store::Posting>> group_by_key(const std::vector<store::Posting>& postings) {
  std::map<uint64_t, std::vector<store::Posting>> by_key;
  for (const store::Posting& posting : postings) by_key[posting.key].push_back(posting);
  for (auto& [key, list] : by_key) std::sort(list.begin(), list.end(), game_ply_less);
  return by_key;
}

// A block's bytes damaged: every third trial cut short, the others with three bits flipped.
std::string corrupted(const std::string& original, int trial, std::mt19937& random) {
  std::string corrupt = original;
  if (trial % 3 == 0) {
    corrupt.resize(random() % corrupt.size());
  } else {
    for (int flips = 0; flips < 3; ++flips) corrupt[random() % corrupt.size()] ^= static_cast<char>(1 << (random() % 8));
  }
  return corrupt;
}

class PositionIndexTest : public test::TempDirTest {
 protected:
  void SetUp() override {
    test::TempDirTest::SetUp();
    fs::create_directories(dir_ / "runs");
  }

  store::Database open_database(const std::string& name = "index.db") {
    store::Database db((dir_ / name).string(), store::Database::Mode::Create);
    store::create_position_index_schema(db);
    return db;
  }

  PositionIndexOptions options(size_t budget = size_t{64} << 20, uint32_t block_postings = 512) const {
    PositionIndexOptions options;
    options.memory_budget_bytes = budget;
    options.temp_dir = dir_ / "runs";
    options.block_postings = block_postings;
    return options;
  }

  store::SegmentStats write(store::Database& db, int64_t segment_id, const std::vector<store::Posting>& postings,
                     const PositionIndexOptions& options) {
    PositionIndexBuilder builder(options);
    for (const store::Posting& posting : postings) builder.add(posting);
    store::Transaction transaction(db);
    store::SegmentStats stats = builder.write_segment(db, segment_id);
    transaction.commit();
    return stats;
  }

  std::vector<std::string> block_blobs(store::Database& db) {
    std::vector<std::string> blobs;
    store::Statement select = db.prepare("SELECT data FROM position_blocks ORDER BY block_id");
    while (select.step()) {
      auto blob = select.column_blob(0);
      blobs.emplace_back(reinterpret_cast<const char*>(blob.data()), blob.size());
    }
    return blobs;
  }

  // Looks up every shared key and every 10th unique one (each lookup costs a query).
  void expect_lookups(store::PositionIndexReader& reader, const std::map<uint64_t, std::vector<store::Posting>>& expected) {
    size_t unique = 0;
    for (const auto& [key, list] : expected) {
      if (list.size() == 1 && unique++ % 10 != 0) continue;
      ASSERT_EQ(reader.lookup(key), list) << "key " << key;
    }
  }

  size_t files_in(const fs::path& directory) {
    return static_cast<size_t>(std::distance(fs::directory_iterator(directory), fs::directory_iterator()));
  }
};

TEST_F(PositionIndexTest, RoundTripsEveryKeyIncludingOneSpanningManyBlocks) {
  std::vector<store::Posting> postings = make_games(1, 3000, 7);
  auto expected = group_by_key(postings);
  store::Database db = open_database();
  store::SegmentStats stats = write(db, 1, postings, options());
  EXPECT_EQ(stats.postings, postings.size());
  EXPECT_EQ(stats.distinct_keys, expected.size());
  EXPECT_EQ(stats.games, 3000u);
  EXPECT_EQ(stats.first_game_id, 1u);
  EXPECT_EQ(stats.last_game_id, 3000u);

  store::PositionIndexReader reader(db);
  expect_lookups(reader, expected);

  // The start position is in all 3000 games: about six 512-posting blocks, all read.
  uint64_t before = reader.blocks_read();
  std::vector<store::Posting> start = reader.lookup(kStartPositionKey);
  ASSERT_EQ(start.size(), 3000u);
  EXPECT_GE(reader.blocks_read() - before, 6u);
  for (uint32_t i = 0; i < 3000; ++i) {
    EXPECT_EQ(start[i].game_id, i + 1);
    EXPECT_EQ(start[i].ply, 0);
  }
}

TEST_F(PositionIndexTest, RareKeyReadsOneBlock) {
  std::vector<store::Posting> postings = make_games(1, 2000, 8);
  store::Database db = open_database();
  store::SegmentStats stats = write(db, 1, postings, options());
  ASSERT_GT(stats.blocks, 50u);
  store::PositionIndexReader reader(db);
  uint64_t before = reader.blocks_read();
  EXPECT_EQ(reader.lookup(postings[30].key).size(), 1u);
  EXPECT_EQ(reader.blocks_read() - before, 1u);
}

TEST_F(PositionIndexTest, KeysAtTheEdgesOfTheUnsignedRange) {
  const std::vector<uint64_t> keys = {0, 1, kTwoTo63 - 1, kTwoTo63, kTwoTo63 + 1, ~uint64_t{0} - 1, ~uint64_t{0}};
  std::vector<store::Posting> postings;
  for (uint32_t game = 1; game <= 40; ++game)
    for (size_t i = 0; i < keys.size(); ++i)
      postings.push_back(store::Posting{keys[i], game, static_cast<uint16_t>(i), static_cast<uint16_t>(game + i),
                                 store::GameResult::Draw});
  store::Database db = open_database();
  write(db, 1, postings, options(size_t{64} << 20, 16));  // 40 postings per key: keys span blocks
  auto expected = group_by_key(postings);
  store::PositionIndexReader reader(db);
  for (uint64_t key : keys) {
    ASSERT_EQ(reader.lookup(key), expected[key]) << "key " << key;
    EXPECT_EQ(reader.count(key), 40u);
  }
  for (uint64_t absent : {uint64_t{2}, kTwoTo63 - 2, kTwoTo63 + 2, ~uint64_t{0} - 2, uint64_t{12345}}) {
    EXPECT_TRUE(reader.lookup(absent).empty()) << "key " << absent;
    EXPECT_EQ(reader.count(absent), 0u);
  }
}

TEST_F(PositionIndexTest, AbsentKeysFindNothing) {
  std::vector<store::Posting> postings = make_games(1, 500, 9);
  auto expected = group_by_key(postings);
  store::Database db = open_database();
  write(db, 1, postings, options());
  store::PositionIndexReader reader(db);
  std::mt19937_64 random(99);
  int probes = 0;
  while (probes < 2000) {
    uint64_t key = random();
    if (expected.count(key)) continue;
    ASSERT_TRUE(reader.lookup(key).empty());
    ++probes;
  }
  // Just below and above the smallest and largest keys, and between two neighbours.
  EXPECT_TRUE(reader.lookup(expected.begin()->first - 1).empty());
  EXPECT_TRUE(reader.lookup(std::prev(expected.end())->first + 1).empty());
  EXPECT_TRUE(reader.lookup(opening_key(1, 3)).empty());
}

TEST_F(PositionIndexTest, EmptyDatabaseAndEmptySegment) {
  store::Database db = open_database();
  store::PositionIndexReader reader(db);
  EXPECT_TRUE(reader.lookup(kStartPositionKey).empty());
  store::SegmentStats stats = write(db, 5, {}, options());
  EXPECT_EQ(stats.postings, 0u);
  EXPECT_EQ(stats.blocks, 0u);
  EXPECT_TRUE(reader.lookup(kStartPositionKey).empty());
  ASSERT_EQ(store::read_position_segments(db).size(), 1u);
}

TEST_F(PositionIndexTest, LookupsSpanSegmentsInGameOrder) {
  std::vector<store::Posting> first = make_games(1, 400, 1);
  std::vector<store::Posting> second = make_games(401, 300, 2);
  std::vector<store::Posting> third = make_games(701, 200, 3);
  store::Database db = open_database();
  write(db, 10, first, options());
  write(db, 11, second, options());
  write(db, 12, third, options());

  std::vector<store::Posting> all = first;
  all.insert(all.end(), second.begin(), second.end());
  all.insert(all.end(), third.begin(), third.end());
  auto expected = group_by_key(all);
  store::PositionIndexReader reader(db);
  expect_lookups(reader, expected);

  std::vector<store::SegmentStats> segments = store::read_position_segments(db);
  ASSERT_EQ(segments.size(), 3u);
  EXPECT_EQ(segments[0].segment_id, 10);
  EXPECT_EQ(segments[1].postings, second.size());
  EXPECT_EQ(segments[2].first_game_id, 701u);
  EXPECT_EQ(segments[2].last_game_id, 900u);
  EXPECT_GT(segments[0].block_bytes, 0u);
}

TEST_F(PositionIndexTest, VisitAndCountAgreeWithLookup) {
  store::Database db = open_database();
  write(db, 1, make_games(1, 700, 4), options());
  write(db, 2, make_games(701, 700, 5), options());
  store::PositionIndexReader reader(db);
  for (uint64_t key : {kStartPositionKey, opening_key(1, 0), opening_key(5, 2)}) {
    std::vector<store::Posting> visited;
    size_t calls = 0;
    reader.visit(key, [&](std::span<const store::Posting> batch) {
      ++calls;
      visited.insert(visited.end(), batch.begin(), batch.end());
    });
    EXPECT_EQ(visited, reader.lookup(key));
    EXPECT_EQ(reader.count(key), visited.size());
    EXPECT_GT(calls, 1u);
  }
}

// Each visitor call's postings, in call order.
std::vector<std::vector<store::Posting>> visit_batches(store::PositionIndexReader& reader, uint64_t key) {
  std::vector<std::vector<store::Posting>> batches;
  reader.visit(key, [&](std::span<const store::Posting> batch) { batches.emplace_back(batch.begin(), batch.end()); });
  return batches;
}

TEST_F(PositionIndexTest, DecodingAheadGivesTheSameBatchesInTheSameOrder) {
  store::Database db = open_database();
  write(db, 1, make_games(1, 3000, 4), options());
  write(db, 2, make_games(3001, 2000, 5), options());
  store::PositionIndexReader alone(db);
  for (unsigned helpers : {1u, 2u, 5u}) {
    store::PositionIndexReader ahead(db);
    ahead.set_decode_threads(helpers);
    for (uint64_t key : {kStartPositionKey, opening_key(1, 0), opening_key(5, 2), opening_key(3, 1), uint64_t{12345}}) {
      const auto batches = visit_batches(alone, key);
      if (key == kStartPositionKey) {
        EXPECT_GE(batches.size(), 10u);  // blocks of 512 in two segments
      }
      EXPECT_EQ(visit_batches(ahead, key), batches) << helpers << " helpers, key " << key;
      EXPECT_EQ(ahead.lookup(key), alone.lookup(key)) << helpers << " helpers, key " << key;
    }
  }
}

TEST_F(PositionIndexTest, DecodingAheadStopsWhenTheVisitorThrows) {
  store::Database db = open_database();
  write(db, 1, make_games(1, 3000, 4), options());
  store::PositionIndexReader reader(db);
  reader.set_decode_threads(3);
  size_t calls = 0;
  EXPECT_THROW(reader.visit(kStartPositionKey,
                            [&](std::span<const store::Posting>) {
                              if (++calls == 2) throw std::runtime_error("enough");
                            }),
               std::runtime_error);
  EXPECT_EQ(calls, 2u);
  // The reader goes on: its statements were reset, its read transaction ended.
  EXPECT_EQ(reader.count(kStartPositionKey), 3000u);
  EXPECT_EQ(reader.lookup(kStartPositionKey).size(), 3000u);
}

TEST_F(PositionIndexTest, DecodingAheadFailsOnACorruptBlockAsInTurn) {
  store::Database db = open_database();
  write(db, 1, make_games(1, 3000, 9), options());
  // A block in the middle of the start position's.
  store::Statement find = db.prepare(
      "SELECT block_id, data FROM position_blocks WHERE first_key <= ?1 ORDER BY first_key DESC LIMIT 3");
  find.bind_int64(1, store::position_index_sql::to_sql_key(kStartPositionKey));
  std::vector<std::pair<int64_t, std::string>> blocks;
  while (find.step()) {
    std::span<const std::byte> blob = find.column_blob(1);
    blocks.emplace_back(find.column_int64(0), std::string(reinterpret_cast<const char*>(blob.data()), blob.size()));
  }
  find.reset();
  ASSERT_EQ(blocks.size(), 3u);
  const auto& [block_id, original] = blocks[1];
  store::Statement update = db.prepare("UPDATE position_blocks SET data = ?1 WHERE block_id = ?2");
  update.bind_int64(2, block_id);
  store::PositionIndexReader alone(db), ahead(db);
  ahead.set_decode_threads(2);
  // What a visit gives before it stops, and how it stops.
  auto outcome = [&](store::PositionIndexReader& reader) {
    std::vector<store::Posting> visited;
    std::string error;
    try {
      reader.visit(kStartPositionKey, [&](std::span<const store::Posting> batch) {
        visited.insert(visited.end(), batch.begin(), batch.end());
      });
    } catch (const store::PositionIndexError& e) {
      error = e.what();
    }
    return std::make_pair(visited, error);
  };
  std::mt19937 random(2);
  int thrown = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const std::string corrupt = corrupted(original, trial, random);
    update.bind_blob(1, std::span(reinterpret_cast<const std::byte*>(corrupt.data()), corrupt.size()));
    update.run();
    const auto expected = outcome(alone);
    EXPECT_EQ(outcome(ahead), expected) << "trial " << trial;
    if (!expected.second.empty()) {
      ++thrown;
      EXPECT_NE(expected.second.find("segment 1: "), std::string::npos) << expected.second;
    }
  }
  EXPECT_GT(thrown, 20);
}

TEST_F(PositionIndexTest, SpillingGivesTheSameBlocksAsSortingInMemory) {
  std::vector<store::Posting> postings = make_games(1, 2000, 11);
  store::Database in_memory = open_database("in-memory.db");
  write(in_memory, 1, postings, options());

  // 200 postings per run: about 450 runs, so the merge cascades (64 at a time).
  store::Database spilled = open_database("spilled.db");
  PositionIndexBuilder builder(options(200 * PostingSorter::kBytesPerBufferedPosting));
  for (const store::Posting& posting : postings) builder.add(posting);
  EXPECT_GT(builder.runs_spilled(), PostingSorter::kMaxMergeFanIn);
  EXPECT_EQ(builder.run_paths().size(), builder.runs_spilled());
  {
    store::Transaction transaction(spilled);
    builder.write_segment(spilled, 1);
    transaction.commit();
  }
  EXPECT_EQ(block_blobs(in_memory), block_blobs(spilled));
}

// The import hands the sorter sorted runs (a chunk's postings each): past the budget the
// first spill runs on the caller's thread, the later ones on threads of their own (one, or
// three sharing each spill's key partitions, each writing a file of its own); the segment
// is the same as sorting all in memory, and the files go away.
TEST_F(PositionIndexTest, SortedRunsSpilledInTheBackgroundGiveTheSameBlocks) {
  std::vector<store::Posting> postings = make_games(1, 2000, 15);
  store::Database in_memory = open_database("in-memory.db");
  write(in_memory, 1, postings, options());

  for (unsigned threads : {1u, 3u}) {
    store::Database spilled = open_database("spilled-" + std::to_string(threads) + ".db");
    const size_t budget_postings = postings.size() / 12;
    PositionIndexOptions spilling = options(budget_postings * PostingSorter::kBytesPerBufferedPosting);
    spilling.spill_threads = threads;
    PositionIndexBuilder builder(spilling);
    size_t runs = 0;
    for (size_t at = 0; at < postings.size(); ++runs) {
      // Runs of a few games' postings, as the import's chunks are.
      std::vector<PostingSorter::Record> run;
      const uint32_t first_game = postings[at].game_id;
      for (; at < postings.size() && postings[at].game_id < first_game + 7; ++at)
        run.push_back(PostingSorter::to_record(postings[at]));
      sort_posting_records(run.data(), run.size());
      builder.add_sorted_run(std::move(run), 7);
    }
    ASSERT_GT(runs, 100u);
    // About 24 half-budget runs after the first: fewer when a spill outlasts the runs
    // handed over meanwhile (the builder waits, then spills more at once).
    EXPECT_GE(builder.runs_spilled(), 6u);
    {
      store::Transaction transaction(spilled);
      builder.write_segment(spilled, 1);
      transaction.commit();
    }
    EXPECT_EQ(block_blobs(in_memory), block_blobs(spilled)) << threads << " threads";
    EXPECT_EQ(files_in(dir_ / "runs"), 0u);
  }
}

// The import's writer starts the merge before it builds the games indexes, and inserts
// the blocks afterwards: the same segment whether the merge threads could run ahead of
// the insertion through every partition (a large budget) or only through a few (a budget
// of spilled runs), and a builder dropped with its merge under way stops it and leaves
// no files.
TEST_F(PositionIndexTest, AMergeStartedBeforeTheWriteGivesTheSameBlocks) {
  std::vector<store::Posting> postings = make_games(1, 3000, 16);
  ASSERT_GT(postings.size(), size_t{1} << 16);  // above the size merged on the writing thread
  store::Database expected = open_database("expected.db");
  write(expected, 1, postings, options());

  for (size_t budget : {size_t{64} << 20, 5000 * PostingSorter::kBytesPerBufferedPosting}) {
    PositionIndexOptions early = options(budget);
    early.threads = 3;
    store::Database db = open_database("early-" + std::to_string(budget) + ".db");
    PositionIndexBuilder builder(early);
    for (const store::Posting& posting : postings) builder.add(posting);
    builder.start_merge();
    builder.start_merge();  // once is enough
    EXPECT_THROW(builder.add(postings[0]), store::PositionIndexError);
    const bool small_budget = budget < (size_t{1} << 20);
    if (small_budget) {
      // Nothing inserted for a while: the merge goes on past its window of partitions in
      // memory, the rest waiting in a temporary file.
      for (int i = 0; i < 1000 && builder.bytes_spooled() == 0; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      EXPECT_GT(builder.bytes_spooled(), 0u);
    }
    store::Transaction transaction(db);
    // Meanwhile the writer builds the games indexes, inserting what is ready in between.
    for (int i = 0; i < 20; ++i) {
      builder.insert_ready_blocks(db, 1);
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    const store::SegmentStats stats = builder.write_segment(db, 1);
    transaction.commit();
    EXPECT_EQ(stats.postings, postings.size());
    EXPECT_EQ(block_blobs(db), block_blobs(expected)) << "budget " << budget;
    if (!small_budget) {
      EXPECT_EQ(builder.bytes_spooled(), 0u) << "everything fits the window";
    }
    EXPECT_EQ(files_in(dir_ / "runs"), 0u);
  }

  PositionIndexOptions spilled = options(5000 * PostingSorter::kBytesPerBufferedPosting);
  spilled.threads = 2;
  {
    PositionIndexBuilder dropped(spilled);
    for (const store::Posting& posting : postings) dropped.add(posting);
    ASSERT_GT(dropped.runs_spilled(), 0u);
    dropped.start_merge();
  }
  EXPECT_EQ(files_in(dir_ / "runs"), 0u);

  // A segment that exists already is refused before a block goes in, and the builder
  // then refuses to go on.
  store::Database db = open_database("taken.db");
  write(db, 1, make_games(1, 10, 17), options());
  const std::vector<std::string> blocks_before = block_blobs(db);
  PositionIndexBuilder taken(spilled);
  for (const store::Posting& posting : postings) taken.add(posting);
  taken.start_merge();
  store::Transaction transaction(db);
  EXPECT_THROW(taken.insert_ready_blocks(db, 1), store::PositionIndexError);
  EXPECT_THROW(taken.write_segment(db, 2), store::PositionIndexError);
  EXPECT_EQ(store::read_position_segments(db).size(), 1u);
  EXPECT_EQ(block_blobs(db), blocks_before);
  EXPECT_EQ(files_in(dir_ / "runs"), 0u);
}

// The merge plays a tournament among its sources (file runs, then memory runs, oldest
// first): every posting comes out once, in (key, game, ply) order, and a posting that two
// runs both hold (the same key, game and ply; hand-made, the import never makes one)
// comes out of the older run first, whatever the number of runs (here not a power of two,
// some spilled to files by one to three threads, some empty in a partition).
TEST_F(PositionIndexTest, TheMergeOrdersPostingsAndTiesKeepTheOlderRun) {
  for (size_t runs : {size_t{1}, size_t{2}, size_t{3}, size_t{37}, size_t{130}}) {
    for (size_t budget_postings : {size_t{1} << 24, size_t{6000}}) {
      std::mt19937_64 random(runs * 7 + budget_postings);
      PostingSorter sorter(budget_postings * PostingSorter::kBytesPerBufferedPosting, dir_ / "runs", unsigned(runs % 3) + 1);
      std::vector<store::Posting> added;
      for (size_t run = 0; run < runs; ++run) {
        std::vector<store::Posting> postings;
        const size_t n = random() % 400;
        for (size_t i = 0; i < n; ++i) {
          // Every 8th repeats a posting of an earlier run, with a move of its own.
          store::Posting p{random(), uint32_t(random() % 50), uint16_t(i), uint16_t(run), store::GameResult(random() % 4)};
          if (i % 8 == 7 && !added.empty()) {
            p = added[random() % added.size()];
            p.next_move = uint16_t(run);
            if (std::any_of(postings.begin(), postings.end(), [&](const store::Posting& q) {
                  return q.key == p.key && q.game_id == p.game_id && q.ply == p.ply;
                }))
              continue;  // one run holds a posting once
          }
          postings.push_back(p);
        }
        std::vector<PostingSorter::Record> records;
        for (const store::Posting& p : postings) records.push_back(PostingSorter::to_record(p));
        sort_posting_records(records.data(), records.size());
        added.insert(added.end(), postings.begin(), postings.end());
        sorter.add_sorted_run(std::move(records));
      }
      std::vector<store::Posting> expected = added;
      std::stable_sort(expected.begin(), expected.end(), store::posting_less);
      std::vector<store::Posting> merged;
      sorter.merge([&](std::span<const store::Posting> batch) { merged.insert(merged.end(), batch.begin(), batch.end()); });
      ASSERT_EQ(merged.size(), expected.size()) << runs << " runs";
      for (size_t i = 0; i < merged.size(); ++i)  // == compares the moves too
        ASSERT_EQ(merged[i], expected[i]) << runs << " runs, budget " << budget_postings << ", posting " << i;
    }
  }
  EXPECT_EQ(files_in(dir_ / "runs"), 0u);
}

// The import's writer hands a chunk's postings over with their games' indexes in the
// chunk and the chunk's first game id as an offset, when no game of the chunk was skipped:
// the segment is the one the same runs with their ids written out give, spilled or not.
TEST_F(PositionIndexTest, RunsWithAGameIdOffsetGiveTheSameBlocks) {
  std::vector<store::Posting> postings = make_games(1, 2000, 18);
  for (size_t budget_postings : {postings.size() * 2, postings.size() / 12}) {
    store::Database written_out = open_database("ids-" + std::to_string(budget_postings) + ".db");
    store::Database offset = open_database("offset-" + std::to_string(budget_postings) + ".db");
    PositionIndexBuilder a(options(budget_postings * PostingSorter::kBytesPerBufferedPosting));
    PositionIndexBuilder b(options(budget_postings * PostingSorter::kBytesPerBufferedPosting));
    for (size_t at = 0; at < postings.size();) {
      std::vector<PostingSorter::Record> ids, local;
      const uint32_t first_game = postings[at].game_id;
      for (; at < postings.size() && postings[at].game_id < first_game + 7; ++at) {
        ids.push_back(PostingSorter::to_record(postings[at]));
        store::Posting p = postings[at];
        p.game_id -= first_game;
        local.push_back(PostingSorter::to_record(p));
      }
      const uint32_t last_game = postings[at - 1].game_id;
      sort_posting_records(ids.data(), ids.size());
      sort_posting_records(local.data(), local.size());
      a.add_sorted_run(std::move(ids), last_game - first_game + 1);
      b.add_sorted_run(std::move(local), last_game - first_game + 1, first_game, first_game, last_game);
    }
    EXPECT_EQ(a.runs_spilled(), b.runs_spilled());
    for (auto [builder, db] : {std::pair{&a, &written_out}, std::pair{&b, &offset}}) {
      store::Transaction transaction(*db);
      const store::SegmentStats stats = builder->write_segment(*db, 1);
      transaction.commit();
      EXPECT_EQ(stats.first_game_id, 1u);
      EXPECT_EQ(stats.last_game_id, 2000u);
      EXPECT_EQ(stats.games, 2000u);
    }
    EXPECT_EQ(block_blobs(written_out), block_blobs(offset)) << "budget " << budget_postings;
    store::PositionIndexReader reader(offset);
    expect_lookups(reader, group_by_key(postings));
  }
}

TEST_F(PositionIndexTest, AddOrderDoesNotChangeTheSegment) {
  std::vector<store::Posting> postings = make_games(1, 1000, 12);
  store::Database ordered = open_database("ordered.db");
  write(ordered, 1, postings, options());
  std::shuffle(postings.begin(), postings.end(), std::mt19937(5));
  store::Database shuffled = open_database("shuffled.db");
  write(shuffled, 1, postings, options(5000 * PostingSorter::kBytesPerBufferedPosting));
  EXPECT_EQ(block_blobs(ordered), block_blobs(shuffled));
}

TEST_F(PositionIndexTest, TempFilesAreRemovedAfterWritingAndOnDestruction) {
  std::vector<store::Posting> postings = make_games(1, 300, 13);
  store::Database db = open_database();
  {
    PositionIndexBuilder builder(options(100 * PostingSorter::kBytesPerBufferedPosting));
    for (const store::Posting& posting : postings) builder.add(posting);
    ASSERT_GT(builder.runs_spilled(), 10u);
    EXPECT_EQ(files_in(dir_ / "runs"), builder.runs_spilled());
    store::Transaction transaction(db);
    builder.write_segment(db, 1);
    transaction.commit();
    EXPECT_EQ(files_in(dir_ / "runs"), 0u);
  }
  {
    PositionIndexBuilder abandoned(options(100 * PostingSorter::kBytesPerBufferedPosting));
    for (const store::Posting& posting : postings) abandoned.add(posting);
    EXPECT_GT(files_in(dir_ / "runs"), 10u);
  }
  EXPECT_EQ(files_in(dir_ / "runs"), 0u);
}

TEST_F(PositionIndexTest, FailedWriteRemovesTempFilesAndWritesNothing) {
  std::vector<store::Posting> postings = make_games(1, 300, 14);
  store::Database db = open_database();
  write(db, 1, postings, options());
  PositionIndexBuilder builder(options(100 * PostingSorter::kBytesPerBufferedPosting));
  for (const store::Posting& posting : postings) builder.add(posting);
  {
    store::Transaction transaction(db);
    EXPECT_THROW(builder.write_segment(db, 1), store::PositionIndexError);  // segment 1 exists
  }
  EXPECT_THROW(builder.add(postings[0]), store::PositionIndexError);
  PositionIndexBuilder no_transaction(options());
  no_transaction.add(postings[0]);
  EXPECT_THROW(no_transaction.write_segment(db, 2), store::PositionIndexError);
  EXPECT_EQ(store::read_position_segments(db).size(), 1u);
}

TEST_F(PositionIndexTest, DeletingASegmentRemovesItsPostingsOnly) {
  std::vector<store::Posting> first = make_games(1, 300, 21);
  std::vector<store::Posting> second = make_games(301, 300, 22);
  store::Database db = open_database();
  write(db, 1, first, options());
  write(db, 2, second, options());
  store::PositionIndexReader reader(db);
  ASSERT_EQ(reader.count(kStartPositionKey), 600u);

  EXPECT_TRUE(store::delete_position_segment(db, 1));
  EXPECT_FALSE(store::delete_position_segment(db, 1));
  EXPECT_FALSE(store::delete_position_segment(db, 99));
  auto expected = group_by_key(second);
  expect_lookups(reader, expected);
  EXPECT_TRUE(reader.lookup(first.back().key).empty());
  ASSERT_EQ(store::read_position_segments(db).size(), 1u);
  EXPECT_FALSE(store::read_position_segment(db, 1).has_value());
  store::Statement blocks = db.prepare("SELECT count(*) FROM position_blocks WHERE segment_id = 1");
  ASSERT_TRUE(blocks.step());
  EXPECT_EQ(blocks.column_int64(0), 0);

  // The id can be used again, e.g. when the abandoned file is imported anew.
  write(db, 1, first, options());
  EXPECT_EQ(reader.count(kStartPositionKey), 600u);
}

TEST_F(PositionIndexTest, DeleteInsideTheCallersTransactionRollsBackWithIt) {
  store::Database db = open_database();
  write(db, 1, make_games(1, 100, 23), options());
  {
    store::Transaction transaction(db);
    EXPECT_TRUE(store::delete_position_segment(db, 1));
  }  // rolled back
  EXPECT_EQ(store::PositionIndexReader(db).count(kStartPositionKey), 100u);
}

TEST_F(PositionIndexTest, FingerprintSegmentsReturnEveryTrueMatchAndFewOthers) {
  std::vector<store::Posting> postings = make_games(1, 2000, 31);
  auto expected = group_by_key(postings);
  store::Database db = open_database();
  PositionIndexOptions fingerprints = options();
  fingerprints.key_bits = 24;  // ~60k distinct keys in 16M fingerprints: a few collisions
  store::SegmentStats stats = write(db, 1, postings, fingerprints);
  EXPECT_EQ(stats.key_bits, 24);
  store::PositionIndexReader reader(db);
  size_t false_matches = 0;
  size_t checked = 0;
  for (const auto& [key, list] : expected) {
    if (list.size() == 1 && checked++ % 10 != 0) continue;
    std::vector<store::Posting> found = reader.lookup(key);
    ASSERT_TRUE(std::is_sorted(found.begin(), found.end(), game_ply_less));
    for (const store::Posting& posting : found) EXPECT_EQ(posting.key, key);
    // Every true posting is there; the others come from keys with the same top 24 bits.
    size_t true_matches = 0;
    for (const store::Posting& posting : found) {
      store::Posting original = posting;
      bool is_true = std::find_if(list.begin(), list.end(), [&](const store::Posting& p) {
                       return p.game_id == original.game_id && p.ply == original.ply;
                     }) != list.end();
      true_matches += is_true;
    }
    ASSERT_EQ(true_matches, list.size());
    false_matches += found.size() - list.size();
  }
  EXPECT_LT(false_matches, checked / 100);
}

// A lean segment keeps only the fingerprint of a key seen once in its block. With 10
// fingerprint bits (about 100 keys to each), a lookup must still give every posting of
// the key, with its move where the key has two or more, and otherwise only postings
// without moves (of keys seen once, which a reader's replay refutes); a key that fills
// blocks of its own (the start position) must come back alone, in game order, as the
// explorer streams it.
TEST_F(PositionIndexTest, CrowdedFingerprintsKeepEveryTrueMatchAndLongKeysAlone) {
  std::vector<store::Posting> postings = make_games(1, 3000, 13);
  auto expected = group_by_key(postings);
  store::Database db = open_database();
  PositionIndexOptions crowded = options();
  crowded.lean = true;
  crowded.key_bits = 40;
  crowded.fingerprint_bits = 10;
  store::SegmentStats stats = write(db, 1, postings, crowded);
  EXPECT_EQ(stats.key_bits, 10);
  EXPECT_EQ(stats.distinct_keys, expected.size());
  store::PositionIndexReader reader(db);
  size_t others = 0, unique = 0;
  for (const auto& [key, list] : expected) {
    if (list.size() == 1 && unique++ % 10 != 0) continue;
    const std::vector<store::Posting> found = reader.lookup(key);
    ASSERT_TRUE(std::is_sorted(found.begin(), found.end(), game_ply_less));
    EXPECT_EQ(reader.count(key), found.size());
    // Postings with a move must be the key's own; then the key's others (its groups of
    // one: no move) are taken from those without, and what is left is other keys'.
    std::multiset<std::pair<uint32_t, uint16_t>> want;
    for (const store::Posting& p : list) want.insert({p.game_id, p.next_move});
    std::vector<uint32_t> moveless;
    for (const store::Posting& p : found) {
      EXPECT_EQ(p.key, key);
      if (p.next_move == store::kUnknownNextMove) {
        moveless.push_back(p.game_id);
        continue;
      }
      const auto it = want.find({p.game_id, p.next_move});
      ASSERT_NE(it, want.end()) << "another key's posting with a move, game " << p.game_id;
      want.erase(it);
    }
    for (const auto& [game, move] : want) {
      const auto it = std::find(moveless.begin(), moveless.end(), game);
      ASSERT_NE(it, moveless.end()) << "game " << game << " of key " << key << " missing";
      moveless.erase(it);
    }
    others += moveless.size();
  }
  EXPECT_GT(others, 1000u);
  std::vector<uint32_t> games;
  reader.visit(kStartPositionKey, [&](std::span<const store::Posting> block) {
    for (const store::Posting& p : block) {
      EXPECT_NE(p.next_move, store::kUnknownNextMove);
      games.push_back(p.game_id);
    }
  });
  ASSERT_EQ(games.size(), 3000u);
  for (uint32_t i = 0; i < 3000; ++i) ASSERT_EQ(games[i], i + 1);
}

TEST_F(PositionIndexTest, AddGameIndexesEveryPlyOfRealGames) {
  // Random legal games from the start position, as the import would add them.
  std::mt19937 random(3);
  store::Database db = open_database();
  PositionIndexBuilder builder(options());
  std::vector<std::vector<uint64_t>> game_keys;
  std::vector<std::vector<uint16_t>> game_moves;
  for (uint32_t game = 1; game <= 50; ++game) {
    Board board;
    std::vector<uint64_t> keys{board.key()};
    std::vector<uint16_t> moves;
    std::vector<UndoInfo> undo(60);
    for (int ply = 0; ply < 60; ++ply) {
      MoveList list;
      generate_legal_moves(board, list);
      if (list.empty()) break;
      Move move = list[random() % list.size()];
      moves.push_back(encode_move(board, move));
      board.do_move(move, undo[ply]);
      keys.push_back(board.key());
    }
    builder.add_game(game, store::GameResult::WhiteWin, keys, moves);
    game_keys.push_back(keys);
    game_moves.push_back(moves);
  }
  EXPECT_THROW(builder.add_game(99, store::GameResult::Draw, game_keys[0], game_moves[0].size() > 1
                                                                       ? std::span(game_moves[0]).first(1)
                                                                       : std::span<const uint16_t>()),
               store::PositionIndexError);
  {
    store::Transaction transaction(db);
    builder.write_segment(db, 1);
    transaction.commit();
  }
  store::PositionIndexReader reader(db);
  std::vector<store::Posting> start = reader.lookup(kStartPositionKey);
  ASSERT_EQ(start.size(), 50u);
  for (size_t i = 0; i < 50; ++i) {
    EXPECT_EQ(start[i].ply, 0);
    EXPECT_EQ(start[i].next_move, game_moves[i][0]);
    EXPECT_EQ(start[i].result, store::GameResult::WhiteWin);
  }
  // The final position of game 7 has no next move.
  std::vector<store::Posting> last = reader.lookup(game_keys[6].back());
  auto it = std::find_if(last.begin(), last.end(), [](const store::Posting& p) { return p.game_id == 7; });
  ASSERT_NE(it, last.end());
  EXPECT_EQ(it->ply, game_moves[6].size());
  EXPECT_EQ(it->next_move, 0);
}

TEST_F(PositionIndexTest, CorruptBlocksThrowInsteadOfReadingGarbage) {
  store::Database db = open_database();
  write(db, 1, make_games(1, 200, 41), options(size_t{64} << 20, 4096));
  // The block holding the start position (blocks are cut at key partitions, so it is
  // not necessarily the first).
  store::Statement find = db.prepare(
      "SELECT block_id, data FROM position_blocks WHERE first_key <= ?1 ORDER BY first_key DESC LIMIT 1");
  find.bind_int64(1, store::position_index_sql::to_sql_key(kStartPositionKey));
  ASSERT_TRUE(find.step());
  const int64_t block_id = find.column_int64(0);
  std::span<const std::byte> blob = find.column_blob(1);
  std::string original(reinterpret_cast<const char*>(blob.data()), blob.size());
  find.reset();
  store::Statement update = db.prepare("UPDATE position_blocks SET data = ?1 WHERE block_id = ?2");
  update.bind_int64(2, block_id);
  store::PositionIndexReader reader(db);
  std::mt19937 random(1);
  int thrown = 0;
  for (int trial = 0; trial < 150; ++trial) {
    const std::string corrupt = corrupted(original, trial, random);
    update.bind_blob(1, std::span(reinterpret_cast<const std::byte*>(corrupt.data()), corrupt.size()));
    update.run();
    try {
      reader.lookup(kStartPositionKey);
      reader.count(opening_key(1, 1));
    } catch (const store::PositionIndexError& error) {
      ++thrown;
      EXPECT_NE(std::string(error.what()).find("segment 1"), std::string::npos) << error.what();
    }
  }
  EXPECT_GT(thrown, 50);
}

}  // namespace
}  // namespace pgnbase::indexer
