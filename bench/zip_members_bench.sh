#!/usr/bin/env bash
# Zip archives of many one-game members (an exported club archive; TWIC-style collections
# hold thousands of files too): pgn-index imports each member as its own source, then a
# second run finds every member already in the database. The archives are made by
# make-zip-members (bench/make_zip_members.cpp: seeded random legal games, the same on
# every machine). Prints one row per build and member count; with a second build folder
# (the code before a change), runs it too, in the same run, on BASE_MEMBERS. Paste the
# output into bench/README.md.
#
#   bash bench/zip_members_bench.sh [BUILD_DIR] [BASE_BUILD_DIR]
#   members: MEMBERS (default "1000 4000 20000"), BASE_MEMBERS (default "1000")
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
base=${2:-}
read -r -a members <<<"${MEMBERS:-1000 4000 20000}"
read -r -a base_members <<<"${BASE_MEMBERS:-1000}"
threads=${THREADS:-2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# run LABEL BUILD N: import the N-member zip into a new database, then again.
run() {
  local label=$1 dir=$2 n=$3 zip="$work/club-$3.zip"
  [ -f "$zip" ] || "$build/bench/make-zip-members" "$zip" "$n"
  rm -f "$work/db"*
  /usr/bin/time -f '%e %M' -o "$work/time" "$dir/tools/pgn-index" -q -j "$threads" -o "$work/db" "$zip"
  read -r first first_kb <"$work/time"
  /usr/bin/time -f '%e %M' -o "$work/time" "$dir/tools/pgn-index" -q -j "$threads" -o "$work/db" "$zip"
  read -r again again_kb <"$work/time"
  read -r sources games <<<"$(sqlite3 -separator ' ' "$work/db" 'SELECT COUNT(*), SUM(imported) FROM sources')"
  awk -v l="$label" -v n="$n" -v z="$(stat -c %s "$zip")" -v f="$first" -v fk="$first_kb" -v a="$again" \
    -v ak="$again_kb" -v s="$sources" -v g="$games" \
    'BEGIN { printf "%-8s %8d %8.1f %9.2f %10.0f %9.0f %9.2f %9.0f %8d %8d\n", l, n, z / 1e6, f, n / f, fk / 1024, a, ak / 1024, s, g }'
}

printf '%-8s %8s %8s %9s %10s %9s %9s %9s %8s %8s\n' build members "zip MB" "import s" members/s "peak MiB" "again s" "peak MiB" sources games
for n in "${members[@]}"; do run new "$build" "$n"; done
if [ -n "$base" ]; then
  for n in "${base_members[@]}"; do run base "$base" "$n"; done
fi
