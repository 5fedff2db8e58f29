// pgn-index -o DB OTHER.db: a pgnbase database given as an input is merged. Every query
// on the merged database must answer as if the PGN files had been imported (export, FEN
// search, explorer, sources, rejects, removal), and a damaged or foreign OTHER.db must be
// a reject or a one-line refusal, never a crash.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>

#include "store/database.h"
#include "store/posting_block_codec.h"
#include "tests/cli/cli_support.h"
#include "tests/support/bundled_sample.h"
#include "tests/support/files.h"
#include "tests/support/shared_data.h"

namespace pgnbase::cli_test {
namespace {

// Positions the sample's games reach often: after 1. e4, 1. e4 c5 and 1. d4 Nf6 2. c4.
const std::vector<std::string> kFens = {
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
    "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
    "rnbqkb1r/pppppppp/5n2/8/2PP4/8/PP2PPPP/RNBQKBNR b KQkq - 0 2",
};

class MergeDatabase : public CliTest {
 protected:
  std::string sample_file(const std::string& name, size_t first, size_t end) {
    return file(name, test::games_text(first, end));
  }

  void import(const std::string& db, const std::vector<std::string>& inputs, const std::string& threads = "2") {
    std::vector<std::string> args{"-q", "-j", threads, "-o", path(db)};
    args.insert(args.end(), inputs.begin(), inputs.end());
    const Ran r = index(args);
    ASSERT_EQ(r.code, 0) << r;
    ASSERT_EQ(r.err, "") << r;
  }

  std::string rows(const std::string& db, const std::string& sql) {
    store::Database d(path(db), store::Database::Mode::ReadOnly);
    store::Statement s = d.prepare(sql);
    std::string out;
    while (s.step()) {
      for (int c = 0; c < s.column_count(); ++c) out += std::string(s.column_text(c)) + "|";
      out += "\n";
    }
    return out;
  }

  static std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> lines;
    for (size_t at = 0, end; at < text.size(); at = end + 1) {
      end = text.find('\n', at);
      if (end == std::string::npos) end = text.size();
      lines.push_back(text.substr(at, end - at));
    }
    return lines;
  }

  std::string output(const std::vector<std::string>& args) {
    const Ran r = query(args);
    EXPECT_EQ(r.code, 0) << r;
    return r.out;
  }

  // What a user can ask the database, in one text: two databases that answer every part
  // alike are the same to their users.
  std::string answers(const std::string& db) {
    const std::string p = path(db);
    std::string out = "export:\n" + output({"export", p, "-o", "-"});
    for (const std::string& fen : kFens) {
      out += "fen " + fen + ": " + output({"search", p, "--fen", fen, "--count"});
      out += "explore " + fen + ":\n" + output({"explore", p, "--fen", fen, "--format", "json"});
    }
    out += "explore start:\n" + output({"explore", p, "--format", "json"});
    out += "rejects:\n" + output({"rejects", p});
    // The sources as stats lists them, but for when and how fast each was imported.
    out += "sources:\n" + rows(db, "SELECT id, path, size, content_hash, games_found, imported, rejected, duplicates, "
                                   "language_counts FROM sources ORDER BY id");
    out += "copies:\n" + rows(db, "SELECT game_id, source_id FROM game_copies ORDER BY 1, 2");
    out += "games:\n" + rows(db, "SELECT id, source_id, game_number, byte_offset, line, dedupe_key, eco, eco_source, "
                                 "opening_id, length(moves), length(tags) FROM games ORDER BY id");
    return out;
  }

