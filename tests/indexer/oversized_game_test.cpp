// Issue 22 item 1: a game, or a stretch of text between games, longer than
// --max-game-bytes becomes one reject naming its line, with its first 64 KiB and a note
// in the rejects, and the import's memory stays bounded: a stream is never held whole.
// The bombs are scaled down (a 1 MiB limit instead of 64 MiB) to stay quick.
#include <gtest/gtest.h>
#include <zstd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "indexer/import_pipeline.h"
#include "store/database.h"
#include "tests/support/peak_memory.h"
#include "tests/support/temp_dir.h"

namespace pgnbase::indexer {
namespace {

namespace fs = std::filesystem;

// Hand-made games around the bombs (the size is the point, not the games).
constexpr std::string_view kGame =
    "[Event \"E\"]\n[White \"W\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n";
constexpr size_t kLimit = size_t{1} << 20;

class OversizedGame : public test::TempDirTest {
 protected:
  std::string write(const std::string& name, const std::string& bytes, bool zstd) {
    const fs::path path = dir_ / name;
    std::string out = bytes;
    if (zstd) {
      out.resize(ZSTD_compressBound(bytes.size()));
      out.resize(ZSTD_compress(out.data(), out.size(), bytes.data(), bytes.size(), 1));
    }
    std::ofstream(path, std::ios::binary) << out;
    return path.string();
  }

  ImportOutcome import(const std::string& db, const std::string& input, std::ostream* rejects = nullptr) {
    DatabaseWriter writer(db, WriterOptions{});
    ImportOptions options;
    options.threads = 2;
    options.chunk_bytes = 64 << 10;
    options.max_game_bytes = kLimit;
    options.rejects_out = rejects;
    return import_file(input, writer, options);
  }

  int64_t scalar(const std::string& db, const std::string& sql) {
    store::Database d(db, store::Database::Mode::ReadOnly);
    store::Statement s = d.prepare(sql);
    return s.step() ? s.column_int64(0) : -1;
  }
};

// One game, a 16 MiB comment in the second, a third game: as a stream (zstd) and mapped.
TEST_F(OversizedGame, ALongCommentIsOneRejectAndTheGamesAroundItStay) {
  std::string text(kGame);
  text += std::string(kGame.substr(0, kGame.find("1. e4"))) + "{" + std::string(size_t{16} << 20, 'x') + "} 1. d4 1-0\n\n";
  std::string third(kGame);
  third.replace(third.find("\"W\""), 3, "\"W3\"");  // not a duplicate of the first
  text += "\n\n" + third;
  for (bool zstd : {true, false}) {
    SCOPED_TRACE(zstd ? "stream" : "mapped");
    const std::string db = (dir_ / (zstd ? "s.db" : "m.db")).string();
    std::ostringstream rejects;
    const ImportOutcome o = import(db, write(zstd ? "bomb.pgn.zst" : "bomb.pgn", text, zstd), &rejects);
    EXPECT_EQ(o.summary.games_found, 3u);
    EXPECT_EQ(o.summary.imported, 2u);
    EXPECT_EQ(o.summary.rejected, 1u);
    EXPECT_EQ(o.summary.rejects_by_kind.count("game too long"), 1u);
    EXPECT_EQ(scalar(db, "SELECT line FROM rejects"), 8);  // the second game's first line
    EXPECT_EQ(scalar(db, "SELECT line FROM games WHERE game_number = 3"), 17);
    EXPECT_EQ(o.bytes, text.size());
    const std::string kept = rejects.str();
    EXPECT_LT(kept.size(), size_t{65} << 10);
    EXPECT_NE(kept.find("was left out: longer than --max-game-bytes"), std::string::npos);
  }
  // The stream and the mapped file are the same content (the hash counts the dropped bytes).
  store::Database s((dir_ / "s.db").string(), store::Database::Mode::ReadOnly);
  store::Database m((dir_ / "m.db").string(), store::Database::Mode::ReadOnly);
  store::Statement hs = s.prepare("SELECT content_hash FROM sources"), hm = m.prepare("SELECT content_hash FROM sources");
  ASSERT_TRUE(hs.step() && hm.step());
  EXPECT_EQ(hs.column_text(0), hm.column_text(0));
}

// 32 MiB of newlines as a stream (a few KB of zstd): the splitter held it whole (peak 539
// MB for 512 MiB; here a 64 MiB buffer); now one reject and a buffer of about the limit
// (the peak grows 6-15 MiB under ASan, other tests running beside it).
TEST_F(OversizedGame, AStreamWithoutGameBoundariesIsNotHeldWhole) {
  const std::string input = write("newlines.pgn.zst", std::string(size_t{32} << 20, '\n') + std::string(kGame), true);
  test::PeakMemory peak;
  const ImportOutcome o = import((dir_ / "n.db").string(), input);
  EXPECT_EQ(o.summary.imported, 1u);
  EXPECT_EQ(o.summary.rejected, 1u);
  if (peak.available()) {
    std::printf("32 MiB without a game boundary: peak grew %ld KiB (bound 28 MiB)\n", peak.growth_kib());
    EXPECT_LT(peak.growth_kib(), 28 << 10) << "KiB";
  }
}

}  // namespace
}  // namespace pgnbase::indexer
