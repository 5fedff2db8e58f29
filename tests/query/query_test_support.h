// Helpers shared by the query tests: databases built in a temp folder by the real
// import pipeline, from the shared data or from PGN text written by the test itself,
// and a brute-force position finder that replays every stored game with core only.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/board.h"
#include "core/fen.h"
#include "core/move_code.h"
#include "store/blob_codec.h"
#include "store/moves_codec.h"
#include "indexer/import_pipeline.h"
#include "store/database.h"
#include "tests/support/shared_data.h"

namespace pgnbase::query_test {

namespace fs = std::filesystem;

// Every file of a shared data folder with the given extension, sorted.
inline std::vector<std::string> shared_files(const std::string& folder, const std::string& extension = ".pgn") {
  std::vector<std::string> out;
  const fs::path dir = test::shared_data(folder);
  if (!fs::is_directory(dir)) return out;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.size() >= extension.size() && name.compare(name.size() - extension.size(), extension.size(), extension) == 0)
      out.push_back(entry.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Small real files with en passant, promotions, castling, null moves, Chess960 (TCEC
// DFRC, cutechess, lichess) and set-up games (pychess studies, lichess "From Position").
inline std::vector<std::string> mixed_shared_files() {
  std::vector<std::string> files = shared_files("nasty/pgn-extract-tests");
  for (const char* name : {"nasty/tcec/TCEC_Season_22_-_Dfrc_Unbust_Bonus.pgn", "nasty/python-chess/cutechess-fischerrandom.pgn",
                           "annotated/pychess-learn-lichess-studies.pgn",
                           "nasty/lichess-variants/lichess-nonstandard-variants-and-setups.pgn.zst"})
    files.push_back(test::shared_data(name).string());
  return files;
}

// Imports files into a new database at db_path with the real pipeline (2 threads).
// fingerprint_bits: the position segments' (0: automatic; few make many keys share one).
inline void import_files(const std::string& db_path, const std::vector<std::string>& files, bool annotations = true,
                         int fingerprint_bits = 0) {
  indexer::WriterOptions writer_options;
  writer_options.position_memory_bytes = size_t{64} << 20;
  writer_options.position_fingerprint_bits = fingerprint_bits;
  indexer::DatabaseWriter writer(db_path, writer_options);
  indexer::ImportOptions options;
  options.threads = 2;
  options.build.keep_annotations = annotations;
  options.dedupe = false;  // the tests compare with every game of their files, repeats included
  for (const std::string& file : files) indexer::import_file(file, writer, options);
}

// One stored game replayed with core alone: its key and board after every ply.
struct ReplayedGame {
  int64_t id = 0;
  std::vector<MoveCode> codes;
  std::vector<Key> keys;  // keys[0] = start position
  std::vector<std::string> fens;  // write_fen after each ply (same indexing)
};

// Replays every game of the database with core's decode_move (full move generation),
// independent of the query library's fast replay and of the position index.
inline std::vector<ReplayedGame> replay_all_games(const std::string& db_path, bool with_fens = false) {
  store::Database db(db_path, store::Database::Mode::ReadOnly);
  store::Statement s = db.prepare("SELECT id, variant, start_fen, moves FROM games ORDER BY id");
  std::vector<ReplayedGame> games;
  std::vector<MoveCode> codes;
  while (s.step()) {
    ReplayedGame g;
    g.id = s.column_int64(0);
    Board board;
    if (!s.column_is_null(2)) {
      board = parse_fen(s.column_text(2), s.column_int64(1) == 1).value();
    } else if (s.column_int64(1) == 1) {
      board.set_chess960(true);
    }
    auto blob = s.column_blob(3);
    EXPECT_TRUE(store::decode_moves({reinterpret_cast<const char*>(blob.data()), blob.size()}, board, codes));
    g.codes = codes;
    g.keys.push_back(board.key());
    if (with_fens) g.fens.push_back(write_fen(board));
    UndoInfo undo;
    for (MoveCode code : codes) {
      Move m;
      EXPECT_TRUE(decode_move(board, code, m)) << "game " << g.id;
      if (m.is_null()) board.do_null_move(undo);
      else board.do_move(m, undo);
      g.keys.push_back(board.key());
      if (with_fens) g.fens.push_back(write_fen(board));
    }
    games.push_back(std::move(g));
  }
  return games;
}

// Where each key occurs: game id -> plies, for every key of every game.
using Occurrences = std::map<int64_t, std::vector<uint32_t>>;
inline std::map<Key, Occurrences> index_by_key(const std::vector<ReplayedGame>& games) {
  std::map<Key, Occurrences> out;
  for (const ReplayedGame& g : games)
    for (uint32_t ply = 0; ply < g.keys.size(); ++ply) out[g.keys[ply]][g.id].push_back(ply);
  return out;
}

inline Board board_of(std::string_view fen) {
  Parsed<Board> b = parse_fen(fen);
  EXPECT_TRUE(b) << fen << ": " << (b ? "" : b.error());
  return b ? *b : Board();
}

}  // namespace pgnbase::query_test
