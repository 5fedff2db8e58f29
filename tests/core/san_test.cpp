// Move reading and writing: every form of NOTATION.md, resolution against the legal
// moves, canonical SAN, and write -> read round trips in every style and language.
#include "core/san.h"

#include <gtest/gtest.h>

#include <random>

#include "core/fen.h"
#include "core/movegen.h"
#include "core/replay.h"
#include "core_test_support.h"

namespace pgnbase {
namespace {

using test_support::find_uci_move;
using test_support::move_to_uci;

Board board_from(std::string_view fen, bool chess960 = false) {
  Parsed<Board> b = parse_fen(fen, chess960);
  EXPECT_TRUE(b) << fen << ": " << (b ? "" : b.error());
  return b ? *b : Board();
}

// The move a token names, as UCI, or the error's description.
std::string read(const Board& b, std::string_view token, const PieceLetters& letters = english()) {
  Move m;
  SanError e = parse_move(b, token, letters, m);
  if (e != SanError::None) return std::string("error: ") + describe(e);
  return move_to_uci(b, m);
}

const PieceLetters& language(std::string_view code) { return *find_piece_letters(code); }

TEST(SanRead, EnglishForms) {
  Board start;
  EXPECT_EQ(read(start, "e4"), "e2e4");
  EXPECT_EQ(read(start, "Nf3"), "g1f3");
  EXPECT_EQ(read(start, "Nf3+!?"), "g1f3");
  EXPECT_EQ(read(start, "Ng1-f3"), "g1f3");
  EXPECT_EQ(read(start, "g1f3"), "g1f3");
  EXPECT_EQ(read(start, "e2-e4"), "e2e4");
  EXPECT_EQ(read(start, "e2e4"), "e2e4");
  EXPECT_EQ(read(start, "e5"), "error: illegal move");
  EXPECT_EQ(read(start, "Nf4"), "error: illegal move");
  EXPECT_EQ(read(start, "Xf3"), "error: unparsable move");
  EXPECT_EQ(read(start, "O-O"), "error: illegal move");
  EXPECT_EQ(read(start, ""), "error: empty move");
  EXPECT_EQ(read(start, "+"), "error: empty move");
}

TEST(SanRead, CapturesEnPassantAndShortPawnCaptures) {
  // After 1.e4 d5 2.e5 f5: exf6 e.p. is legal; exd5 no longer.
  Board b = board_from("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
  for (std::string_view token : {"exf6", "exf6e.p.", "exf6ep", "e5xf6", "e:f6", "ef6", "ef", "exf", "e\xC3\x97" "f6", "ef6:"})
    EXPECT_EQ(read(b, token), "e5f6") << token;
  // Two pawns may take on d5: "cd" would still be unique, "xd5" without file is not SAN.
  Board c = board_from("rnbqkbnr/ppp2ppp/8/3p4/2P1P3/8/PP1P1PPP/RNBQKBNR w KQkq - 0 3");
  EXPECT_EQ(read(c, "cxd5"), "c4d5");
  EXPECT_EQ(read(c, "exd5"), "e4d5");
  EXPECT_EQ(read(c, "cd"), "c4d5");
  EXPECT_EQ(read(c, "ed"), "e4d5");
}

TEST(SanRead, DisambiguationAndAmbiguity) {
  Board b = board_from("8/7k/8/Q3Q3/8/8/8/Q3K3 w - - 0 1");  // queens a1, a5, e5
  EXPECT_EQ(read(b, "Qa3"), "error: ambiguous move");  // a1 and a5 both reach a3
  EXPECT_EQ(read(b, "Q1a3"), "a1a3");
  EXPECT_EQ(read(b, "Q5a3"), "a5a3");
  EXPECT_EQ(read(b, "Qc3"), "error: ambiguous move");  // a1, a5, e5
  EXPECT_EQ(read(b, "Qa1c3"), "a1c3");
  EXPECT_EQ(read(b, "Qec3"), "e5c3");
  EXPECT_EQ(to_san(b, *find_uci_move(b, "a1c3")), "Q1c3");  // the file is shared, the rank is not
  EXPECT_EQ(to_san(b, *find_uci_move(b, "a5c3")), "Qa5c3");
  EXPECT_EQ(to_san(b, *find_uci_move(b, "e5c3")), "Qec3");
  EXPECT_EQ(to_san(b, *find_uci_move(b, "a1a3")), "Q1a3");
  // A pinned knight is no rival: no disambiguation needed, and the short form is unique.
  Board pin = board_from("4k3/4r3/8/8/8/2N1N3/8/4K3 w - - 0 1");  // Ne3 pinned by Re7
  EXPECT_EQ(read(pin, "Nd5"), "c3d5");
  EXPECT_EQ(to_san(pin, *find_uci_move(pin, "c3d5")), "Nd5");
}

TEST(SanRead, Promotions) {
  Board b = board_from("8/4P1k1/8/8/8/8/6K1/8 w - - 0 1");
  for (std::string_view token : {"e8=Q", "e8Q", "e8(Q)", "e8/Q", "e7e8q", "e7-e8Q", "e8=Q+"})
    EXPECT_EQ(read(b, token), "e7e8q") << token;
  EXPECT_EQ(read(b, "e8=N"), "e7e8n");
  EXPECT_EQ(read(b, "e7e8b"), "e7e8b");
  EXPECT_EQ(read(b, "e8"), "error: promotion piece missing");
  EXPECT_EQ(read(b, "e8=K"), "error: bad promotion");
  EXPECT_EQ(read(b, "e8D", language("de")), "e7e8q");
  EXPECT_EQ(read(b, "e8S", language("de")), "e7e8n");
  EXPECT_EQ(read(b, "e7fD", language("de")), "error: illegal move");  // no capture on f8
  Board capture = board_from("5r2/4P1k1/8/8/8/8/6K1/8 w - - 0 1");
  EXPECT_EQ(read(capture, "e7fD", language("de")), "e7f8q");
  EXPECT_EQ(to_san(capture, *find_uci_move(capture, "e7f8q")), "exf8=Q+");
}

TEST(SanRead, CastlingStandardAndChess960) {
  Board b = board_from("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  for (std::string_view token : {"O-O", "0-0", "O-O+", "e1g1", "Kg1"}) EXPECT_EQ(read(b, token), "e1g1") << token;
  for (std::string_view token : {"O-O-O", "0-0-0", "e1c1"}) EXPECT_EQ(read(b, token), "e1c1") << token;
  EXPECT_EQ(to_san(b, *find_uci_move(b, "e1g1")), "O-O");
  // Chess960: king b1, rooks a1 and h1; castling read as king-takes-rook too.
  Board c = board_from("rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1", true);
  EXPECT_EQ(read(c, "O-O"), "b1h1");
  EXPECT_EQ(read(c, "b1h1"), "b1h1");
  EXPECT_EQ(read(c, "O-O-O"), "b1a1");
  EXPECT_EQ(to_san(c, *find_uci_move(c, "b1a1")), "O-O-O");
}

TEST(SanRead, NationalLettersFigurinesAndMarks) {
  Board start;
  EXPECT_EQ(read(start, "Sf3", language("de")), "g1f3");
  EXPECT_EQ(read(start, "Sg1-f3", language("de")), "g1f3");
  EXPECT_EQ(read(start, "Be2-e4", language("de")), "e2e4");  // German long form: B = Bauer
  EXPECT_EQ(read(start, "Pf3", language("nl")), "g1f3");
  EXPECT_EQ(read(start, "Cf3", language("fr")), "g1f3");
  EXPECT_EQ(read(start, "Sf3", english()), "error: unparsable move");
  EXPECT_EQ(read(start, "\xE2\x99\x98" "f3"), "g1f3");  // white knight glyph
  EXPECT_EQ(read(start, "\xE2\x99\x9E" "f3"), "g1f3");  // black knight glyph
  EXPECT_EQ(read(start, "Nf3\xE2\x80\xA0"), "g1f3");    // dagger as check
  EXPECT_EQ(read(start, "--"), "0000");
  // Dutch long form naming the captured piece: Pa3xLb5.
  Board b = board_from("4k3/8/8/1b6/8/N7/8/4K3 w - - 0 1");
  EXPECT_EQ(read(b, "Pa3\xC3\x97Lb5", language("nl")), "a3b5");
  // French R is the king.
  Board k = board_from("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
  EXPECT_EQ(read(k, "Rf1", language("fr")), "e1f1");
  EXPECT_EQ(read(k, "Rf1", english()), "error: illegal move");
}

// Every legal move, written in every style and language, reads back as itself.
void expect_round_trips(const Board& b) {
  MoveList list;
  generate_legal_moves(b, list);
  for (Move m : list) {
    for (MoveStyle style : {MoveStyle::San, MoveStyle::Long, MoveStyle::Uci, MoveStyle::Figurine}) {
      for (const PieceLetters& letters : all_piece_letters()) {
        // Letters matter only where a piece letter is written.
        if (style != MoveStyle::San && style != MoveStyle::Long && letters.code != "en") continue;
        std::string text;
        append_move(b, m, style, letters, text);
        Move back;
        SanError e = parse_move(b, text, letters, back);
        ASSERT_EQ(e, SanError::None) << write_fen(b) << " " << text << " (" << letters.code << ")";
        ASSERT_EQ(back, m) << write_fen(b) << " " << text << " (" << letters.code << ")";
      }
    }
  }
}

// English tokens of plain SAN's shape take a shorter way (read_plain_english in san.cpp):
// each reads as the general reader reads it, the same move or the same error. Tokens
// built from every piece letter (and a few that are none), from-square hints, capture
// marks, targets and promotions, in the tricky perft positions (promotions, en passant,
// pins, castling) and along random games.
TEST(SanRead, PlainEnglishReadsAsTheGeneralReader) {
  const PieceLetters general = english();  // the same letters at another address: the general way
  std::vector<Board> boards;
  for (const auto& c : test_support::read_perft_file(test_support::test_data_path("perft/python-chess-tricky.perft")))
    if (const Parsed<Board> b = parse_fen(c.fen)) boards.push_back(*b);
  std::mt19937 rng(20261129);
  int ply = 0;
  for (int game = 0; game < 2; ++game)
    test_support::play_random_game(Board(), rng, 100, [&](const Board& b, Move) {
      if (ply++ % 12 == 0 || b.en_passant() != SQ_NONE) boards.push_back(b);
    });
  ASSERT_GT(boards.size(), 20u);
  const char* const pieces[] = {"", "N", "B", "R", "Q", "K", "P"};
  const char* const hints[] = {"", "a", "e", "2", "7", "e2", "x", "-"};
  const char* const captures[] = {"", "x"};
  const char* const promotions[] = {"", "=Q", "N", "=K", "=", "=P"};
  uint64_t read = 0, moves = 0;
  for (const Board& b : boards)
    for (const char* piece : pieces)
      for (const char* hint : hints)
        for (const char* capture : captures)
          for (int to = 0; to < 64; ++to)
            for (const char* promotion : promotions) {
              std::string token = std::string(piece) + hint + capture;
              token += char('a' + to % 8);
              token += char('1' + to / 8);
              token += promotion;
              Move fast, slow;
              const SanError fast_error = parse_move(b, token, english(), fast);
              const SanError slow_error = parse_move(b, token, general, slow);
              ASSERT_EQ(fast_error, slow_error) << token << " in " << write_fen(b);
              if (fast_error == SanError::None) {
                ASSERT_EQ(fast, slow) << token << " in " << write_fen(b);
                ++moves;
              }
              ++read;
            }
  EXPECT_GT(moves, 10000u);  // the tokens name real moves, not only errors
  EXPECT_GT(read, moves);
}

TEST(SanRoundTrip, PerftPositions) {
  for (const char* file : {"perft/python-chess-tricky.perft", "perft/python-chess-chess960.perft"}) {
    auto cases = test_support::read_perft_file(test_support::test_data_path(file));
    ASSERT_FALSE(cases.empty()) << file;
    for (const auto& c : cases) {
      const Parsed<Board> b = parse_fen(c.fen, std::string_view(file).find("960") != std::string_view::npos);
      if (!b) continue;
      expect_round_trips(*b);
    }
  }
}

TEST(SanRoundTrip, RandomGames) {
  std::mt19937 rng(20261123);
  // Kept small: every legal move of every position is written in 22 forms and read back.
  for (int game = 0; game < 40; ++game)
    test_support::play_random_game(Board(), rng, 100, [](const Board& b, Move) { expect_round_trips(b); });
}

TEST(Replay, DetectsTheLanguageOfAGame) {
  Board start;
  // French: English reads the first two plies, then fails on "Re2" (a rook cannot go there).
  std::vector<std::string_view> french = {"e4", "e5", "Re2", "Re7", "Cf3", "Cf6"};
  ReplayOutput out;
  ReplayFailure failure;
  const PieceLetters* used = replay_moves(start, french, nullptr, out, failure);
  ASSERT_NE(used, nullptr);
  EXPECT_EQ(used->code, "fr");
  EXPECT_EQ(out.codes.size(), 6u);
  // The reverse: an English game whose R moves would be king moves in French.
  std::vector<std::string_view> english_game = {"a4", "a5", "Ra3", "Ra6", "Rh3"};
  used = replay_moves(start, english_game, nullptr, out, failure);
  ASSERT_NE(used, nullptr);
  EXPECT_EQ(used->code, "en");
  // Forced to French, it fails at ply 3, and the failure names it.
  EXPECT_EQ(replay_moves(start, english_game, &language("fr"), out, failure), nullptr);
  EXPECT_EQ(failure.ply, 3);
  EXPECT_EQ(failure.token, "Ra3");
}

}  // namespace
}  // namespace pgnbase
