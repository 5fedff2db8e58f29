// Clocks and evaluations as data, through the programs: real lichess games (the bundled
// sample, and the shared lichess variants file where present) imported, then every
// game's per-ply JSON fields, its export and its `show` columns compared with a
// brute-force reading of the original comment text (tests/support/clock_comments.h).
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/cli_support.h"
#include "tests/query/json_check.h"
#include "tests/support/bundled_sample.h"
#include "tests/support/clock_comments.h"
#include "tests/support/shared_data.h"

namespace pgnbase::cli_test {
namespace {

using test::CommentGame;
using test::CommentPly;

const char kVariantsFile[] = "nasty/lichess-variants/lichess-nonstandard-variants-and-setups.pgn.zst";

class ClockEvalCli : public CliTest {
 protected:
  // Imports pgn_path and reads the original text's games by Site.
  std::map<std::string, CommentGame> import(const std::string& pgn_path, std::string_view text, const std::string& db) {
    Ran r = index({"-q", "-o", db, pgn_path});
    EXPECT_EQ(r.code, 0) << r;
    std::map<std::string, CommentGame> games;
    for (CommentGame& g : test::read_comment_games(text)) {
      EXPECT_FALSE(games.count(g.site)) << g.site;
      games.emplace(g.site, std::move(g));
    }
    return games;
  }

  // Every game's "clocks", "evals" and "mates" against the comment text; returns the
  // games compared and the plies with a clock and with an evaluation.
  void check_json(const std::string& db, const std::map<std::string, CommentGame>& originals, size_t expected_games,
                  size_t& clocks, size_t& evals) {
    Ran r = query({"search", db, "--format", "jsonl"});
    ASSERT_EQ(r.code, 0) << r;
    size_t games = 0;
    clocks = evals = 0;
    for (size_t start = 0, end; (end = r.out.find('\n', start)) != std::string::npos; start = end + 1) {
      json_check::Parser parser(std::string_view(r.out).substr(start, end - start));
      const std::optional<json_check::Value> game = parser.parse();
      ASSERT_TRUE(game) << parser.error();
      const std::string site = game->find("tags")->find("Site")->text;
      ASSERT_TRUE(originals.count(site)) << site;
      const CommentGame& original = originals.at(site);
      const size_t plies = game->find("moves")->items.size();
      ASSERT_EQ(plies, original.plies.size()) << site;
      std::vector<CommentPly> got(plies);
      auto read = [&](const char* key, auto set) {
        const json_check::Value* values = game->find(key);
        if (!values) return;
        ASSERT_EQ(values->items.size(), plies) << site << " " << key;
        for (size_t i = 0; i < plies; ++i)
          if (values->items[i].kind != json_check::Value::Kind::Null) set(got[i], values->items[i].number);
      };
      read("clocks", [](CommentPly& p, double v) { p.clock_tenths = int(v * 10 + 0.5); });
      read("evals", [](CommentPly& p, double v) { p.centipawns = int(v); });
      read("mates", [](CommentPly& p, double v) { p.mate = int(v); });
      for (size_t i = 0; i < plies; ++i) {
        EXPECT_EQ(got[i], original.plies[i]) << site << " ply " << i + 1;
        clocks += got[i].clock_tenths.has_value();
        evals += got[i].centipawns || got[i].mate;
      }
      ++games;
    }
    EXPECT_EQ(games, expected_games);
  }

