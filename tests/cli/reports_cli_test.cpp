// pgn-query show, player, players, events and the output options as a user runs them,
// on the 2000 real lichess games of tools/sample: the position `show --ply` prints is
// the one core reaches by replaying the game's own moves; `show --format pgn` is the
// game as export writes it; CSV reads back with a strict RFC 4180 reader and holds what
// JSON Lines holds; contradictory options are one-line errors with exit status 2.
#include <gtest/gtest.h>

#include <sstream>

#include "core/fen.h"
#include "core/san.h"
#include "tests/cli/cli_support.h"
#include "tests/query/csv_reader.h"
#include "tests/query/json_check.h"
#include "tests/support/bundled_sample.h"
#include "tests/support/files.h"

namespace pgnbase::cli_test {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  for (size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1)
    lines.push_back(text.substr(start, end - start));
  return lines;
}

class ReportsCliTest : public CliTest {
 protected:
  std::string sample_db() {
    const std::string db = path("s.db");
    Ran r = index({"-q", "-o", db, test::kSample.string()});
    EXPECT_EQ(r.code, 0) << r;
    return db;
  }
};

// One import for every check of show (each test is its own process under CTest).
TEST_F(ReportsCliTest, ShowPositionsTextPgnAndErrors) {
  const std::string db = sample_db();
  // --ply: the position core reaches by replaying the game's own moves.
  for (const std::string id : {"777", "2000"}) {
    Ran game = query({"show", db, id, "--format", "jsonl"});
    ASSERT_EQ(game.code, 0) << game;
    auto v = json_check::parse(game.out.substr(0, game.out.size() - 1));
    ASSERT_TRUE(v.has_value()) << game.out;
    const auto& moves = v->find("moves")->items;
    ASSERT_GT(moves.size(), 10u);
    Board board;
    // The start, two plies inside and the end: each a run of the program under the sanitizers.
    for (size_t ply : {size_t(0), moves.size() / 3, moves.size() * 2 / 3 + 1, moves.size()}) {
      Ran at = query({"show", db, id, "--ply", std::to_string(ply), "--format", "jsonl"});
      ASSERT_EQ(at.code, 0) << at;
      auto position = json_check::parse(at.out.substr(0, at.out.size() - 1));
      ASSERT_TRUE(position.has_value()) << at.out;
      Board replayed;
      UndoInfo undo;
      for (size_t k = 0; k < ply; ++k) {
        Move m;
        ASSERT_EQ(parse_move(replayed, moves[k].text, english(), m), SanError::None) << moves[k].text;
        replayed.do_move(m, undo);
      }
      EXPECT_EQ(position->find("fen")->text, write_fen(replayed)) << "game " << id << " ply " << ply;
      Ran text = query({"show", db, id, "--ply", std::to_string(ply)});
      EXPECT_NE(text.out.find("FEN " + write_fen(replayed)), std::string::npos) << text.out;
    }
  }

  // The text view: every move under its number, in order.
  Ran game = query({"show", db, "42", "--format", "jsonl"});
  auto v = json_check::parse(game.out.substr(0, game.out.size() - 1));
  ASSERT_TRUE(v.has_value());
  const auto& moves = v->find("moves")->items;
  Ran text = query({"show", db, "42", "--no-annotations"});
  ASSERT_EQ(text.code, 0) << text;
  // Each move line: "N. white black"; the words in order are the game's moves.
  std::vector<std::string> words;
  int64_t expected_number = 1;
  for (const std::string& line : lines_of(text.out)) {
    std::istringstream in(line);
    std::string number;
    in >> number;
    if (number != std::to_string(expected_number) + ".") continue;
    ++expected_number;
    for (std::string w; in >> w;) words.push_back(w);
  }
  ASSERT_EQ(words.size(), moves.size()) << text.out;
  for (size_t i = 0; i < words.size(); ++i) EXPECT_EQ(words[i], moves[i].text) << i;
  EXPECT_NE(text.out.find("White  "), std::string::npos);

  // --format pgn: the game as export writes it.
  for (const std::string notation : {"figurine", "de"}) {
    Ran shown = query({"show", db, "1234", "--format", "pgn", "--notation", notation});
    Ran listed = query({"search", db, "--format", "pgn", "--offset", "1233", "--limit", "1", "--notation", notation});
    ASSERT_EQ(shown.code, 0) << shown;
    EXPECT_EQ(shown.out, listed.out);
    EXPECT_NE(shown.out.find("[Site \"https://lichess.org/"), std::string::npos);
  }

  // No such game, or a ply past the end: one line.
  Ran missing = query({"show", db, "2001"});
  EXPECT_EQ(missing.code, 1);
  EXPECT_EQ(missing.err_lines().size(), 1u) << missing;
  EXPECT_NE(missing.err.find("1 to 2000"), std::string::npos) << missing;
  Ran past = query({"show", db, "1", "--ply", "100000"});
  EXPECT_EQ(past.code, 2);
  EXPECT_EQ(past.err_lines().size(), 1u) << past;
}

