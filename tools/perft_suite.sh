#!/usr/bin/env bash
# Runs pgn-perft over every position and depth of a .perft file (the python-chess
# format: `id NAME`, `epd FEN`, `perft DEPTH NODES`, `#` comments), prints each
# mismatch and a summary, and exits 1 when any count differs.
set -euo pipefail

usage() {
  cat <<'EOF'
usage: perft_suite.sh [--pgn-perft PATH] [--max-depth N] [--max-nodes N] [--jobs N] FILE.perft

  --pgn-perft PATH  the pgn-perft binary (default: $PGN_PERFT, then pgn-perft on the
                    PATH, then build/tools/pgn-perft under the repository)
  --max-depth N     skip depths above N (default: every depth in the file)
  --max-nodes N     skip counts above N nodes
  --jobs N          run N pgn-perft processes at once (default 1)
EOF
}

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
pgn_perft=${PGN_PERFT:-}
max_depth=1000
max_nodes=18446744073709551615
jobs=1
file=

while (($#)); do
  case $1 in
    --pgn-perft) pgn_perft=${2:?}; shift 2 ;;
    --max-depth) max_depth=${2:?}; shift 2 ;;
    --max-nodes) max_nodes=${2:?}; shift 2 ;;
    --jobs) jobs=${2:?}; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "perft_suite.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
    *) [[ -z $file ]] || { echo "perft_suite.sh: one suite file at a time" >&2; exit 2; }
       file=$1; shift ;;
  esac
done

[[ -n $file ]] || { usage >&2; exit 2; }
[[ -r $file ]] || { echo "perft_suite.sh: cannot read '$file'" >&2; exit 2; }
for n in "$max_depth" "$max_nodes" "$jobs"; do
  [[ $n =~ ^[0-9]+$ ]] || { echo "perft_suite.sh: '$n' is not a number" >&2; exit 2; }
done
((jobs >= 1)) || { echo "perft_suite.sh: --jobs must be at least 1" >&2; exit 2; }
if [[ -z $pgn_perft ]]; then
  pgn_perft=$(command -v pgn-perft || echo "$repo_root/build/tools/pgn-perft")
fi
[[ -x $pgn_perft ]] || { echo "perft_suite.sh: no pgn-perft at '$pgn_perft' (use --pgn-perft)" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One task per line: id, FEN, depth, expected count, separated by tabs. Counts are
# compared as strings so that 64-bit values never pass through floating point.
awk -v max_depth="$max_depth" -v max_nodes="$max_nodes" '
  function not_above(a, b) { return length(a) < length(b) || (length(a) == length(b) && a <= b) }
  /^id / { id = substr($0, 4) }
  /^epd / { fen = substr($0, 5) }
  /^perft / && $2 <= max_depth && not_above($3, max_nodes) { printf "%s\t%s\t%s\t%s\n", id, fen, $2, $3 }
' "$file" >"$tmp/tasks"
checks=$(wc -l <"$tmp/tasks")
((checks > 0)) || { echo "perft_suite.sh: no perft lines selected in '$file'" >&2; exit 2; }

# Each job is one pgn-perft --batch process (start-up costs are paid once per job).
# Position i's depth d goes to job (i + d) mod N, so that every job gets its share of
# the deep counts.
start=$(date +%s.%N)
touch "$tmp/mismatches"
awk -F '\t' -v jobs="$jobs" -v dir="$tmp" '
  $1 != last { ++position; last = $1 }
  { print > (dir "/chunk." sprintf("%03d", (position + $3) % jobs)) }
' "$tmp/tasks"
for chunk in "$tmp"/chunk.???; do
  awk -F '\t' '{ print $3 " " $2 }' "$chunk" | "$pgn_perft" --batch >"$chunk.out" 2>&1 &
done
wait || true
end=$(date +%s.%N)

for chunk in "$tmp"/chunk.???; do
  if (($(wc -l <"$chunk") != $(wc -l <"$chunk.out"))); then
    echo "perft_suite.sh: pgn-perft stopped early; its last lines:" >&2
    tail -n 3 "$chunk.out" >&2
    exit 2
  fi
  paste -d '\t' "$chunk" "$chunk.out" | awk -F '\t' '
    ($4 "") != ($5 "") { printf "MISMATCH %s depth %s: expected %s, got %s [%s]\n", $1, $3, $4, $5, $2 }
  ' >>"$tmp/mismatches"
done
mismatches=$(wc -l <"$tmp/mismatches")
cat "$tmp/mismatches"
positions=$(cut -f 1 "$tmp/tasks" | sort -u | wc -l)
seconds=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
echo "perft_suite: $(basename "$file"): $positions positions, $checks checks, $mismatches mismatches, ${seconds} s"
((mismatches == 0))
