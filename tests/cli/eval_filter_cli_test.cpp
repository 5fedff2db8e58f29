// --min-eval, --max-eval and --eval-plies on the bundled sample (2,000 real lichess games,
// every move with its [%eval]): the games search finds are exactly those whose exported
// text has, after some ply of the range, an evaluation within the bounds, read here from
// the PGN by hand: pawns as centipawns, and a mate beyond every centipawn value (the
// sooner, the further from 0).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "tests/cli/cli_support.h"
#include "tests/query/csv_reader.h"
#include "tests/support/bundled_sample.h"

namespace pgnbase::cli_test {
namespace {

constexpr int64_t kMateBound = 1000000;

// "0.3", "-1.61", "#4", "#-2" on the scale of --min-eval.
int64_t score_of(const std::string& text) {
  if (text[0] == '#') {
    const int64_t moves = std::stoll(text.substr(1));
    return moves >= 0 ? kMateBound - moves : -kMateBound - moves;
  }
  return std::llround(std::stod(text) * 100);
}

// Each game's (ply, score) pairs, from its movetext: moves counted by hand, move numbers
// and results skipped, each comment's [%eval] given to the ply before it.
std::vector<std::vector<std::pair<uint32_t, int64_t>>> evals_by_game(const std::string& pgn) {
  std::vector<std::vector<std::pair<uint32_t, int64_t>>> games;
  size_t at = 0;
  while ((at = pgn.find("\n\n", at)) != std::string::npos) {
    const size_t end = std::min(pgn.find("\n[Event ", at), pgn.size());
    const std::string moves = pgn.substr(at + 2, end - at - 2);
    at = end;
    auto& game = games.emplace_back();
    uint32_t ply = 0;
    for (size_t i = 0; i < moves.size();) {
      const char c = moves[i];
      if (c == ' ' || c == '\n') {
        ++i;
      } else if (c == '{') {
        const size_t close = moves.find('}', i);
        std::string comment = moves.substr(i, close - i);
        std::replace(comment.begin(), comment.end(), '\n', ' ');  // export wraps lines inside comments
        if (const size_t e = comment.find("[%eval "); e != std::string::npos)
          game.push_back({ply, score_of(comment.substr(e + 7, comment.find(']', e) - e - 7))});
        i = close + 1;
      } else {
        const size_t stop = moves.find_first_of(" \n", i);
        const std::string token = moves.substr(i, stop == std::string::npos ? std::string::npos : stop - i);
        i = stop == std::string::npos ? moves.size() : stop;
        const bool number = token.back() == '.';
        const bool result = token == "1-0" || token == "0-1" || token == "1/2-1/2" || token == "*";
        if (!number && !result) ++ply;
      }
    }
  }
  return games;
}

class EvalFilterCli : public CliTest {
 protected:
  std::vector<std::string> ids_found(const std::string& db, const std::vector<std::string>& filters) {
    std::vector<std::string> args{"search", db, "--format", "csv"};
    args.insert(args.end(), filters.begin(), filters.end());
    Ran r = query(args);
    EXPECT_EQ(r.code, 0) << r;
    const auto records = csv_check::parse(r.out);
    std::vector<std::string> ids;
    if (!records) return ids;
    for (size_t i = 1; i < records->size(); ++i) ids.push_back(records->at(i).at(0));
    return ids;
  }
};

TEST_F(EvalFilterCli, GamesFoundAreThoseWithAnEvaluationInRangeAtThosePlies) {
  const std::string db = path("sample.db");
  ASSERT_EQ(index({"-q", "-o", db, test::kSample.string()}).code, 0);
  const Ran exported = query({"export", db, "-o", "-"});
  ASSERT_EQ(exported.code, 0) << exported;
  const auto games = evals_by_game(exported.out);
  ASSERT_EQ(games.size(), 2000u);

  struct Case {
    std::vector<std::string> filters;
    int64_t low, high;
    uint32_t from, to;
  };
  const std::vector<Case> cases = {
      {{"--min-eval", "3", "--eval-plies", "20-30"}, 300, INT64_MAX, 20, 30},
      {{"--max-eval", "-5"}, INT64_MIN, -500, 0, UINT32_MAX},
      {{"--min-eval", "-0.5", "--max-eval", "0.5", "--eval-plies", "60-"}, -50, 50, 60, UINT32_MAX},
      {{"--min-eval", "#10"}, kMateBound - 10, INT64_MAX, 0, UINT32_MAX},
      {{"--max-eval", "#-1"}, INT64_MIN, -kMateBound + 1, 0, UINT32_MAX},
      {{"--min-eval", "0.3", "--max-eval", "0.3", "--eval-plies", "1"}, 30, 30, 1, 1},
      {{"--min-eval", "+2", "--eval-plies", "-12"}, 200, INT64_MAX, 0, 12},
  };
  for (const Case& c : cases) {
    std::vector<std::string> expected;
    for (size_t g = 0; g < games.size(); ++g)
      for (const auto& [ply, score] : games[g])
        if (ply >= c.from && ply <= c.to && score >= c.low && score <= c.high) {
          expected.push_back(std::to_string(g + 1));
          break;
        }
    const std::vector<std::string> found = ids_found(db, c.filters);
    EXPECT_EQ(found, expected) << c.filters[0] << " " << c.filters[1];
    EXPECT_FALSE(expected.empty()) << c.filters[0] << " " << c.filters[1];
  }
  // A bad value is a usage error, named.
  const Ran bad = query({"search", db, "--min-eval", "3 pawns"});
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("--min-eval '3 pawns'"), std::string::npos) << bad.err;
  EXPECT_EQ(query({"search", db, "--eval-plies", "10-20"}).code, 2);
}

}  // namespace
}  // namespace pgnbase::cli_test
