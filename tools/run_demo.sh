#!/usr/bin/env bash
# The main job on the bundled sample: installs the dependencies, builds pgnbase (Release,
# with a profile of its own run: tools/build_release.sh), indexes tools/sample/ (2,000
# real lichess games, zstd-compressed) into out/demo.db and queries it: a position search,
# an ECO search, the opening explorer and a PGN export.
#   PGNBASE_BUILD_DIR  build folder (default build)
#   PGNBASE_DEMO_DIR   output folder (default out)
#   PGNBASE_JOBS       parallel build jobs (default: all cores)
#   PGNBASE_NO_PGO=1   one plain Release build instead of the two of build_release.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

build_dir=${PGNBASE_BUILD_DIR:-build}
out=${PGNBASE_DEMO_DIR:-out}
jobs=${PGNBASE_JOBS:-$(nproc)}
sample=tools/sample/lichess-drnykterstein-2000.pgn.zst
db="$out/demo.db"
# The Ruy Lopez: 1.e4 e5 2.Nf3 Nc6 3.Bb5
ruy_lopez_fen="r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3"

heading() {
  printf '\n== %s\n' "$*"
}

heading "Installing dependencies"
bash tools/install_deps.sh

heading "Building (Release, tools/build_release.sh) in $build_dir"
mkdir -p "$out"
build_log="$out/build.log"
if ! bash tools/build_release.sh "$build_dir" "$jobs" >"$build_log" 2>&1; then
  tail -n 40 "$build_log" >&2
  echo "run_demo: build failed; the whole log is in $build_log" >&2
  exit 1
fi
grep "^build_release: .*without a profile" "$build_log" >&2 || true
echo "built pgn-index and pgn-query (log: $build_log)"
for tool in pgn-index pgn-query; do
  if [ ! -x "$build_dir/tools/$tool" ]; then
    echo "run_demo: $build_dir/tools/$tool was not built" >&2
    exit 1
  fi
done
index="$build_dir/tools/pgn-index"
query="$build_dir/tools/pgn-query"

rm -f "$db" "$db-wal" "$db-shm"

heading "Indexing $sample"
"$index" -o "$db" "$sample"

heading "Games reaching the Ruy Lopez position (1.e4 e5 2.Nf3 Nc6 3.Bb5)"
"$query" search "$db" --fen "$ruy_lopez_fen" --limit 10

heading "Games classified C60-C99 (Ruy Lopez)"
"$query" search "$db" --eco C60-C99 --limit 10

heading "Pattern search: games that reached a rook ending (any pawns) for at least 10 plies"
"$query" search "$db" --material 'KR*PvKR*P' --for 10 --limit 5
echo "games with a fianchettoed white king (Kg1, Bg2, pawns f2 g3 h2): $("$query" search "$db" \
  --pieces 'wKg1 wBg2 wPf2 wPg3 wPh2' --count)"

heading "Opening explorer: the start position"
"$query" explore "$db"

heading "Opening explorer after 1.e4 c5 2.Nf3, blitz games of two 3000+ players"
"$query" explore "$db" --moves "1.e4 c5 2.Nf3" --time-control blitz --min-elo 3000 --top 3

heading "Exporting the Sicilian games (B20-B99) to $out/sicilian.pgn"
"$query" export "$db" --eco B20-B99 -o "$out/sicilian.pgn"
echo "grep counts $(grep -c '^\[Event ' "$out/sicilian.pgn") [Event tags in $out/sicilian.pgn"

heading "Done: database $db ($(du -h "$db" | cut -f1))"
echo "To look at it in a browser (explorer, search, games, players): $query serve $db"
echo "then open http://127.0.0.1:8080/ (Ctrl-C stops the server)"
