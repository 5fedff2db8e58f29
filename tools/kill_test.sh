#!/usr/bin/env bash
# The long crash test (issue 5): kill -9 pgn-index at random moments while it imports a
# large real file; after each kill the database must open and pass integrity_check, and
# re-running the same command must end with the games and position index of an
# uninterrupted import.
#   tools/kill_test.sh [INPUT] [KILLS]
#   INPUT  default ../shared/data/bench/tcec-seasons-01-15.pgn.zst
#   KILLS  default 10
#   PGNBASE_BIN   folder holding pgn-index (default build/tools)
#   PGNBASE_WORK  scratch folder (default a new temp dir, removed at the end)
#   PGNBASE_INDEX_ARGS  extra arguments for pgn-index (e.g. "--threads 2")
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

input=${1:-../shared/data/bench/tcec-seasons-01-15.pgn.zst}
kills=${2:-10}
bin=${PGNBASE_BIN:-build/tools}
index="$bin/pgn-index"
extra=(${PGNBASE_INDEX_ARGS:-})
[[ -x $index ]] || { echo "kill_test: $index not built" >&2; exit 2; }
[[ -r $input ]] || { echo "kill_test: cannot read $input" >&2; exit 2; }
command -v sqlite3 >/dev/null || { echo "kill_test: needs the sqlite3 command" >&2; exit 2; }
work=${PGNBASE_WORK:-$(mktemp -d)}
mkdir -p "$work"
[[ -n ${PGNBASE_WORK:-} ]] || trap 'rm -rf "$work"' EXIT

# A digest of what must survive: every games row, the position blocks, the rejects
# and the sources' identity (not their timestamps).
digest() {
  sqlite3 "$1" <<'SQL' | sha256sum | cut -c1-16
SELECT COUNT(*), SUM(plies), SUM(LENGTH(moves)) FROM games;
SELECT quote(g.id), quote(source_id), quote(game_number), quote(byte_offset), quote(white_id), quote(black_id),
       quote(date), quote(result), quote(plies), quote(eco), quote(moves), quote(tags), quote(a.annotations)
  FROM games g LEFT JOIN game_annotations a ON a.id = g.id ORDER BY g.id;
SELECT segment_id, first_key, last_key, postings, hex(data) FROM position_blocks ORDER BY segment_id, first_key, block_id;
SELECT source_id, game_number, kind, reason FROM rejects ORDER BY id;
SELECT id, path, content_hash, games_found, imported, rejected FROM sources ORDER BY id;
SQL
}

echo "== uninterrupted import of $input"
start=$(date +%s.%N)
"$index" -q "${extra[@]}" -o "$work/reference.db" "$input"
seconds=$(echo "$(date +%s.%N) - $start" | bc)
want=$(digest "$work/reference.db")
echo "   took $seconds s; digest $want; $(sqlite3 "$work/reference.db" 'SELECT COUNT(*) FROM games') games"

db="$work/killed.db"
survived=0
killed=0
for ((k = 1; k <= kills; ++k)); do
  # A random moment within the first 95% of the uninterrupted run.
  delay=$(awk -v s="$seconds" -v r="$RANDOM" 'BEGIN { printf "%.2f", s * 0.95 * r / 32768 }')
  "$index" -q "${extra[@]}" -o "$db" "$input" &
  pid=$!
  sleep "$delay"
  if kill -9 "$pid" 2>/dev/null; then
    how="killed at $delay s"
    ((++killed))
  else
    how="finished before $delay s"
  fi
  wait "$pid" 2>/dev/null || true
  if [[ -e $db ]]; then
    check=$(sqlite3 "$db" 'PRAGMA integrity_check')
    games=$(sqlite3 "$db" 'SELECT COUNT(*) FROM games' 2>/dev/null || echo "none (killed before the schema was written)")
    [[ $check == ok ]] || { echo "kill $k ($how): integrity_check: $check" >&2; exit 1; }
  else
    games="no database yet"
  fi
  echo "   kill $k: $how; integrity ok; games: $games"
  ((++survived))
  # Resume: the same command must complete to the reference.
  "$index" -q "${extra[@]}" -o "$db" "$input"
  got=$(digest "$db")
  [[ $got == "$want" ]] || { echo "kill $k: after the re-run the digest is $got, want $want" >&2; exit 1; }
  echo "   re-run: digest matches the uninterrupted import"
  rm -f "$db" "$db-wal" "$db-shm"
done
echo "kill_test: OK: $survived rounds ($killed killed mid-import, the rest finished first), each re-run equal to the uninterrupted import"