TEST_F(ReportsCliTest, ContradictoryOrUselessOptionsAreOneLineErrors) {
  // Any database will do: seeded random games, no import of the sample.
  const std::string db = path("r.db");
  ASSERT_EQ(index({"-q", "-o", db, file("random.pgn", random_games(20, 14))}).code, 0);
  const std::vector<std::vector<std::string>> bad = {
      {"search", db, "--count", "--format", "pgn"},
      {"search", db, "--count", "--format", "csv"},
      {"search", db, "--notation", "fr"},
      {"search", db, "--format", "csv", "--notation", "uci"},
      {"search", db, "--no-annotations"},
      {"search", db, "--min-elo", "2800", "--max-elo", "2500"},
      {"search", db, "--date-from", "2022", "--date-to", "2021.12"},
      {"explore", db, "--date-from", "2022.05", "--date-to", "2022.04"},
      {"search", db, "--wide", "--format", "jsonl"},
      {"explore", db, "--json", "--format", "csv"},
      {"player", db, "W1", "--format", "xml"},
      {"player", db, "W1", "--wide", "--json"},
      {"show", db, "1", "--ply", "3", "--format", "pgn"},
      {"show", db, "1", "--format", "jsonl", "--notation", "de"},
      {"show", db},
      {"rejects", db, "-o", path("r.pgn"), "--json"},
  };
  for (const auto& args : bad) {
    Ran r = query(args);
    std::string command;
    for (const auto& a : args) command += a + " ";
    EXPECT_EQ(r.code, 2) << command << r;
    EXPECT_EQ(r.err_lines().size(), 1u) << command << r;
    EXPECT_TRUE(r.out.empty()) << command << r;
  }
  // A range of one month, one Elo: fine.
  EXPECT_EQ(query({"search", db, "--min-elo", "3000", "--max-elo", "3000", "--count"}).code, 0);
  EXPECT_EQ(query({"search", db, "--date-from", "2022.04", "--date-to", "2022.04", "--count"}).code, 0);
}

