// The material blocks (store/material_blocks.h): the runs written in id order come back
// game by game, from the blocks and from a look-up of one game; a block an earlier source
// began is completed, not replaced; a removal takes exactly the removed games out; a
// damaged blob is refused, not misread. The runs are opaque to the blocks: here, bytes
// made from the id (a targeted format test; the import's real runs are checked by
// import_test and the pattern search's tests).
#include "store/material_blocks.h"

#include <gtest/gtest.h>

#include <map>

#include "store/schema.h"
#include "tests/support/temp_dir.h"

namespace pgnbase::store {
namespace {

std::string runs_of(int64_t id) { return std::string(size_t(id % 97), char('a' + id % 26)) + std::to_string(id); }

std::string_view view(std::span<const std::byte> blob) { return {reinterpret_cast<const char*>(blob.data()), blob.size()}; }

// Every entry of every block, by game id, checking each block's `games` column.
std::map<int64_t, std::string> stored_runs(Database& db) {
  std::map<int64_t, std::string> all;
  Statement s = db.prepare("SELECT block, games, runs FROM material_blocks ORDER BY block");
  std::vector<MaterialEntry> entries;
  while (s.step()) {
    EXPECT_TRUE(decode_material_block(s.column_int64(0), view(s.column_blob(2)), entries));
    EXPECT_EQ(int64_t(entries.size()), s.column_int64(1));
    for (const MaterialEntry& e : entries) {
      EXPECT_EQ(material_block_of(e.game_id), s.column_int64(0));
      EXPECT_TRUE(all.emplace(e.game_id, std::string(e.runs)).second) << e.game_id;
      EXPECT_EQ(material_runs_in_block(e.game_id, view(s.column_blob(2))), e.runs);
    }
  }
  return all;
}

class MaterialBlocks : public ::testing::Test {
 protected:
  void SetUp() override {
    db_.exec(kSchemaSql);
    db_.exec(kGamesIndexesSql);
  }
  test::TempDir dir_;
  Database db_{(dir_.path() / "m.db").string(), Database::Mode::Create};
};

TEST_F(MaterialBlocks, RunsWrittenInIdOrderComeBackGameByGame) {
  std::map<int64_t, std::string> written;
  MaterialBlockWriter writer(db_);
  // Gaps inside a block and across blocks (skipped duplicates take no id, removed games
  // leave holes); a game with empty runs is still an entry.
  for (int64_t id : {1, 2, 3, 15, 16, 17, 40, 41, 64, 65, 200}) {
    written[id] = id == 41 ? "" : runs_of(id);
    writer.add(id, written[id]);
  }
  writer.flush();
  EXPECT_EQ(stored_runs(db_), written);
  EXPECT_EQ(count_material_runs(db_), int64_t(written.size()));
  Statement blocks = db_.prepare("SELECT count(*) FROM material_blocks");
  ASSERT_TRUE(blocks.step());
  EXPECT_EQ(blocks.column_int64(0), 6);  // blocks 0, 1, 2, 3, 4 and 12
}

TEST_F(MaterialBlocks, ABlockAnEarlierSourceBeganIsCompleted) {
  std::map<int64_t, std::string> written;
  {
    MaterialBlockWriter writer(db_);
    for (int64_t id = 1; id <= 20; ++id) writer.add(id, written[id] = runs_of(id));
    writer.flush();
  }
  MaterialBlockWriter writer(db_);
  for (int64_t id = 21; id <= 50; ++id) writer.add(id, written[id] = runs_of(id));
  writer.flush();
  EXPECT_EQ(stored_runs(db_), written);
  // After a flush (a removal may follow), the next game reads its block back again.
  writer.add(51, written[51] = runs_of(51));
  writer.flush();
  EXPECT_EQ(stored_runs(db_), written);
  // A game id at or below one its block holds is a bug, refused rather than stored twice.
  EXPECT_THROW(writer.add(50, "x"), StoreError);
  writer.clear();
  MaterialBlockWriter again(db_);
  EXPECT_THROW(
      {
        again.add(49, "x");  // a block's first id: no row is read back, and the one there stays
        again.flush();
      },
      StoreError);
  EXPECT_EQ(stored_runs(db_), written);
}

// A chunk's whole blocks built apart (a staged part, indexer/row_staging.h) and the
// blocks at its ends filled by the writer's MaterialBlockWriter, skipping the whole
// ones: every game's runs once, in the block of its id.
TEST_F(MaterialBlocks, WholeBlocksBuiltApartAndTheEndsByTheWriterHoldEveryGame) {
  EXPECT_EQ(whole_material_blocks(1, 15).blocks(), 0);
  EXPECT_EQ(whole_material_blocks(1, 16).first, 1);
  EXPECT_EQ(whole_material_blocks(1, 16).last, 16);
  EXPECT_EQ(whole_material_blocks(2, 33).first, 17);  // block 0 lacks game 1, block 2 games 34 to 48
  EXPECT_EQ(whole_material_blocks(2, 33).last, 32);
  EXPECT_EQ(whole_material_blocks(17, 16 * 5).blocks(), 4);
  EXPECT_EQ(whole_material_blocks(20, 40).blocks(), 0);

  std::map<int64_t, std::string> written;
  MaterialBlockWriter writer(db_);
  for (int64_t id = 1; id <= 5; ++id) writer.add(id, written[id] = runs_of(id));  // an earlier chunk's
  // A chunk of games 6 to 70: blocks 1 to 3 (games 17 to 64) are whole, built in two
  // parts split inside block 2 (the first part's blocks read past its last game).
  const WholeMaterialBlocks whole = whole_material_blocks(6, 70);
  ASSERT_EQ(whole.first, 17);
  ASSERT_EQ(whole.last, 64);
  for (int64_t id = 6; id <= 70; ++id) written[id] = runs_of(id);
  auto runs = [&](int64_t id) -> std::string_view { return written.at(id); };
  const WholeMaterialBlocks first_part = whole.beginning_in(6, 40), second_part = whole.beginning_in(41, 70);
  EXPECT_EQ(first_part.blocks(), 2);  // blocks 1 and 2, games 17 to 48
  EXPECT_EQ(first_part.last, 48);
  EXPECT_EQ(second_part.blocks(), 1);  // block 3
  EXPECT_EQ(second_part.first, 49);
  EXPECT_EQ(whole.beginning_in(50, 64).blocks(), 0);  // inside block 3: it begins before
  write_whole_material_blocks(db_, first_part, runs);
  write_whole_material_blocks(db_, second_part, runs);
  for (int64_t id = 6; id <= 70; ++id)
    if (!whole.contains(id)) writer.add(id, written[id]);
  writer.flush();
  EXPECT_EQ(stored_runs(db_), written);
  EXPECT_EQ(count_material_runs(db_), 70);
  // A whole block written twice is a bug, refused rather than replaced.
  EXPECT_THROW(write_whole_material_blocks(db_, second_part, runs), StoreError);
}

TEST_F(MaterialBlocks, ARemovalTakesExactlyTheRemovedGamesOut) {
  std::map<int64_t, std::string> written;
  MaterialBlockWriter writer(db_);
  for (int64_t id = 1; id <= 100; ++id) writer.add(id, written[id] = runs_of(id));
  writer.flush();
  std::vector<int64_t> removed;
  for (int64_t id = 17; id <= 32; ++id) removed.push_back(id);  // all of block 1
  for (int64_t id : {1, 5, 33, 99, 100}) removed.push_back(id);
  std::sort(removed.begin(), removed.end());
  remove_material_runs(db_, removed);
  for (int64_t id : removed) written.erase(id);
  EXPECT_EQ(stored_runs(db_), written);
  Statement block = db_.prepare("SELECT count(*) FROM material_blocks WHERE block = 1");
  ASSERT_TRUE(block.step());
  EXPECT_EQ(block.column_int64(0), 0);  // left empty: gone
  remove_material_runs(db_, removed);  // nothing left of them: nothing changes
  EXPECT_EQ(stored_runs(db_), written);
}

TEST_F(MaterialBlocks, ADamagedBlobIsRefusedNotMisread) {
  std::string blob;
  MaterialBlockWriter writer(db_);
  for (int64_t id : {33, 34, 40}) writer.add(id, runs_of(id));
  writer.flush();
  Statement s = db_.prepare("SELECT runs FROM material_blocks WHERE block = 2");
  ASSERT_TRUE(s.step());
  blob = std::string(view(s.column_blob(0)));
  std::vector<MaterialEntry> entries;
  ASSERT_TRUE(decode_material_block(2, blob, entries));
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[2].game_id, 40);
  EXPECT_EQ(material_runs_in_block(40, blob), runs_of(40));
  EXPECT_EQ(material_runs_in_block(35, blob), "");  // not in the block
  // Cut short: the entries before the cut are read, the rest refused.
  EXPECT_FALSE(decode_material_block(2, blob.substr(0, blob.size() - 1), entries));
  EXPECT_EQ(entries.size(), 2u);
  EXPECT_EQ(material_runs_in_block(40, blob.substr(0, blob.size() - 1)), "");
  // Ids not increasing, or past the block: refused.
  std::string swapped = blob;
  swapped[0] = char(7);  // the first entry now claims offset 7, after it comes offset 1
  EXPECT_FALSE(decode_material_block(2, swapped, entries));
  std::string past = blob;
  past[0] = char(kMaterialBlockGames);
  EXPECT_FALSE(decode_material_block(2, past, entries));
  EXPECT_EQ(material_runs_in_block(33, past), "");
}

}  // namespace
}  // namespace pgnbase::store
