// A small database's worth of PGN written for the query tests: eight games chosen so
// that every filter selects a known subset, and one game the import rejects.
#pragma once

#include <string_view>

#include "query_test_support.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"

namespace pgnbase::query_test {

// Game ids follow this order (the reject at the end gets none).
inline constexpr std::string_view kSampleGames = R"pgn([Event "Wch 2019"]
[Site "London"]
[Date "2019.05.17"]
[Round "1"]
[White "Carlsen, Magnus"]
[Black "Nakamura, Hikaru"]
[Result "1-0"]
[WhiteElo "2870"]
[BlackElo "2780"]
[ECO "C60"]
[TimeControl "180+2"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0

[Event "Online Blitz"]
[Site "lichess.org"]
[Date "2019.??.??"]
[Round "-"]
[White "carlsen, magnus"]
[Black "Someone"]
[Result "0-1"]
[WhiteElo "2500"]
[BlackElo "2100"]
[TimeControl "600"]

1. d4 d5 2. c4 e6 0-1

[Event "Club"]
[Site "Berlin"]
[Date "2020.01.01"]
[Round "3"]
[White "Müller, Hans"]
[Black "Carlsen, Magnus"]
[Result "1/2-1/2"]
[WhiteElo "1800"]
[ECO "B90"]
[TimeControl "-"]

1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 1/2-1/2

[Event "Club"]
[Site "Berlin"]
[White "Nakamura, Hikaru"]
[Black "Müller, Hans"]
[Result "*"]

1. e4 Nf6 2. e5 d5 3. exd6 *

[Event "Club Championship"]
[Site "Berlin"]
[Date "2018.12.31"]
[White "Test_Player%"]
[Black "Other"]
[Result "1-0"]
[WhiteElo "2200"]
[BlackElo "2250"]
[TimeControl "40/7200:3600"]

1. e4 Nf6 2. e5 d6 3. Be2 d5 4. Bf1 Qd6 5. Be2 Qd7 6. Bf1 Qd8 1-0

[Event "Casual"]
[Site "Paris"]
[Date "2021.06.05"]
[White "Other"]
[Black "Someone"]
[Result "0-1"]
[TimeControl "300+0"]

1. e4 e5 2. Ke2 Ke7 3. Ke1 Ke8 0-1

[Event "Casual"]
[Site "Paris"]
[Date "2021.06.10"]
[White "Someone"]
[Black "Other"]
[Result "1/2-1/2"]
[TimeControl "60+0"]

1. e4 e5 2. Nf3 Nf6 3. Ng1 Ng8 1/2-1/2

[Event "Study"]
[Site "?"]
[Date "2022.02.02"]
[White "Composer"]
[Black "?"]
[Result "*"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 b - - 0 40"]

40... Kd7 {first comment} 41. e4 $1 (41. e3 Ke6) 41... Ke6 42. Ke2 *

[Event "Broken"]
[White "X"]
[Black "Y"]
[Result "1-0"]

1. e4 e5 2. Ke3 1-0
)pgn";

// The sample games imported into a temp database, once per test binary.
inline const std::string& sample_database() {
  static test::TempDir dir("query-sample");  // removed at exit
  static const std::string path = [] {
    const std::string pgn = dir.file("sample.pgn");
    test::write_file(pgn, kSampleGames);
    const std::string db = dir.file("sample.db");
    import_files(db, {pgn});
    return db;
  }();
  return path;
}

}  // namespace pgnbase::query_test