TEST_F(ReportsCliTest, CsvTableAndJsonHoldTheSame) {
  const std::string db = sample_db();
  const std::vector<std::string> filter = {"--player", "Nikotheo", "--order", "date", "--desc"};
  auto with = [&](std::vector<std::string> args) {
    args.insert(args.end(), filter.begin(), filter.end());
    return query(args);
  };
  Ran csv = with({"search", db, "--format", "csv"});
  Ran jsonl = with({"search", db, "--format", "jsonl"});
  Ran count = with({"search", db, "--count"});
  ASSERT_EQ(csv.code, 0) << csv;
  auto records = csv_check::parse(csv.out);
  ASSERT_TRUE(records.has_value()) << csv.out.substr(0, 500);
  const std::vector<std::string> json_lines = lines_of(jsonl.out);
  ASSERT_EQ(records->size(), json_lines.size() + 1);
  EXPECT_EQ(std::to_string(json_lines.size()) + "\n", count.out);
  EXPECT_EQ((*records)[0][0], "id");
  std::string previous_date = "9999";
  for (size_t i = 0; i < json_lines.size(); ++i) {
    auto v = json_check::parse(json_lines[i]);
    ASSERT_TRUE(v.has_value());
    const auto& row = (*records)[i + 1];
    const auto* tags = v->find("tags");
    EXPECT_EQ(row[0], std::to_string(int64_t(v->find("id")->number)));
    EXPECT_EQ(row[1], tags->find("White")->text);
    EXPECT_EQ(row[3], tags->find("Black")->text);
    EXPECT_EQ(row[6], tags->find("Date")->text);
    EXPECT_LE(row[6], previous_date);  // newest first
    previous_date = row[6];
  }
  for (const std::string command : {"player", "players", "events"}) {
    std::vector<std::string> args = {command, db, "--format", "csv"};
    if (command == "player") args.insert(args.begin() + 2, "DrNykterstein");
    Ran r = query(args);
    ASSERT_EQ(r.code, 0) << r;
    auto parsed = csv_check::parse(r.out);
    ASSERT_TRUE(parsed.has_value()) << r.out.substr(0, 500);
    EXPECT_GT(parsed->size(), 2u);
    for (const auto& record : *parsed) EXPECT_EQ(record.size(), (*parsed)[0].size());
  }
  for (const std::vector<std::string>& args : {std::vector<std::string>{"stats", db, "--format", "csv"},
                                              std::vector<std::string>{"explore", db, "--format", "csv"}}) {
    Ran r = query(args);
    ASSERT_EQ(r.code, 0) << r;
    EXPECT_TRUE(csv_check::parse(r.out).has_value()) << r.out.substr(0, 500);
  }

  // explore's CSV holds the JSON's moves: the position after each move, its opening, its share.
  {
    Ran csv = query({"explore", db, "--moves", "1.e4 e5", "--format", "csv"});
    Ran json = query({"explore", db, "--moves", "1.e4 e5", "--json", "--top", "0"});
    ASSERT_EQ(csv.code, 0) << csv;
    auto rows = csv_check::parse(csv.out);
    auto v = json_check::parse(json.out.substr(0, json.out.size() - 1));
    ASSERT_TRUE(rows.has_value() && v.has_value()) << csv.out;
    const auto& header = (*rows)[0];
    const std::vector<std::string> expected_header = {"move", "uci", "fen", "games", "share", "white_wins", "draws",
                                                      "black_wins", "average_elo", "eco", "opening"};
    EXPECT_EQ(header, expected_header);
    const auto& moves = v->find("moves")->items;
    ASSERT_EQ(rows->size(), moves.size() + 1);
    double share_sum = 0;
    for (size_t i = 0; i < moves.size(); ++i) {
      const auto& row = (*rows)[i + 1];
      EXPECT_EQ(row[0], moves[i].find("san")->text);
      EXPECT_EQ(row[2], moves[i].find("fen")->text);
      EXPECT_EQ(row[9], moves[i].find("opening")->find("eco")->text);
      EXPECT_EQ(row[10], moves[i].find("opening")->find("name")->text);
      share_sum += std::stod(row[4]);
    }
    EXPECT_NEAR(share_sum, 1.0, 0.001 * double(moves.size()));
  }

  // The player table carries the numbers of the player JSON.
  Ran json = query({"player", db, "DrNykterstein", "--json"});
  Ran table = query({"player", db, "DrNykterstein"});
  ASSERT_EQ(json.code, 0) << json;
  auto v = json_check::parse(json.out.substr(0, json.out.size() - 1));
  ASSERT_TRUE(v.has_value()) << json.out;
  const auto* total = v->find("total");
  EXPECT_EQ(total->find("games")->number, 2000);
  const auto* white = v->find("as_white");
  // The table's White line carries the same numbers.
  bool found = false;
  for (const std::string& line : lines_of(table.out))
    if (line.rfind("White ", 0) == 0) {
      std::istringstream in(line.substr(5));
      int64_t games, wins, draws, losses;
      in >> games >> wins >> draws >> losses;
      EXPECT_EQ(games, int64_t(white->find("games")->number));
      EXPECT_EQ(wins, int64_t(white->find("wins")->number));
      EXPECT_EQ(losses, int64_t(white->find("losses")->number));
      found = true;
    }
  EXPECT_TRUE(found) << table.out;
  Ran nobody = query({"player", db, "Nobody At All"});
  EXPECT_EQ(nobody.code, 1);
  EXPECT_EQ(nobody.err_lines().size(), 1u) << nobody;
}

