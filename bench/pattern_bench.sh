#!/usr/bin/env bash
# Material, imbalance and placement search on a big master-style DB, beside pgn-extract's
# material match (-z) on the same games, in the same run; and what the per-game material
# runs cost at import (master.pgn imported by this build and, when given, by an older
# pgn-index without them).
#   bash bench/pattern_bench.sh [BUILD_DIR] [COPIES] [RUNS] [OLD_PGN_INDEX]
#   (default: build-rel, 28 copies of master.pgn = 1.48M games, 3 runs)
# master.pgn: $PGNBASE_MASTER_PGN, else /work/benchdata/master.pgn, else made from
# ../shared/data/bench with pgn-extract -7 -C -N -V (comments, NAGs and variations
# stripped). Prints markdown tables; paste them into bench/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-rel}
copies=${2:-28}
runs=${3:-3}
old_index=${4:-}
index=$build/tools/pgn-index
query=$build/tools/pgn-query
extract=$(command -v pgn-extract || echo /usr/games/pgn-extract)
work=${PGNBASE_BENCH_DIR:-$(mktemp -d)}
mkdir -p "$work"

master=${PGNBASE_MASTER_PGN:-/work/benchdata/master.pgn}
if [ ! -f "$master" ]; then
  master=$work/master.pgn
  [ -f "$master" ] || for f in ../shared/data/bench/*.pgn.zst; do zstd -dc "$f"; done |
    "$extract" -s -7 -C -N -V -o "$master" /dev/stdin
fi

seconds() {  # wall seconds of a command, output to $work/last.out
  local t0 t1
  t0=$(date +%s%N)
  "$@" >"$work/last.out" 2>"$work/last.err"
  t1=$(date +%s%N)
  awk -v n=$((t1 - t0)) 'BEGIN { printf "%.2f", n / 1e9 }'
}

echo "## Import cost of the material runs: $(basename "$master") ($(grep -c '^\[Event ' "$master") games), -j 2"
echo "| pgn-index | import s | DB bytes | material_blocks bytes | bytes per game |"
echo "|---|---|---|---|---|"
for which in new old; do
  bin=$index
  if [ "$which" = old ]; then
    [ -n "$old_index" ] || continue
    bin=$old_index
  fi
  rm -f "$work/master-$which.db"*
  s=$(seconds "$bin" -q -j 2 -o "$work/master-$which.db" "$master")
  size=$(stat -c %s "$work/master-$which.db")
  if [ "$which" = new ]; then
    runs_bytes=$(sqlite3 "$work/master-new.db" "SELECT sum(pgsize) FROM dbstat WHERE name = 'material_blocks'")
    per_game=$(sqlite3 "$work/master-new.db" "SELECT printf('%.1f', sum(length(runs)) * 1.0 / sum(games)) FROM material_blocks")
  else
    runs_bytes=-
    per_game=-
  fi
  echo "| $which ($bin) | $s | $size | $runs_bytes | $per_game |"
done

big=$work/big.pgn
if [ ! -f "$big" ]; then
  for _ in $(seq "$copies"); do cat "$master"; done >"$big"
fi
db=$work/big.db
if [ ! -f "$db" ]; then
  s=$(seconds "$index" -q -j 2 --memory 1G -o "$db" "$big")
  echo
  echo "big DB: $copies x master.pgn imported in $s s, $(stat -c %s "$db") bytes"
fi
games=$(sqlite3 "$db" "SELECT count(*) FROM games")

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

echo
echo "## Pattern searches on $games games, 2 threads, median of $runs runs"
echo "| search | games | s | games scanned / replayed |"
echo "|---|---|---|---|"
search() {  # label, pgn-query search options...
  local label=$1
  shift
  local times=()
  for _ in $(seq "$runs"); do
    times+=("$(seconds "$query" search "$db" "$@" -j 2 --count --timing)")
  done
  local pruning
  pruning=$(grep -o '[0-9]* games scanned, [0-9]* replayed' "$work/last.err" || true)
  printf '| %s | %s | %s | %s |\n' "$label" "$(cat "$work/last.out")" "$(printf '%s\n' "${times[@]}" | median)" "$pruning"
}
search "ending KRPvKR (exact colours)" --material KRPvKR
search "ending KRPvKR, either colour" --material KRPvKR --material-either-colour
search "ending KRvKB, either colour" --material KRvKB --material-either-colour
search "rook endings KR*PvKR*P for 10 plies" --material 'KR*PvKR*P' --for 10
search "imbalance QvRR, either colour" --imbalance QvRR --material-either-colour
search "imbalance BvN for 6 plies" --imbalance BvN --for 6
search "fianchetto: wKg1 wBg2 wPf2 wPg3 wPh2" --pieces 'wKg1 wBg2 wPf2 wPg3 wPh2'
search "IQP: white d4 pawn, c and e pawns gone" --pawns 'w:8/8/8/8/3P4/8/PP3PPP/8' --for 6
search "Carlsbad structure (both sides)" --pawns '8/pp3ppp/2p5/3p4/3P4/4P3/PP3PPP/8'

echo
echo "## pgn-extract -z (material match, either colour) on the same $copies x master.pgn text"
echo "| material | pgn-extract games | pgn-extract s | pgn-query games | pgn-query s | ratio |"
echo "|---|---|---|---|---|---|"
for pair in "rp r:KRPvKR" "r b:KRvKB"; do
  spec=${pair%%:*}
  material=${pair##*:}
  echo "$spec" >"$work/material.txt"
  e=$(seconds "$extract" -s -z "$work/material.txt" -o "$work/extract.pgn" "$big")
  eg=$(grep -c '^\[Event ' "$work/extract.pgn" || true)
  q=$(seconds "$query" search "$db" --material "$material" --material-either-colour -j 2 --count)
  qg=$(cat "$work/last.out")
  echo "| $material | $eg | $e | $qg | $q | $(awk -v a="$e" -v b="$q" 'BEGIN { printf "%.0fx", a / b }') |"
done
