#!/usr/bin/env bash
# End-to-end import benchmark: pgn-index on the real bench files, on a master-style file
# made from them (Seven Tag Roster, no comments, NAGs or variations: pgn-extract -7 -C -N
# -V), and on the largest file concatenated 10 times (is peak memory flat?), each beside
# pgn-extract -r (parse and check every move, single-threaded) in the same run. Prints
# one table row per run, with the ratio pgn-extract seconds / pgn-index seconds; paste
# the output into bench/README.md.
#
#   bash bench/import_bench.sh [BUILD_DIR] [THREADS...]     (default: build, "1 2 $(nproc)")
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
shift || true
threads=("$@")
[ ${#threads[@]} -gt 0 ] || threads=(1 2 "$(nproc)")
data=../shared/data/bench
extract=/usr/games/pgn-extract
[ -x "$extract" ] || { echo "import_bench: needs pgn-extract (apt-get install pgn-extract)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

zstd -dc "$data/lichess-api-exports-2018-2022.pgn.zst" >"$work/lichess.pgn"
zstd -dc "$data/tcec-seasons-01-15.pgn.zst" >"$work/tcec.pgn"
cat "$work/lichess.pgn" "$work/tcec.pgn" | "$extract" -7 -C -N -V -s -o "$work/master.pgn" 2>/dev/null
for _ in $(seq 10); do cat "$work/tcec.pgn"; done >"$work/tcec-x10.pgn"

printf '%-16s %-22s %8s %8s %9s %9s %8s %7s %9s %8s\n' file tool seconds "MB/s" games/s "peak MiB" "DB MiB" "DB %PGN" "B/posit." "vs p-e"
for name in master lichess tcec tcec-x10; do
  file="$work/$name.pgn"
  bytes=$(stat -c %s "$file")
  /usr/bin/time -f '%e %M' -o "$work/time" "$extract" -r "$file" >/dev/null 2>&1 || true
  read -r extract_secs extract_kb <"$work/time"
  awk -v n="$name" -v s="$extract_secs" -v b="$bytes" -v kb="$extract_kb" \
    'BEGIN { printf "%-16s %-22s %8.2f %8.1f %9s %9.0f %8s %7s %9s %8s\n", n, "pgn-extract -r", s, b / 1e6 / s, "", kb / 1024, "", "", "", "" }'
  for t in "${threads[@]}"; do
    rm -f "$work/db"*
    # The 10x file repeats every game: without --keep-duplicates nine copies would be
    # skipped as duplicates instead of indexed.
    keep=()
    [ "$name" = tcec-x10 ] && keep=(--keep-duplicates)
    /usr/bin/time -f '%e %M' -o "$work/time" "$build/tools/pgn-index" -q "${keep[@]}" -j "$t" -o "$work/db" "$file"
    read -r secs kb <"$work/time"
    read -r found positions <<<"$(sqlite3 -separator ' ' "$work/db" 'SELECT SUM(games_found), (SELECT SUM(postings) FROM position_segments) FROM sources')"
    index_bytes=$(sqlite3 "$work/db" "SELECT SUM(pgsize) FROM dbstat WHERE name LIKE 'position_blocks%'")
    db_bytes=$(stat -c %s "$work/db")
    awk -v n="$name" -v t="pgn-index -j $t" -v s="$secs" -v b="$bytes" -v g="$found" -v kb="$kb" -v d="$db_bytes" \
      -v p="$positions" -v ib="$index_bytes" -v es="$extract_secs" \
      'BEGIN { printf "%-16s %-22s %8.2f %8.1f %9.0f %9.0f %8.1f %6.0f%% %9.2f %7.2fx\n", n, t, s, b / 1e6 / s, g / s, kb / 1024, d / 1048576, 100 * d / b, ib / p, es / s }'
  done
done