TEST_F(ReportsCliTest, RejectsTableShowsFileNamesAndOutputPrintsOnlyACount) {
  // Two files whose paths differ only after a long directory: the table must tell them apart.
  const std::string dir = path(std::string(60, 'd'));
  fs::create_directories(dir);
  auto bad = [](const std::string& event) {
    return "[Event \"" + event + "\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n\n";
  };
  test::write_file(dir + "/first-broadcast.pgn", bad("round 1"));
  test::write_file(dir + "/second-broadcast.pgn", bad("round 2"));
  const std::string db = path("r.db");
  index({"-q", "-o", db, file("random.pgn", random_games(5, 8)), dir + "/first-broadcast.pgn",
         dir + "/second-broadcast.pgn"});
  Ran table = query({"rejects", db});
  ASSERT_EQ(table.code, 0) << table;
  EXPECT_NE(table.out.find("first-broadcast.pgn"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("second-broadcast.pgn"), std::string::npos) << table.out;
  Ran stats = query({"stats", db});
  EXPECT_NE(stats.out.find("second-broadcast.pgn"), std::string::npos) << stats.out;
  Ran wide = query({"rejects", db, "--wide"});
  EXPECT_NE(wide.out.find(dir + "/first-broadcast.pgn"), std::string::npos) << wide.out;

  Ran to_file = query({"rejects", db, "-o", path("rejected.pgn")});
  ASSERT_EQ(to_file.code, 0) << to_file;
  EXPECT_EQ(to_file.out, "2 rejected games written to " + path("rejected.pgn") + "\n");
  EXPECT_EQ(test::read_file(path("rejected.pgn")), bad("round 1") + bad("round 2"));
}

TEST_F(ReportsCliTest, CountsInMessagesAreSingularForOne) {
  const std::string one = file("one.pgn", "[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n");
  Ran r = index({"-o", path("one.db"), one});
  ASSERT_EQ(r.code, 0) << r;
  EXPECT_NE(r.out.find(": 1 game found"), std::string::npos) << r.out;
  Ran exported = query({"export", path("one.db"), "-o", path("one-out.pgn")});
  EXPECT_NE(exported.err.find("1 game written"), std::string::npos) << exported;
}

// Names and options that behave alike: --like takes the word rule, head to head from
// both commands, a FEN placement alone, the --white help.
TEST_F(ReportsCliTest, NamesAndOptionsBehaveAlike) {
  const std::string db = sample_db();
  // The four events whose names hold the word "titled" (README: `events --like "*titled*"`).
  Ran events = query({"events", db, "--like", "TITLED", "--format", "csv"});
  ASSERT_EQ(events.code, 0) << events;
  EXPECT_EQ(lines_of(events.out).size(), 5u) << events.out;
  Ran words = query({"search", db, "--event", "titled", "--count"});
  Ran listed = query({"events", db, "--like", "titled", "--format", "json"});
  int64_t listed_games = 0;
  for (const std::string& line : lines_of(listed.out)) listed_games += json_check::parse(line)->find("games")->number;
  EXPECT_EQ(std::to_string(listed_games) + "\n", words.out);
  Ran players = query({"players", db, "--like", "drnykterstein", "--format", "csv"});
  EXPECT_EQ(lines_of(players.out).size(), 2u) << players.out;

  // Head to head: `player A --vs B` reports the games `search --player A --player B` finds.
  Ran h2h = query({"search", db, "--player", "DrNykterstein", "--player", "Nikotheo", "--count"});
  ASSERT_EQ(h2h.code, 0) << h2h;
  EXPECT_EQ(h2h.out, "276\n");  // the opponents table of the README's player report
  Ran report = query({"player", db, "DrNykterstein", "--vs", "Nikotheo", "--format", "json"});
  ASSERT_EQ(report.code, 0) << report;
  EXPECT_EQ(json_check::parse(report.out)->find("total")->find("games")->number, 276);
  EXPECT_EQ(query({"search", db, "--player", "a", "--player", "b", "--player", "c"}).code, 2);

  // A placement alone is the position with either side to move: after 1.e4 it is always Black's.
  Ran placement = query({"search", db, "--fen", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR", "--count"});
  ASSERT_EQ(placement.code, 0) << placement;
  EXPECT_NE(placement.err.find("piece placement only"), std::string::npos) << placement;
  EXPECT_EQ(placement.out, query({"search", db, "--fen", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
                                  "--count"}).out);
  Ran castling = query({"search", db, "--fen", "4k3/8/8/8/8/8/8/4K3 w K - 0 1"});
  EXPECT_EQ(castling.code, 2);
  EXPECT_EQ(std::count(castling.err.begin(), castling.err.end(), '\n'), 1) << castling.err;

  // show: lichess's clocks stand in a column, out of the move lines' comments.
  Ran shown = query({"show", db, "777"});
  ASSERT_EQ(shown.code, 0) << shown;
  EXPECT_EQ(shown.out.find("[%clk"), std::string::npos) << shown.out;
  EXPECT_NE(shown.out.find("   1. "), std::string::npos) << shown.out;

  Ran help = query({"search", "--help"});
  EXPECT_EQ(help.out.find("exact, case-insensitive"), std::string::npos);
  for (const char* option : {"--tag", "--comment", "--opening"}) EXPECT_NE(help.out.find(option), std::string::npos) << option;
}

}  // namespace
}  // namespace pgnbase::cli_test
