// PgnWriter and JsonGameWriter on games read from the sample database, and on rows
// built here to reach the corners: escaping, wrapping, numbering after annotations,
// null moves, notations.
#include <gtest/gtest.h>

#include "store/annotations.h"
#include "store/blob_codec.h"
#include "store/moves_codec.h"
#include "store/tag_codec.h"
#include "json_check.h"
#include "search/game_search.h"
#include "query/json_writer.h"
#include "query/pgn_writer.h"
#include "sample_games.h"

namespace pgnbase::query {
namespace {

// Writes game id of the sample database with the given options.
std::string export_sample(int64_t id, PgnWriteOptions options = {}) {
  store::Database db(query_test::sample_database(), store::Database::Mode::ReadOnly);
  search::SearchOptions search;
  search.offset = id - 1;
  search.limit = 1;
  search::GameSearch games(db, search);
  EXPECT_TRUE(games.next());
  std::string out;
  PgnWriter writer(options);
  EXPECT_TRUE(writer.write(games.row(), games.codes(), out));
  return out;
}

// A row whose blobs the test owns.
struct OwnedRow {
  store::GameRow row;
  std::string moves, tags, annotations;
  std::vector<MoveCode> codes;
};

OwnedRow make_row(const std::vector<MoveCode>& codes, const std::vector<store::Tag>& other_tags,
                  const std::vector<store::AnnotationEntry>& annotations) {
  OwnedRow r;
  r.codes = codes;
  // The writers take the codes themselves; a blob only for the legal sequences.
  if (!store::encode_moves(Board(), codes, r.moves)) r.moves.clear();
  store::encode_tags(other_tags, r.tags);
  std::string payload;
  store::encode_annotations(annotations, payload);
  if (!payload.empty()) store::encode_blob(payload, 3, r.annotations);
  r.row.id = 1;
  r.row.moves = r.moves;
  r.row.tags = r.tags;
  r.row.annotations = r.annotations;
  r.row.plies = int64_t(codes.size());
  r.row.language = "en";
  return r;
}

MoveCode code(Square from, Square to, unsigned promotion = 0) { return MoveCode(from | (to << 6) | (promotion << 12)); }

TEST(PgnWriter, SevenTagRosterFirstThenColumnsThenTheRest) {
  const std::string pgn = export_sample(1);
  EXPECT_EQ(pgn,
            "[Event \"Wch 2019\"]\n[Site \"London\"]\n[Date \"2019.05.17\"]\n[Round \"1\"]\n"
            "[White \"Carlsen, Magnus\"]\n[Black \"Nakamura, Hikaru\"]\n[Result \"1-0\"]\n"
            "[WhiteElo \"2870\"]\n[BlackElo \"2780\"]\n[ECO \"C60\"]\n[TimeControl \"180+2\"]\n\n"
            "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n\n");
}

TEST(PgnWriter, AbsentRosterTagsGetTheirPlaceholdersAndComputedEcoStaysOut) {
  const std::string pgn = export_sample(4);
  EXPECT_EQ(pgn,
            "[Event \"Club\"]\n[Site \"Berlin\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
            "[White \"Nakamura, Hikaru\"]\n[Black \"Müller, Hans\"]\n[Result \"*\"]\n\n"
            "1. e4 Nf6 2. e5 d5 3. exd6 *\n\n");
}

TEST(PgnWriter, SetUpGameNumbersBlackMovesAfterAnnotations) {
  const std::string pgn = export_sample(8);
  EXPECT_NE(pgn.find("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 40\"]\n"), std::string::npos) << pgn;
  EXPECT_NE(pgn.find("\n\n40... Kd7 {first comment} 41. e4 $1 (41. e3 Ke6) 41... Ke6 42. Ke2 *\n\n"), std::string::npos)
      << pgn;
  PgnWriteOptions bare;
  bare.annotations = false;
  EXPECT_NE(export_sample(8, bare).find("\n\n40... Kd7 41. e4 Ke6 42. Ke2 *\n\n"), std::string::npos);
}

TEST(PgnWriter, NotationsAndLanguages) {
  PgnWriteOptions o;
  o.notation = parse_notation("de").value();
  EXPECT_NE(export_sample(1, o).find("1. e4 e5 2. Sf3 Sc6 3. Lb5 a6 1-0"), std::string::npos);
  o.notation = parse_notation("long").value();
  EXPECT_NE(export_sample(1, o).find("1. e2-e4 e7-e5 2. Ng1-f3 Nb8-c6 3. Bf1-b5 a7-a6 1-0"), std::string::npos);
  o.notation = parse_notation("uci").value();
  EXPECT_NE(export_sample(1, o).find("1. e2e4 e7e5 2. g1f3 b8c6 3. f1b5 a7a6 1-0"), std::string::npos);
  o.notation = parse_notation("figurine").value();
  EXPECT_NE(export_sample(1, o).find("2. \xE2\x99\x98" "f3"), std::string::npos);
  o.notation = parse_notation("fr").value();
  EXPECT_NE(export_sample(1, o).find("2. Cf3 Cc6 3. Fb5"), std::string::npos);
  const Parsed<ExportNotation> klingon = parse_notation("klingon");
  ASSERT_FALSE(klingon);
  EXPECT_NE(klingon.error().find("san, long, uci, figurine"), std::string::npos);
}

TEST(PgnWriter, EscapesTagValues) {
  OwnedRow r = make_row({}, {{"Annotator", "say \"hi\" \\o/"}}, {});
  r.row.white = "A \"quoted\" name";
  std::string out;
  ASSERT_TRUE(PgnWriter().write(r.row, r.codes, out));
  EXPECT_NE(out.find("[White \"A \\\"quoted\\\" name\"]\n"), std::string::npos) << out;
  EXPECT_NE(out.find("[Annotator \"say \\\"hi\\\" \\\\o/\"]\n"), std::string::npos) << out;
  EXPECT_NE(out.find("\n\n*\n\n"), std::string::npos) << out;  // no moves: the result alone
}

TEST(PgnWriter, WrapsAtEightyColumnsNeverBeforeEscapeOrTagLookalikes) {
  std::vector<MoveCode> codes;
  // Knights out and back, 40 times: 160 plies.
  for (int i = 0; i < 40; ++i)
    codes.insert(codes.end(), {code(SQ_G1, SQ_F3), code(SQ_G8, SQ_F6), code(SQ_F3, SQ_G1), code(SQ_F6, SQ_G8)});
  std::vector<store::AnnotationEntry> notes;
  for (uint32_t ply = 3; ply < 160; ply += 7)
    notes.push_back({ply, "{a comment long enough to need wrapping, with 50 % of it here and [Event \"x\"] too} $1"});
  notes.push_back({1, "{%}"});  // a word that may not start a line
  for (int i = 0; i < 30; ++i) notes.push_back({158, "{" + std::string(size_t(i), 'x') + " %}"});
  OwnedRow r = make_row(codes, {}, notes);
  std::string out;
  ASSERT_TRUE(PgnWriter().write(r.row, r.codes, out));
  const size_t movetext = out.find("\n\n") + 2;
  size_t start = movetext, lines = 0;
  while (start < out.size()) {
    const size_t end = out.find('\n', start);
    const std::string line = out.substr(start, end - start);
    if (line.empty()) break;
    ++lines;
    EXPECT_LE(line.size(), 80u) << line;
    EXPECT_NE(line[0], '%') << line;
    EXPECT_FALSE(line[0] == '[' && std::isalpha(static_cast<unsigned char>(line[1]))) << line;
    EXPECT_NE(line.back(), ' ');
    start = end + 1;
  }
  EXPECT_GT(lines, 10u);
  // Every Black move after a comment is numbered "N...".
  EXPECT_NE(out.find("$1 2... Ng8"), std::string::npos) << out;
}

TEST(PgnWriter, NullMoveIsTwoDashes) {
  OwnedRow r = make_row({code(SQ_E2, SQ_E4), 0, code(SQ_D2, SQ_D4)}, {}, {});
  std::string out;
  ASSERT_TRUE(PgnWriter().write(r.row, r.codes, out));
  EXPECT_NE(out.find("1. e4 -- 2. d4 *"), std::string::npos) << out;
}

TEST(PgnWriter, CorruptMovesWriteNothing) {
  OwnedRow r = make_row({code(SQ_E2, SQ_E4), code(SQ_E2, SQ_E4)}, {}, {});  // e2 is empty by then
  std::string out = "kept";
  EXPECT_FALSE(PgnWriter().write(r.row, r.codes, out));
  EXPECT_EQ(out, "kept");
}

TEST(PgnWriter, Chess960GetsXFenAndVariantTags) {
  // Shredder castling letters in the stored start position; no Variant tag in the file.
  OwnedRow r = make_row({}, {{"FEN", "nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/NRK1BQRN w GBgb - 0 1"}}, {});
  r.row.variant = store::Variant::Chess960;
  r.row.start_fen = "nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/NRK1BQRN w GBgb - 0 1";
  std::string out;
  ASSERT_TRUE(PgnWriter().write(r.row, r.codes, out));
  EXPECT_NE(out.find("[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/NRK1BQRN w KQkq - 0 1\"]"),
            std::string::npos)
      << out;
}

TEST(JsonString, EscapesAndKeepsTextValid) {
  std::string out;
  append_json_string("a\"b\\c\n\t\x01\x7f", out);
  EXPECT_EQ(out, "\"a\\\"b\\\\c\\n\\t\\u0001\\u007f\"");
  out.clear();
  append_json_string("Kramník \xE2\x99\x98 \xF0\x9F\x98\x80", out);  // valid UTF-8 passes
  EXPECT_EQ(out, "\"Kramník \xE2\x99\x98 \xF0\x9F\x98\x80\"");
  out.clear();
  append_json_string("Kram\xEDk \xC0\xAF \xED\xA0\x80", out);  // Latin-1, overlong, surrogate
  EXPECT_EQ(out, "\"Kram\xC3\xADk \xC3\x80\xC2\xAF \xC3\xAD\xC2\xA0\\u0080\"");
  ASSERT_TRUE(json_check::parse(out).has_value());
  out.clear();
  append_json_string("\xC2\x9B" "1m \x9B" "1m", out);  // C1 CSI as UTF-8 and as a Latin-1 byte
  EXPECT_EQ(out, "\"\\u009b1m \\u009b1m\"");
}

// Repeated names keep their first value. The set does one hash look-up per name: the
// scan of all earlier names it replaced made n tags cost n * (n - 1) / 2 comparisons
// (80,000 tags: 3.2 billion, 10 s), so a bound linear in n catches a rescan. (Below
// 20 elements libstdc++ scans instead of hashing: a constant of at most 190.)
constexpr uint64_t kSmallSetScan = 20 * 19 / 2;

TEST(TagNameSet, WorkPerNameDoesNotGrowWithTheNamesBefore) {
  constexpr size_t kNames = 20000;
  std::vector<std::string> names;
  for (size_t i = 0; i < kNames; ++i) names.push_back("Tag" + std::to_string(i));
  TagNameSet set;
  size_t added = 0, repeated = 0;
  for (const std::string& name : names) added += set.insert(name);
  for (size_t i = 0; i < kNames; i += 10) repeated += !set.insert(names[i]);
  EXPECT_EQ(added, kNames);
  EXPECT_EQ(repeated, kNames / 10);
  EXPECT_LE(set.comparisons(), 2 * (kNames + kNames / 10) + kSmallSetScan);
  set.clear();
  EXPECT_TRUE(set.insert(names[0]));
}

TEST(JsonGameWriter, ThousandsOfTagsCostWorkLinearInTheirNumber) {
  constexpr int kTags = 20000;
  std::vector<store::Tag> tags;
  for (int i = 0; i < kTags; ++i) tags.push_back({"T" + std::to_string(i), "first"});
  for (int i = 0; i < kTags; i += 4) tags.push_back({"T" + std::to_string(i), "repeated"});
  OwnedRow r = make_row({code(SQ_E2, SQ_E4)}, tags, {});
  JsonGameWriter writer;
  std::string line;
  ASSERT_TRUE(writer.write(r.row, r.codes, {}, line));
  EXPECT_LE(writer.tag_name_comparisons(), 2 * tags.size() + kSmallSetScan);
  std::string error;
  auto v = json_check::parse(line, &error);
  ASSERT_TRUE(v) << error;
  const json_check::Value* written = v->find("tags");
  ASSERT_NE(written, nullptr);
  EXPECT_EQ(written->members.size(), size_t(kTags) + 7) << "the Seven Tag Roster, then each name once";
  EXPECT_EQ(written->find("T0")->text, "first");
  EXPECT_EQ(written->find("T19996")->text, "first");
  // A second game pays only for its own tags.
  const uint64_t before = writer.tag_name_comparisons();
  OwnedRow small = make_row({code(SQ_E2, SQ_E4)}, {{"Annotator", "x"}, {"Annotator", "y"}}, {});
  line.clear();
  ASSERT_TRUE(writer.write(small.row, small.codes, {}, line));
  EXPECT_LE(writer.tag_name_comparisons() - before, kSmallSetScan);
  EXPECT_NE(line.find("\"Annotator\":\"x\""), std::string::npos) << line;
  EXPECT_EQ(line.find("\"y\""), std::string::npos) << line;
}

TEST(JsonGameWriter, OneValidObjectPerGameWithTagsAndSanMoves) {
  store::Database db(query_test::sample_database(), store::Database::Mode::ReadOnly);
  search::SearchOptions search;
  search.filter.position = query_test::board_of("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
  search::GameSearch games(db, search);
  JsonGameWriter writer;
  int n = 0;
  while (games.next()) {
    std::string line;
    ASSERT_TRUE(writer.write(games.row(), games.codes(), games.plies(), line));
    ASSERT_EQ(line.back(), '\n');
    ASSERT_EQ(line.find('\n'), line.size() - 1);
    std::string error;
    auto v = json_check::parse(line, &error);
    ASSERT_TRUE(v) << error << "\n" << line;
    EXPECT_EQ(v->find("id")->number, double(games.row().id));
    EXPECT_EQ(v->find("tags")->find("Event")->text, std::string(games.row().event.value_or("?")));
    EXPECT_EQ(v->find("moves")->items.size(), size_t(games.row().plies));
    EXPECT_EQ(v->find("moves")->items[0].text, "e4");
    EXPECT_EQ(v->find("fen_plies")->items[0].number, 2);
    ++n;
  }
  EXPECT_EQ(n, 3);
}

}  // namespace
}  // namespace pgnbase::query