  // A table's rows as SQL literals (quote(): text quoted, blobs in hex, numbers bare), so
  // that a value of another type shows; without the columns named in skip.
  std::string typed_rows(const std::string& db, const std::string& table, const std::string& order,
                         const std::vector<std::string>& skip = {}) {
    std::string columns;
    for (std::string line : split_lines(rows(db, "SELECT name FROM pragma_table_info('" + table + "')"))) {
      line.pop_back();  // the '|' after the name
      if (std::find(skip.begin(), skip.end(), line) != skip.end()) continue;
      columns += (columns.empty() ? "quote(" : " || '|' || quote(") + line + ")";
    }
    return table + ":\n" + rows(db, "SELECT " + columns + " FROM " + table + " ORDER BY " + order);
  }

  // Every stored row an import writes, but for when and how fast each source was
  // imported: a merge must write these as the import of its PGN does.
  std::string tables(const std::string& db) {
    return typed_rows(db, "games", "id") + typed_rows(db, "material_blocks", "block") +
           typed_rows(db, "game_annotations", "id") + typed_rows(db, "names", "id") +
           typed_rows(db, "name_words", "word, name_id") + typed_rows(db, "openings", "id") + typed_rows(db, "rejects", "id") +
           typed_rows(db, "game_copies", "game_id, source_id") + typed_rows(db, "sources", "id", {"imported_at", "seconds"}) +
           position_index(db);
  }

  // Expects the texts of db and direct (what describe gives) to be equal, saying where
  // they first differ.
  void expect_same(const std::string& db, const std::string& direct,
                   const std::function<std::string(const std::string&)>& describe) {
    const std::string a = describe(db), b = describe(direct);
    if (a == b) return;
    size_t at = 0;
    while (at < a.size() && at < b.size() && a[at] == b[at]) ++at;
    const size_t from = a.rfind('\n', at) == std::string::npos ? 0 : a.rfind('\n', at);
    ADD_FAILURE() << db << " and " << direct << " differ at byte " << at << ":\n" << a.substr(from, 300) << "\n---\n"
                  << b.substr(from, 300);
  }
  // Expects db and direct to hold the same rows.
  void expect_same_tables(const std::string& db, const std::string& direct) {
    expect_same(db, direct, [&](const std::string& d) { return tables(d); });
  }
  // Expects db and direct to answer alike.
  void expect_same_answers(const std::string& db, const std::string& direct) {
    expect_same(db, direct, [&](const std::string& d) { return answers(d); });
  }

