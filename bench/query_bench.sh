#!/usr/bin/env bash
# Whole-command query timings on a DB of all real files in ../shared/data and on one of
# 1.46M games (the two bench files without comments, NAGs or variations, concatenated 28
# times, imported with --keep-duplicates: issue 12's query targets), with pgn-extract
# doing the same FEN search and export on the PGN text, in the same run.
#   bash bench/query_bench.sh [BUILD_DIR] [RUNS]      (default: build, 5)
# Prints "query | DB | median ms | result"; paste into bench/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
runs=${2:-5}
data=../shared/data
index=$build/tools/pgn-index
query=$build/tools/pgn-query
work=${PGNBASE_BENCH_DIR:-$(mktemp -d)}
mkdir -p "$work"

# DB all: every real PGN file of ../shared/data. DB x28: 1.46M games (a 1.38 GB file).
[ -f "$work/bench.pgn" ] || zstd -dc "$data"/bench/*.pgn.zst >"$work/bench.pgn"
if [ ! -f "$work/all.db" ]; then
  mapfile -t files < <(find "$data" \( -name '*.pgn' -o -name '*.pgn.zst' \) | sort)
  "$index" -q -o "$work/all.db" "${files[@]}"
fi
if [ ! -f "$work/x28.db" ]; then
  [ -f "$work/one.pgn" ] || /usr/games/pgn-extract -s -C -N -V -o "$work/one.pgn" "$work/bench.pgn"
  for _ in $(seq 28); do cat "$work/one.pgn"; done >"$work/x28.pgn"
  "$index" -q --keep-duplicates -o "$work/x28.db" "$work/x28.pgn"
  rm "$work/x28.pgn"
fi

# Median wall time in ms of a command run $runs times; the last run's stdout is kept.
median_ms() {
  local times=()
  for _ in $(seq "$runs"); do
    local t0 t1
    t0=$(date +%s%N)
    "$@" >"$work/last.out" 2>/dev/null || true
    t1=$(date +%s%N)
    times+=($(((t1 - t0) / 1000000)))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}

row() {  # label db result-command...
  local label=$1 db=$2
  shift 2
  local ms
  ms=$(median_ms "$@")
  printf '| %s | %s | %s | %s |\n' "$label" "$db" "$ms" "$(head -c 60 "$work/last.out" | tr '\n' ' ')"
}

start_after_e4='rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1'
ruy_lopez='r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3'
# A middlegame and an endgame position of one lichess game each (rare positions).
middlegame='3r4/ppq2pbk/1np1r1pp/4p2n/PPN1P3/2P3PP/3B1P2/R1Q1RBK1 w - - 10 21'
endgame='8/8/4N3/8/8/2Q5/k1K5/8 b - - 24 95'

echo "| query | DB | median ms ($runs runs) | output (start) |"
echo "|---|---|---|---|"
for db in all x28; do
  d="$work/$db.db"
  row "FEN after 1.e4 (count)" "$db" "$query" search "$d" --fen "$start_after_e4" --count
  row "FEN Ruy Lopez (count)" "$db" "$query" search "$d" --fen "$ruy_lopez" --count
  row "FEN Ruy Lopez, first 20 games" "$db" "$query" search "$d" --fen "$ruy_lopez" --limit 20
  row "FEN middlegame (count)" "$db" "$query" search "$d" --fen "$middlegame" --count
  row "FEN endgame KQN v K (count)" "$db" "$query" search "$d" --fen "$endgame" --count
  row "FEN middlegame, first 10 games (rare)" "$db" "$query" search "$d" --fen "$middlegame" --limit 10
  row "FEN after 1.e4, first 10 games (common)" "$db" "$query" search "$d" --fen "$start_after_e4" --limit 10
  row "ECO C60-C99 (count)" "$db" "$query" search "$d" --eco C60-C99 --count
  row "ECO B90, first 50 games" "$db" "$query" search "$d" --eco B90 --limit 50
  row "player DrNykterstein (count)" "$db" "$query" search "$d" --player drnykterstein --count
  row "player, first 50 games" "$db" "$query" search "$d" --player drnykterstein --limit 50
  row "player, first 50 games by date" "$db" "$query" search "$d" --player drnykterstein --order date --limit 50
  row "ECO volume B, first 50 games" "$db" "$query" search "$d" --eco B --limit 50
  row "explorer, start position" "$db" "$query" explore "$d"
  row "explorer, start position, --min-elo 2200" "$db" "$query" explore "$d" --min-elo 2200
  if [ "$db" = all ]; then row "export all games (PGN to /dev/null)" "$db" "$query" export "$d" -o /dev/null; fi
done
games_all=$(sqlite3 "$work/all.db" 'SELECT COUNT(*) FROM games')
games_x28=$(sqlite3 "$work/x28.db" 'SELECT COUNT(*) FROM games')
echo "games: all.db $games_all, x28.db $games_x28"
if [ -x /usr/games/pgn-extract ]; then
  # pgn-extract: the same FEN search by Polyglot key (-H), and an export of every game.
  # (It cannot write to /dev/stdout: the hits go to a file and are counted.)
  row "pgn-extract -H (Ruy Lopez key), bench PGN" "bench.pgn" /usr/games/pgn-extract -s -H4b1376a17217ee1d -o "$work/hits.pgn" "$work/bench.pgn"
  echo "pgn-extract Ruy Lopez hits: $(grep -c '^\[Event ' "$work/hits.pgn")"
  row "pgn-extract export all, bench PGN" "bench.pgn" /usr/games/pgn-extract -s -o /dev/null "$work/bench.pgn"
fi
echo "work dir: $work"
