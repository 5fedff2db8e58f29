#!/usr/bin/env bash
# Explorer and search timings on a database of about 1.46M games, for the builds given
# (e.g. main's and this branch's, to compare before and after in one run).
#   bash bench/explorer_bench.sh COPIES BUILD_DIR [BUILD_DIR...]
# The games: the two bench files of ../shared/data without comments, NAGs or variations
# (pgn-extract -C -N -V; tags kept, so ratings, dates and time controls exist), 52,975
# games, repeated COPIES times (28: 1.48M games, 1.38 GB). Each build imports the file
# once (seconds and DB size printed), then each query runs RUNS times (default 5) and the
# median of pgn-query's own --timing (from opening the DB, process start excluded) and of
# the whole command's wall time are printed as a Markdown table.
set -euo pipefail
cd "$(dirname "$0")/.."
copies=${1:?copies}
shift
runs=${RUNS:-5}
data=../shared/data
work=${PGNBASE_BENCH_DIR:-$(mktemp -d)}
mkdir -p "$work"

if [ ! -f "$work/one.pgn" ]; then
  for f in "$data"/bench/*.pgn.zst; do zstd -dc "$f"; done >"$work/bench.pgn"
  /usr/games/pgn-extract -s -C -N -V -o "$work/one.pgn" "$work/bench.pgn"
  rm "$work/bench.pgn"
fi
big="$work/x$copies.pgn"
[ -f "$big" ] || for _ in $(seq "$copies"); do cat "$work/one.pgn"; done >"$big"

# Median of the values on stdin.
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

ruy_lopez_moves='1.e4 e5 2.Nf3 Nc6 3.Bb5'
rare_moves='1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.Ba4 Nf6 5.O-O Be7 6.Re1 b5 7.Bb3 d6 8.c3 O-O 9.h3 Na5 10.Bc2 c5 11.d4 Qc7'
echo "| build | query | games in position | --timing ms (median of $runs) | wall ms |"
echo "|---|---|---|---|---|"
for build in "$@"; do
  db="$work/x$copies-$(echo "$build" | tr '/' '_').db"
  index=$build/tools/pgn-index
  query=$build/tools/pgn-query
  if [ ! -f "$db" ]; then
    keep=()
    if "$index" --help | grep -q -- --keep-duplicates; then keep=(--keep-duplicates); fi
    t0=$(date +%s%N)
    "$index" "${keep[@]}" -o "$db" "$big" 2>/dev/null | { grep '^explorer summaries' >&2 || true; }
    t1=$(date +%s%N)
    echo "import $build: $(((t1 - t0) / 1000000)) ms, $(stat -c %s "$db") bytes, $(sqlite3 "$db" 'SELECT count(*) FROM games') games" >&2
  fi
  q() {  # label, then pgn-query arguments after the DB
    local label=$1
    shift
    local timings=() walls=()
    for _ in $(seq "$runs"); do
      local t0 t1
      t0=$(date +%s%N)
      "$query" "$1" "$db" "${@:2}" --timing >"$work/out.txt" 2>"$work/err.txt"
      t1=$(date +%s%N)
      walls+=($(((t1 - t0) / 1000000)))
      timings+=("$(sed -n 's/^pgn-query: \([0-9.]*\) ms$/\1/p' "$work/err.txt")")
    done
    local games
    games=$(grep -m1 -o '^games *[0-9]*' "$work/out.txt" | tr -s ' ' | cut -d' ' -f2 || true)
    [ -n "$games" ] || games=$(head -c 40 "$work/out.txt" | tr '\n' ' ')
    echo "| $build | $label | $games | $(printf '%s\n' "${timings[@]}" | median) | $(printf '%s\n' "${walls[@]}" | median) |"
  }
  q "explore start" explore
  q "explore start --min-elo 2200" explore --min-elo 2200
  q "explore start --min-elo 2200 --date-from 2020 --date-to 2021" explore --min-elo 2200 --date-from 2020 --date-to 2021
  q "explore start --time-control blitz" explore --time-control blitz
  q "explore 1.e4" explore --fen 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1'
  q "explore 1.e4 --min-elo 2200 --date-from 2020" explore --fen 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1' --min-elo 2200 --date-from 2020
  q "explore Ruy Lopez" explore --fen 'r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3'
  q "explore Ruy Lopez --min-elo 2200 --date-from 2020" explore --fen 'r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3' --min-elo 2200 --date-from 2020
  q "explore rare (Chigorin, after 11...Qc7)" explore --fen 'r1b2rk1/2q1bppp/p2p1n2/npp1p3/3PP3/2P2N1P/PPB2PP1/RNBQR1K1 w - - 1 12'
  q "explore rare (lichess middlegame)" explore --fen '3r4/ppq2pbk/1np1r1pp/4p2n/PPN1P3/2P3PP/3B1P2/R1Q1RBK1 w - - 10 21'
  q "explore rare --min-elo 2200 --date-from 2020" explore --fen '3r4/ppq2pbk/1np1r1pp/4p2n/PPN1P3/2P3PP/3B1P2/R1Q1RBK1 w - - 10 21' --min-elo 2200 --date-from 2020
  q "explore start --white drnykterstein" explore --white drnykterstein
  if "$query" explore --help | grep -q -- --moves; then
    q "explore --moves Ruy Lopez" explore --moves "$ruy_lopez_moves"
    q "explore --moves Ruy Lopez --from-start-only" explore --moves "$ruy_lopez_moves" --from-start-only
    q "search --moves rare --count" search --moves "$rare_moves" --count
    q "search --moves rare --from-start-only --count" search --moves "$rare_moves" --from-start-only --count
  fi
  q "search Ruy Lopez --count" search --fen 'r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3' --count
done
echo "work dir: $work" >&2