  // Replaces a blob of games row `id` in db.
  void set_blob(const std::string& db, int64_t id, const std::string& column, const std::string& bytes) {
    store::Database d(path(db), store::Database::Mode::ReadWrite);
    store::Statement s = d.prepare("UPDATE games SET " + column + " = ?1 WHERE id = ?2");
    s.bind_blob(1, std::span(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
    s.bind_int64(2, id);
    s.run();
  }
  std::string blob(const std::string& db, int64_t id, const std::string& column) {
    store::Database d(path(db), store::Database::Mode::ReadOnly);
    store::Statement s = d.prepare("SELECT " + column + " FROM games WHERE id = ?1");
    s.bind_int64(1, id);
    if (!s.step()) return "";
    const std::span<const std::byte> b = s.column_blob(0);
    return std::string(reinterpret_cast<const char*>(b.data()), b.size());
  }
  void exec(const std::string& db, const std::string& sql) {
    store::Database d(path(db), store::Database::Mode::Create);
    d.exec(sql);
  }

  // The position index as stored: every segment row and block, bytes included.
  std::string position_index(const std::string& db) {
    return rows(db, "SELECT segment_id, format, key_bits, postings, distinct_keys, games, first_game_id, last_game_id, "
                    "blocks, block_bytes FROM position_segments ORDER BY 1") +
           rows(db, "SELECT segment_id, first_key, last_key, postings, hex(data) FROM position_blocks ORDER BY block_id");
  }

  // Rewrites the first block of db's index that holds a stored move (a key two games
  // reached) with change applied to its postings: a block that decodes, with wrong content.
  void rewrite_a_block(const std::string& db, const std::function<void(std::vector<store::Posting>&)>& change) {
    store::Database d(path(db), store::Database::Mode::ReadWrite);
    store::Statement blocks = d.prepare("SELECT block_id, data FROM position_blocks ORDER BY block_id");
    while (blocks.step()) {
      const std::span<const std::byte> data = blocks.column_blob(1);
      const std::vector<uint8_t> bytes(reinterpret_cast<const uint8_t*>(data.data()),
                                       reinterpret_cast<const uint8_t*>(data.data()) + data.size());
      store::PostingBlockDecoder decoder;
      decoder.open(bytes);
      std::vector<store::Posting> postings;
      decoder.decode_all(postings);
      if (std::none_of(postings.begin(), postings.end(),
                       [](const store::Posting& p) { return p.next_move != store::kUnknownNextMove; }))
        continue;
      change(postings);
      store::PostingBlockEncoder encoder(decoder.key_bits(), 1, true);
      const std::span<const uint8_t> changed = encoder.encode(postings);
      const int64_t id = blocks.column_int64(0);
      blocks.reset();
      store::Statement update = d.prepare("UPDATE position_blocks SET data = ?1 WHERE block_id = ?2");
      update.bind_blob(1, changed);
      update.bind_int64(2, id);
      update.run();
      return;
    }
    ADD_FAILURE() << "no block of " << db << " holds a stored move";
  }
};

// The bundled sample, always here: a database of two files, the second overlapping the
// first (so it holds copy rows), merged into an empty one answers as the PGN imported,
// with any thread count.
TEST_F(MergeDatabase, SampleMergedIntoAnEmptyDatabaseAnswersAsItsPgn) {
  const std::string a = sample_file("a.pgn", 0, 80), b = sample_file("b.pgn", 60, 140);
  import("other.db", {a, b});
  import("direct.db", {a, b});
  const Ran r = index({"-j", "2", "-o", path("merged.db"), path("other.db")});
  ASSERT_EQ(r.code, 0) << r;
  EXPECT_EQ(r.err, "") << r;
  EXPECT_NE(r.out.find(b + " (from " + path("other.db") + "): 80 games found, 60 imported, 0 rejected, 20 duplicates skipped"),
            std::string::npos) << r;
  EXPECT_NE(r.out.find(path("other.db") + ": merged 2 sources: 160 games found, 140 merged, 0 rejected, 20 duplicates skipped"),
            std::string::npos) << r;
  EXPECT_EQ(rows("merged.db", "SELECT count(*) FROM games"), "140|\n");
  EXPECT_EQ(rows("merged.db", "SELECT count(*) FROM game_copies"), "20|\n");
  expect_same_answers("merged.db", "direct.db");
  expect_same_tables("merged.db", "direct.db");
  import("merged1.db", {path("other.db")}, "1");
  EXPECT_EQ(answers("merged1.db"), answers("merged.db"));
  EXPECT_EQ(tables("merged1.db"), tables("merged.db"));
}

// The sources' position segments are taken from OTHER's blocks: merged into an empty
// database with every game kept, they are, byte for byte, the segments the import of the
// PGN files writes (the blocks copied with only their game ids moved).
TEST_F(MergeDatabase, PositionSegmentsAreTheImportsByteForByte) {
  const std::string a = sample_file("a.pgn", 0, 80), b = sample_file("b.pgn", 60, 140);
  import("other.db", {a, b});
  import("direct.db", {a, b});
  import("merged.db", {path("other.db")});
  EXPECT_NE(rows("merged.db", "SELECT count(*) FROM position_blocks"), "0|\n");
  EXPECT_EQ(position_index("merged.db"), position_index("direct.db"));
  // After a database of other games: the same blocks, ids moved by that database's games.
  import("after.db", {sample_file("c.pgn", 200, 230)});
  import("after.db", {path("other.db")});
  import("direct_after.db", {path("c.pgn"), a, b});
  EXPECT_EQ(position_index("after.db"), position_index("direct_after.db"));
}

// OTHER's position index is untrusted: a block that does not decode, or one that decodes
// to postings that are not the games' (a result or a move changed, a posting dropped),
// is said in one line, and the source is indexed by replaying its games, so that DB
// answers as the import of the PGN files.
TEST_F(MergeDatabase, ADamagedPositionIndexIsSaidAndTheSourceIndexedByReplay) {
  const std::string a = sample_file("a.pgn", 0, 40);
  import("clean.db", {a});
  import("direct.db", {a});
  const std::string index_of_direct = position_index("direct.db");
  struct Damage {
    const char* name;
    std::function<void(const std::string&)> apply;
    const char* said;
  };
  const std::vector<Damage> damages = {
      {"cut", [&](const std::string& db) {
         exec(db, "UPDATE position_blocks SET data = substr(data, 1, length(data) / 2) "
                  "WHERE block_id = (SELECT min(block_id) FROM position_blocks)");
       }, "its position index does not decode"},
      {"result", [&](const std::string& db) {
         rewrite_a_block(db, [](std::vector<store::Posting>& postings) {
           for (store::Posting& p : postings)
             if (p.next_move != store::kUnknownNextMove) {
               p.result = p.result == store::GameResult::Draw ? store::GameResult::WhiteWin : store::GameResult::Draw;
               return;
             }
         });
       }, "are not those of its moves"},
      {"move", [&](const std::string& db) {
         rewrite_a_block(db, [](std::vector<store::Posting>& postings) {
           for (store::Posting& p : postings)
             if (p.next_move != store::kUnknownNextMove) {
               p.next_move = p.next_move == 0x0314 ? 0x0315 : 0x0314;  // another move code
               return;
             }
         });
       }, "are not those of its moves"},
      {"dropped", [&](const std::string& db) {
         rewrite_a_block(db, [](std::vector<store::Posting>& postings) { postings.pop_back(); });
       }, "are not those of its moves"},
      {"segment", [&](const std::string& db) { exec(db, "DELETE FROM position_segments"); },
       "it has no position index segment"},
  };
  for (const Damage& damage : damages) {
    SCOPED_TRACE(damage.name);
    const std::string other = std::string(damage.name) + ".db", merged = std::string("merged-") + damage.name + ".db";
    file(other, test::read_file(path("clean.db")));
    damage.apply(other);
    const Ran r = index({"-o", path(merged), path(other)});
    EXPECT_EQ(r.code, 0) << r;
    EXPECT_EQ(r.signal, 0) << r;
    ASSERT_EQ(r.err_lines().size(), 1u) << r;
    EXPECT_NE(r.err.find(path(other) + ": source " + a + ": "), std::string::npos) << r;
    EXPECT_NE(r.err.find(damage.said), std::string::npos) << r;
    EXPECT_NE(r.err.find("; its positions are made again by replay"), std::string::npos) << r;
    // The index the import writes, byte for byte, and the games: so every answer is its.
    EXPECT_EQ(position_index(merged), index_of_direct);
    EXPECT_EQ(rows(merged, "SELECT count(*) FROM games"), "40|\n");
  }
  expect_same_answers("merged-result.db", "direct.db");
}

// A key with one posting more than a block holds ends in a piece of one posting, which
// stores no move although the key's other pieces do; the merge's check must know it, and
// take the segment as it is instead of indexing the source again. The games are made by
// hand for this edge: 16,385 games of 1. e4 e5, so that three keys have 16,385 postings.
TEST_F(MergeDatabase, AKeyEndingInAPieceOfOnePostingIsTakenAsItIs) {
  std::string text;
  for (int i = 0; i < 16385; ++i) text += "[Event \"edge " + std::to_string(i) + "\"]\n\n1. e4 e5 *\n\n";
  const std::string pgn = file("edge.pgn", text);
  for (const char* db : {"other.db", "direct.db"}) {
    const Ran r = index({"-q", "--keep-duplicates", "-o", path(db), pgn});
    ASSERT_EQ(r.code, 0) << r;
  }
  // The start position's last piece: a block of one posting, without its move.
  EXPECT_EQ(rows("other.db", "SELECT count(*) FROM position_blocks WHERE postings = 1"), "3|\n");
  const Ran r = index({"--keep-duplicates", "-o", path("merged.db"), path("other.db")});
  ASSERT_EQ(r.code, 0) << r;
  EXPECT_EQ(r.err, "") << r;
  EXPECT_EQ(position_index("merged.db"), position_index("direct.db"));
  EXPECT_EQ(output({"explore", path("merged.db"), "--format", "json"}),
            output({"explore", path("direct.db"), "--format", "json"}));
}

// Into a database that holds some of the games already: those are skipped as duplicates
// and recorded as copies, as importing the files would; removing a source then moves or
// deletes the same games in both.
TEST_F(MergeDatabase, IntoADatabaseHoldingSomeGamesSkipsThemAndRemovalAgrees) {
  const std::string x = sample_file("x.pgn", 0, 60), y = sample_file("y.pgn", 50, 110),
                    z = sample_file("z.pgn", 100, 130);
  import("other.db", {y, z});
  import("merged.db", {x});
  import("merged.db", {path("other.db")});
  import("direct.db", {x, y, z});
  expect_same_answers("merged.db", "direct.db");
  expect_same_tables("merged.db", "direct.db");
  EXPECT_EQ(rows("merged.db", "SELECT duplicates FROM sources WHERE path = '" + y + "'"), "10|\n");
  // x's games that y also held move to y, in both.
  for (const char* db : {"merged.db", "direct.db"}) {
    const Ran r = index({"-o", path(db), "--remove", x});
    ASSERT_EQ(r.code, 0) << r;
    EXPECT_NE(r.out.find("10 games stay: other sources hold them"), std::string::npos) << r;
  }
  expect_same_answers("merged.db", "direct.db");
}

// --replace: the merged source takes the place of the stored one of its path, as a
// --replace import of its PGN does (ids of the removed games are not given again).
TEST_F(MergeDatabase, ReplaceMergesOverTheSourceOfThePathAsAnImportWould) {
  const std::string a = sample_file("a.pgn", 0, 30);
  import("other.db", {a});
  import("merged.db", {a});
  import("direct.db", {a});
  const Ran merged = index({"-q", "--replace", "-o", path("merged.db"), path("other.db")});
  ASSERT_EQ(merged.code, 0) << merged;
  const Ran direct = index({"-q", "--replace", "-o", path("direct.db"), a});
  ASSERT_EQ(direct.code, 0) << direct;
  EXPECT_EQ(rows("merged.db", "SELECT min(id), count(*) FROM games"), "31|30|\n");
  expect_same_tables("merged.db", "direct.db");
}

TEST_F(MergeDatabase, ASourceMergedBeforeIsAlreadyInTheDatabase) {
  import("other.db", {sample_file("a.pgn", 0, 20)});
  import("merged.db", {path("other.db")});
  const Ran r = index({"-o", path("merged.db"), path("other.db")});
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_NE(r.out.find(path("a.pgn") + " (from " + path("other.db") + "): already in the database (source 1)"),
            std::string::npos) << r;
  EXPECT_EQ(rows("merged.db", "SELECT count(*) FROM games"), "20|\n");
  // The PGN itself too: its content is the merged source's.
  const Ran again = index({"-o", path("merged.db"), path("a.pgn")});
  EXPECT_NE(again.out.find("already in the database (source 1)"), std::string::npos) << again;
}

// Damage a reader can see in a row: each such game is one reject naming the database and
// the game, and the other games merge.
TEST_F(MergeDatabase, CorruptRowsAreRejectsAndTheOtherGamesMerge) {
  import("other.db", {sample_file("a.pgn", 0, 40)});
  std::string moves = blob("other.db", 5, "moves");
  ASSERT_GT(moves.size(), 4u);
  moves[1] = char(0xEE);  // edge case: the 15th target of the 15th piece: no pawn of move 1 has one
  set_blob("other.db", 5, "moves", moves);
  const std::string shorter = blob("other.db", 6, "moves");
  set_blob("other.db", 6, "moves", shorter.substr(0, shorter.size() / 2));  // fewer moves than plies says
  set_blob("other.db", 7, "tags", "\x05" "ab");                              // a length past the end
  exec("other.db", "UPDATE games SET white_id = 999999 WHERE id = 8");
  exec("other.db", "UPDATE game_annotations SET annotations = x'01ffff' WHERE id = (SELECT min(id) FROM game_annotations)");
  const Ran r = index({"-o", path("merged.db"), path("other.db")});
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_EQ(r.signal, 0) << r;
  const std::string other = path("other.db");
  for (const std::string& line :
       {other + ": game 5: its moves do not replay from its start position (corrupt moves blob); rejected",
        other + ": game 7: its tags blob is corrupt; rejected", other + ": game 8: its White id 999999 names nothing; rejected"})
    EXPECT_NE(r.err.find(line), std::string::npos) << line << "\n" << r;
  EXPECT_NE(r.err.find(other + ": game 6: its plies column says"), std::string::npos) << r;
  EXPECT_NE(r.err.find("its annotations blob is corrupt"), std::string::npos) << r;
  EXPECT_EQ(rows("merged.db", "SELECT count(*) FROM games"), "35|\n");
  EXPECT_EQ(rows("merged.db", "SELECT kind, count(*) FROM rejects GROUP BY kind"), "corrupt stored game|5|\n");
  EXPECT_EQ(rows("merged.db", "SELECT games_found, imported, rejected FROM sources"), "40|35|5|\n");
  EXPECT_EQ(query({"export", path("merged.db"), "-o", "-"}).code, 0);
}

// Bytes flipped in the file itself, inside a moves blob (SQLite keeps no checksum of its
// cells, so only the blob's reader can tell).
TEST_F(MergeDatabase, BytesFlippedInAStoredMovesBlobMakeOneReject) {
  import("other.db", {sample_file("a.pgn", 0, 30)});
  const std::string moves = blob("other.db", 9, "moves");
  std::string bytes = test::read_file(path("other.db"));
  const size_t at = bytes.find(moves);
  ASSERT_NE(at, std::string::npos);
  ASSERT_EQ(bytes.find(moves, at + 1), std::string::npos);
  bytes[at + 1] = char(0xEE);  // the first move: the 15th target of the 15th piece, which no pawn has
  file("flipped.db", bytes);
  const Ran r = index({"-o", path("merged.db"), path("flipped.db")});
  EXPECT_EQ(r.code, 0) << r;
  ASSERT_EQ(r.err_lines().size(), 1u) << r;
  EXPECT_EQ(r.err_lines()[0], "pgn-index: " + path("flipped.db") +
                                  ": game 9: its moves do not replay from its start position (corrupt moves blob); rejected");
  EXPECT_EQ(rows("merged.db", "SELECT count(*) FROM games"), "29|\n");
}

// A file cut short: what can be read is a reject or the whole file is one clear line; the
// database stays usable.
TEST_F(MergeDatabase, ATruncatedDatabaseIsRefusedOrRejectedWithoutACrash) {
  import("other.db", {sample_file("a.pgn", 0, 200)});
  import("merged.db", {sample_file("b.pgn", 300, 310)});
  const std::string bytes = test::read_file(path("other.db"));
  for (const double share : {0.1, 0.5, 0.9}) {
    const std::string cut = "cut" + std::to_string(int(share * 10)) + ".db";
    file(cut, bytes.substr(0, size_t(double(bytes.size()) * share)));
    const Ran r = index({"-o", path("merged.db"), path(cut)});
    EXPECT_EQ(r.signal, 0) << r;
    EXPECT_TRUE(r.code == 0 || r.code == 1) << r;
    if (r.code == 1) {
      ASSERT_EQ(r.err_lines().size(), 1u) << r;
      EXPECT_NE(r.err.find(path(cut)), std::string::npos) << r;
    }
    EXPECT_EQ(query({"search", path("merged.db"), "--count"}).code, 0);
  }
  EXPECT_EQ(rows("merged.db", "PRAGMA integrity_check"), "ok|\n");
}

TEST_F(MergeDatabase, AnSqliteFileThatIsNotPgnbaseIsRefused) {
  exec("foreign.db", "CREATE TABLE t(x); INSERT INTO t VALUES (1)");
  Ran r = index({"-o", path("new.db"), path("foreign.db")});
  EXPECT_EQ(r.code, 1) << r;
  ASSERT_EQ(r.err_lines().size(), 1u) << r;
  EXPECT_NE(r.err.find("'" + path("foreign.db") + "' is not a pgnbase database"), std::string::npos) << r;
  EXPECT_FALSE(fs::exists(path("new.db")));
  // Another schema version is refused the same way.
  import("other.db", {sample_file("a.pgn", 0, 5)});
  exec("other.db", "UPDATE meta SET value = '99' WHERE key = 'schema_version'");
  r = index({"-o", path("new.db"), path("other.db")});
  EXPECT_EQ(r.code, 1) << r;
  ASSERT_EQ(r.err_lines().size(), 1u) << r;
  EXPECT_NE(r.err.find("newer pgnbase (schema version 99"), std::string::npos) << r;
}

// Real files of every kind the import keeps: comments, NAGs and variations, set-up
// positions and Chess960, German piece letters, Latin-1 text, rejected games.
TEST_F(MergeDatabase, AnnotatedChess960AndRejectedGamesMergeAsImported) {
  PGNBASE_REQUIRE_SHARED("annotated/pychess-learn-lichess-studies.pgn", "nasty/tcec/TCEC_Season_16_-_Frc_Sufi.pgn",
                         "notation/fischer-petrosian-de-long.pgn", "nasty/scid-gtest/res_gameLatin1.pgn",
                         "nasty/python-chess/antichess-programfox.pgn");
  std::vector<std::string> files;
  for (const char* name : {"annotated/pychess-learn-lichess-studies.pgn", "nasty/tcec/TCEC_Season_16_-_Frc_Sufi.pgn",
                           "notation/fischer-petrosian-de-long.pgn", "nasty/scid-gtest/res_gameLatin1.pgn",
                           "nasty/python-chess/antichess-programfox.pgn"})
    files.push_back(test::shared_data(name).string());
  import("other.db", files);
  import("direct.db", files);
  import("merged.db", {path("other.db")});
  EXPECT_NE(rows("merged.db", "SELECT count(*) FROM game_annotations"), "0|\n");
  EXPECT_NE(rows("merged.db", "SELECT count(*) FROM games WHERE variant = 1"), "0|\n");
  EXPECT_NE(rows("merged.db", "SELECT count(*) FROM rejects"), "0|\n");
  expect_same_answers("merged.db", "direct.db");
  expect_same_tables("merged.db", "direct.db");
  // Without annotations, as the import without them.
  const Ran bare = index({"-q", "--no-annotations", "-o", path("bare.db"), path("other.db")});
  ASSERT_EQ(bare.code, 0) << bare;
  std::vector<std::string> args{"-q", "--no-annotations", "-o", path("bare_direct.db")};
  args.insert(args.end(), files.begin(), files.end());
  ASSERT_EQ(index(args).code, 0);
  EXPECT_EQ(rows("bare.db", "SELECT count(*) FROM game_annotations"), "0|\n");
  expect_same_tables("bare.db", "bare_direct.db");
}

// Rows whose values the import would store in another form (an empty start FEN, a date
// stored as a blob, a material block stored as text or cut short, a Site stored whole that
// the import splits) are not copied as they are: they are stored as add_game stores them,
// so the merged rows are the import's.
TEST_F(MergeDatabase, RowsNotInTheImportsFormAreStoredInIt) {
  const std::string a = sample_file("a.pgn", 0, 30);
  import("other.db", {a});
  import("direct.db", {a});
  exec("other.db",
       "UPDATE games SET start_fen = '' WHERE id = 3;"
       "UPDATE games SET date = CAST(date AS BLOB) WHERE id = 4;"
       "UPDATE material_blocks SET runs = CAST(runs AS TEXT) WHERE block = 0;"
       "UPDATE material_blocks SET runs = substr(runs, 1, 10) WHERE block = 1;"
       "INSERT INTO names(id, name) SELECT 100000, si.name || g.site_suffix FROM games g JOIN names si ON si.id = g.site_id "
       "WHERE g.id = 8;"
       "UPDATE games SET site_id = 100000, site_suffix = NULL WHERE id = 8");
  ASSERT_EQ(rows("other.db", "SELECT typeof(date), typeof(site_suffix) FROM games WHERE id IN (4, 8) ORDER BY id"),
            "blob|text|\ntext|null|\n");
  const Ran r = index({"-o", path("merged.db"), path("other.db")});
  ASSERT_EQ(r.code, 0) << r;
  EXPECT_EQ(r.err, "") << r;
  expect_same_tables("merged.db", "direct.db");
}

// Truncated copies within one source: each game is checked against the games before it
// in the same source, whose rows are copied after it was given its id, so the copy check
// must find them (hand-made edge case: sample games cut after 20 plies, the result
// unknown, one before and two after their whole game, each with its game's Site, a name
// first seen in the same chunk). OTHER kept them all (--keep-duplicates); the merge skips
// the cut copies as the import does.
TEST_F(MergeDatabase, TruncatedCopiesWithinASourceAreSkippedAsImported) {
  auto cut = [](size_t game) {
    std::string text = test::sample_games()[game];
    const size_t result = text.find("[Result \"");
    text.replace(result, text.find('\n', result) - result, "[Result \"*\"]");
    const size_t moves = text.find("\n\n") + 2;
    std::string kept;
    size_t plies = 0;
    bool in_comment = false;
    for (size_t at = moves; at < text.size() && plies < 20;) {
      const size_t end = std::min(text.find_first_of(" \n", at), text.size());
      const std::string token = text.substr(at, end - at);
      at = end + 1;
      if (token.empty()) continue;
      if (token.front() == '{') in_comment = true;
      if (in_comment) {
        in_comment = token.back() != '}';
        continue;
      }
      if (token.back() == '.') continue;  // a move number
      kept += token + " ";
      ++plies;
    }
    return text.substr(0, moves) + kept + "*\n\n";
  };
  std::string text = cut(12) + test::games_text(0, 10) + cut(3) + cut(5) + test::games_text(10, 14);
  const std::string file = this->file("cut.pgn", text);
  const Ran kept = index({"-q", "--keep-duplicates", "-o", path("other.db"), file});
  ASSERT_EQ(kept.code, 0) << kept;
  ASSERT_EQ(rows("other.db", "SELECT count(*) FROM games"), "17|\n");
  import("direct.db", {file});
  ASSERT_EQ(rows("direct.db", "SELECT count(*), (SELECT duplicates FROM sources) FROM games"), "15|2|\n");
  import("merged.db", {path("other.db")});
  expect_same_tables("merged.db", "direct.db");
  import("merged1.db", {path("other.db")}, "1");
  expect_same_tables("merged1.db", "direct.db");
}

}  // namespace
}  // namespace pgnbase::cli_test