  // Movetext with the whitespace the importer normalises taken out: runs of blanks as one
  // space, none just inside a comment's braces.
  static std::string normalised(std::string_view movetext) {
    std::string out;
    for (char c : movetext) {
      const bool blank = c == ' ' || c == '\n' || c == '\r' || c == '\t';
      if (blank) {
        if (!out.empty() && out.back() != ' ' && out.back() != '{') out += ' ';
        continue;
      }
      if (c == '}' && !out.empty() && out.back() == ' ') out.pop_back();
      out += c;
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out;
  }

  // The export's movetext of every game equals the file's.
  void check_export(const std::string& db, const std::map<std::string, CommentGame>& originals, size_t expected_games) {
    const std::string pgn = path("export.pgn");
    Ran r = query({"export", db, "-o", pgn});
    ASSERT_EQ(r.code, 0) << r;
    const std::vector<CommentGame> exported = test::read_comment_games(test::read_file(pgn));
    ASSERT_EQ(exported.size(), expected_games);
    for (const CommentGame& e : exported) {
      ASSERT_TRUE(originals.count(e.site)) << e.site;
      ASSERT_EQ(normalised(e.movetext), normalised(originals.at(e.site).movetext)) << e.site;
    }
  }
};

TEST_F(ClockEvalCli, SampleJsonLinesExportAndShowAgreeWithTheCommentText) {
  const std::string db = path("sample.db");
  const std::map<std::string, CommentGame> originals = import(test::kSample.string(), test::sample_text(), db);
  ASSERT_EQ(originals.size(), 2000u);
  size_t clocks = 0, evals = 0;
  check_json(db, originals, 2000, clocks, evals);
  EXPECT_GT(clocks, 150000u);  // every ply of the sample has a clock
  EXPECT_GT(evals, 100000u);
  check_export(db, originals, 2000);

  // show: the clock and evaluation columns of every move of the first games (each show is
  // a process: 8 of them, not more, to keep the test short under ASan).
  Ran listed = query({"search", db, "--format", "jsonl", "--limit", "8"});
  ASSERT_EQ(listed.code, 0) << listed;
  int shown = 0;
  for (size_t start = 0, end; (end = listed.out.find('\n', start)) != std::string::npos; start = end + 1) {
    json_check::Parser parser(std::string_view(listed.out).substr(start, end - start));
    const std::optional<json_check::Value> game = parser.parse();
    ASSERT_TRUE(game) << parser.error();
    const CommentGame& original = originals.at(game->find("tags")->find("Site")->text);
    const std::string id = std::to_string(int64_t(game->find("id")->number));
    Ran show = query({"show", db, id});
    ASSERT_EQ(show.code, 0) << show;
    // "   1. e4      0:01:00  +0.25     e5      0:01:00  +0.31": White's move at column 6,
    // its clock at 14, evaluation at 23; Black's move at 33, clock 41, evaluation 50.
    static const std::regex move_line(R"(^ *(\d+)\. )");
    size_t ply = 0;
    std::istringstream lines(show.out);
    for (std::string line; std::getline(lines, line);) {
      std::smatch m;
      if (!std::regex_search(line, m, move_line) || line.size() < 14 || std::stoi(m[1]) > 999) continue;
      auto field = [&](size_t from, size_t to) {
        std::string f = from < line.size() ? line.substr(from, to - from) : "";
        while (!f.empty() && f.back() == ' ') f.pop_back();
        return f;
      };
      for (size_t column : {size_t(6), size_t(33)}) {
        if (column >= line.size()) break;
        ASSERT_LT(ply, original.plies.size()) << id << ": " << line;
        const std::string eval_text = original.eval_texts[ply];
        const std::string expected_eval =
            eval_text.empty() || eval_text[0] == '-' || eval_text[0] == '#' ? eval_text : "+" + eval_text;
        EXPECT_EQ(field(column + 8, column + 17), original.clock_texts[ply]) << id << ": " << line;
        EXPECT_EQ(field(column + 17, column == 6 ? 33 : std::string::npos), expected_eval) << id << ": " << line;
        EXPECT_EQ(line.find("[%"), std::string::npos) << line;
        ++ply;
      }
    }
    EXPECT_EQ(ply, original.plies.size()) << id;
    ++shown;
  }
  EXPECT_EQ(shown, 8);
}

TEST_F(ClockEvalCli, LichessVariantsFileJsonLinesAndExportAgreeWithTheCommentText) {
  PGNBASE_REQUIRE_SHARED(kVariantsFile);
  // Decompressed by pgn-index itself; the test reads the text through an export-free path.
  const std::string text = [&] {
    indexer::InputSource source = indexer::InputSource::open(test::shared_data(kVariantsFile).string());
    std::string piece(size_t{1} << 20, '\0'), all;
    for (size_t n; (n = source.read(piece.data(), piece.size())) > 0;) all.append(piece, 0, n);
    return all;
  }();
  const std::string db = path("variants.db");
  const std::map<std::string, CommentGame> originals = import(test::shared_data(kVariantsFile).string(), text, db);
  size_t clocks = 0, evals = 0;
  check_json(db, originals, 909, clocks, evals);  // the standard and Chess960 games; 159 other variants rejected
  EXPECT_GT(clocks, 60000u);
  EXPECT_GT(evals, 5000u);
  check_export(db, originals, 909);
}

}  // namespace
}  // namespace pgnbase::cli_test
