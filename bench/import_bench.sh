#!/usr/bin/env bash
# End-to-end import benchmark: pgn-index on the real bench files, and on the largest of
# them concatenated 10 times (is peak memory flat?), side by side in the same run with
# pgn-extract doing comparable work (parse every game, check every move, write it out
# again). Prints one table row per run; paste the output into bench/README.md.
#
#   bash bench/import_bench.sh [BUILD_DIR] [THREADS...]     (default: build, "1 2 $(nproc)")
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
shift || true
threads=("$@")
[ ${#threads[@]} -gt 0 ] || threads=(1 2 "$(nproc)")
data=../shared/data/bench
files=("$data/lichess-api-exports-2018-2022.pgn.zst" "$data/tcec-seasons-01-15.pgn.zst")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

printf '%-42s %-26s %8s %9s %9s %10s %9s %10s\n' file tool seconds "MB/s" games/s "peak MiB" "DB MiB" "DB B/game"
largest=$(for f in "${files[@]}"; do echo "$(zstd -dc "$f" | wc -c) $f"; done | sort -n | tail -n 1 | cut -d' ' -f2)
for f in "${files[@]}" x10; do
  if [ "$f" = x10 ]; then
    # The largest file ten times over, plain text only.
    name="$(basename "$largest") x10"
    for _ in $(seq 10); do zstd -dc "$largest"; done >"$work/plain.pgn"
    mb=$(wc -c <"$work/plain.pgn" | awk '{print $1 / 1e6}')
  else
    name=$(basename "$f")
    zstd -dc "$f" >"$work/plain.pgn"
    mb=$(wc -c <"$work/plain.pgn" | awk '{print $1 / 1e6}')
  fi
  for t in "${threads[@]}"; do
    [ "$f" = x10 ] && continue
    rm -f "$work/db"*
    /usr/bin/time -f '%e %M' -o "$work/time" "$build/tools/pgn-index" -q -j "$t" -o "$work/db" "$f"
    read -r secs kb <"$work/time"
    games=$(sqlite3 "$work/db" 'SELECT imported FROM sources')
    found=$(sqlite3 "$work/db" 'SELECT games_found FROM sources')
    bytes=$(stat -c %s "$work/db")
    awk -v n="$name" -v t="pgn-index -j $t (.zst)" -v s="$secs" -v mb="$mb" -v g="$found" -v kb="$kb" -v b="$bytes" -v imp="$games" \
      'BEGIN { printf "%-42s %-26s %8.2f %9.1f %9.0f %10.0f %9.1f %10.0f\n", n, t, s, mb / s, g / s, kb / 1024, b / 1048576, b / imp }'
  done
  # The same text already decompressed, memory-mapped (all threads).
  rm -f "$work/db"*
  /usr/bin/time -f '%e %M' -o "$work/time" "$build/tools/pgn-index" -q -o "$work/db" "$work/plain.pgn"
  read -r secs kb <"$work/time"
  found=$(sqlite3 "$work/db" 'SELECT games_found FROM sources')
  bytes=$(stat -c %s "$work/db")
  awk -v n="$name" -v t="pgn-index -j $(nproc) (plain)" -v s="$secs" -v mb="$mb" -v g="$found" -v kb="$kb" -v b="$bytes" \
    'BEGIN { printf "%-42s %-26s %8.2f %9.1f %9.0f %10.0f %9.1f %10s\n", n, t, s, mb / s, g / s, kb / 1024, b / 1048576, "" }'
  if command -v /usr/games/pgn-extract >/dev/null; then
    # pgn-extract: parse, verify every move by replay, write all games back out (single-threaded).
    /usr/bin/time -f '%e %M' -o "$work/time" /usr/games/pgn-extract -s -o "$work/out.pgn" "$work/plain.pgn" 2>/dev/null || true
    read -r secs kb <"$work/time"
    out_games=$(grep -c '^\[Event ' "$work/out.pgn" || true)
    awk -v n="$name" -v t="pgn-extract -s (plain)" -v s="$secs" -v mb="$mb" -v g="$out_games" -v kb="$kb" \
      'BEGIN { printf "%-42s %-26s %8.2f %9.1f %9.0f %10.0f %9s %10s\n", n, t, s, mb / s, g / s, kb / 1024, "", "" }'
  fi
done
