#!/usr/bin/env bash
# Imports every real PGN file of ../shared/data on its own and prints, per file, games
# found / imported / rejected beside the counts of MANIFEST.tsv (Event tags, pgn-extract,
# chessops), then every reject with its reason.
#   bash tools/replay_report.sh [BUILD_DIR]      (default: build)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
data=${PGNBASE_DATA:-../shared/data}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

printf 'file\tfound\timported\trejected\tEvent tags\tpgn-extract\tchessops\n'
totals=(0 0 0)
: >"$work/rejects"
while read -r file; do
  rm -f "$work"/x.db*
  summary=$("$build/tools/pgn-index" -o "$work/x.db" "$data/$file" 2>&1 | grep 'games found' || true)
  read -r found imported rejected < <(sed -E 's/.*: ([0-9]+) games found, ([0-9]+) imported, ([0-9]+) rejected.*/\1 \2 \3/' <<<"$summary")
  manifest=$(awk -F'\t' -v p="$file" '$1 == p { print $5 "\t" $6 "\t" $8 }' "$data/MANIFEST.tsv")
  printf '%s\t%s\t%s\t%s\t%s\n' "$file" "$found" "$imported" "$rejected" "$manifest"
  totals=($((totals[0] + found)) $((totals[1] + imported)) $((totals[2] + rejected)))
  "$build/tools/pgn-query" rejects "$work/x.db" --json | sed "s|^|$file: |" >>"$work/rejects"
done < <(cd "$data" && find . \( -name '*.pgn' -o -name '*.pgn.zst' \) | sed 's|^\./||' | sort)
printf 'total\t%s\t%s\t%s\n' "${totals[@]}"
echo
echo "rejects:"
cat "$work/rejects"
