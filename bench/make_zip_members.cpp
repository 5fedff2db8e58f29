// make-zip-members: writes a zip archive (deflate) of N members games/game-NNNNNN.pgn,
// each one random legal game, the same for the same N on every machine, for
// bench/zip_members_bench.sh: an exported club archive, one game per file.
//
//   make-zip-members OUT.zip N
#include <archive.h>
#include <archive_entry.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>

#include "tests/support/random_moves.h"

using namespace pgnbase;

namespace {

// Game number (from 1) as PGN: tags, then 20 to 119 random legal plies.
std::string random_game(unsigned number) {
  std::mt19937 rng(number);
  std::string out = "[Event \"Club archive\"]\n[Site \"?\"]\n[Date \"2024.01.01\"]\n[Round \"" +
                    std::to_string(number) + "\"]\n[White \"Player " + std::to_string(rng() % 100) +
                    "\"]\n[Black \"Player " + std::to_string(rng() % 100) + "\"]\n[Result \"*\"]\n\n";
  test::append_random_moves(rng, out);
  return out + "*\n";
}

[[noreturn]] void fail(archive* a, const char* what) {
  std::fprintf(stderr, "make-zip-members: %s: %s\n", what, archive_error_string(a));
  std::exit(1);
}

}  // namespace

int main(int argc, char** argv) {
  const long members = argc == 3 ? std::strtol(argv[2], nullptr, 10) : 0;
  if (members <= 0 || members > 10'000'000) {
    std::fprintf(stderr, "usage: make-zip-members OUT.zip N   (N members of one game each)\n");
    return 2;
  }
  std::unique_ptr<archive, int (*)(archive*)> zip(archive_write_new(), archive_write_free);
  archive* a = zip.get();
  archive_write_set_format_zip(a);
  if (archive_write_open_filename(a, argv[1]) != ARCHIVE_OK) fail(a, argv[1]);
  std::unique_ptr<archive_entry, void (*)(archive_entry*)> entry(archive_entry_new(), archive_entry_free);
  for (long i = 1; i <= members; ++i) {
    const std::string game = random_game(unsigned(i));
    char name[40];
    std::snprintf(name, sizeof name, "games/game-%06ld.pgn", i);
    archive_entry_clear(entry.get());
    archive_entry_set_pathname(entry.get(), name);
    archive_entry_set_filetype(entry.get(), AE_IFREG);
    archive_entry_set_perm(entry.get(), 0644);
    archive_entry_set_size(entry.get(), la_int64_t(game.size()));
    if (archive_write_header(a, entry.get()) != ARCHIVE_OK) fail(a, name);
    if (archive_write_data(a, game.data(), game.size()) != la_ssize_t(game.size())) fail(a, name);
  }
  if (archive_write_close(a) != ARCHIVE_OK) fail(a, argv[1]);
  return 0;
}
