#!/usr/bin/env bash
# The Parquet dataset on the two real bench files: for each, pgn-index, then
# pgn-query export-dataset (speed and size against the SQLite file), then for every FEN
# of ../shared/data/fen-search-expected.tsv the games DuckDB finds over positions/ beside
# `pgn-query search --count` (they must be equal; the script fails otherwise) with both
# times, and the start position's explorer both ways. Paste the output into
# bench/README.md.
#
#   bash bench/dataset_bench.sh [BUILD_DIR]   (default build-rel: a Release build of
#   pgn-index and pgn-query; needs node and the readers of tests/dataset, npm install)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-rel}
data=../shared/data
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
duck() { (cd tests/dataset && PGNBASE_DUCKDB_TIMING=1 node duckdb_query.mjs "$1"); }
failed=0

for file in lichess-api-exports-2018-2022 tcec-seasons-01-15; do
  db="$work/$file.db"
  ds="$work/$file-dataset"
  "$build/tools/pgn-index" -q -o "$db" "$data/bench/$file.pgn.zst"
  echo "== $file"
  "$build/tools/pgn-query" export-dataset "$db" "$ds"
  db_bytes=$(stat -c %s "$db")
  for part in games positions explorer; do
    printf '%-10s %12d bytes %5d files\n' "$part/" "$(du -sb "$ds/$part" | cut -f1)" "$(find "$ds/$part" -name '*.parquet' | wc -l)"
  done
  printf '%-10s %12d bytes (the SQLite database: %d bytes)\n' "dataset" "$(du -sb "$ds" | cut -f1)" "$db_bytes"
  printf '%-32s %8s %8s %8s %10s %10s\n' fen expected pgnbase duckdb "pgnbase ms" "duckdb ms"
  grep -v '^#' "$data/fen-search-expected.tsv" | awk -F'\t' -v f="bench/$file.pgn.zst" '$1 == f { print $3 "\t" $4 "\t" $5 }' |
    while IFS=$'\t' read -r name fen expected; do
      read -r _ kb key <<<"$("$build/tools/pgn-query" key "$fen")"
      ours=$("$build/tools/pgn-query" search "$db" --fen "$fen" --count --timing 2>"$work/err")
      ours_ms=$(sed -n 's/pgn-query: \(.*\) ms/\1/p' "$work/err")
      theirs=$(duck "SELECT count(DISTINCT game_id) FROM read_parquet('$ds/positions/$kb/*.parquet') WHERE key = $key" 2>"$work/err")
      theirs_ms=$(sed -n 's/duckdb: \(.*\) ms/\1/p' "$work/err")
      printf '%-32s %8s %8s %8s %10s %10s\n' "$name" "$expected" "$ours" "$theirs" "$ours_ms" "$theirs_ms"
      [ "$ours" = "$theirs" ] || { echo "dataset_bench: $name differs" >&2; failed=1; }
    done
  read -r _ kb key <<<"$("$build/tools/pgn-query" key 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1')"
  "$build/tools/pgn-query" explore "$db" --timing 2>&1 | sed -n '1,6p;$p'
  duck "SELECT next_move, sum(games), sum(white_wins), sum(draws), sum(black_wins), round(sum(elo_sum) / sum(rated_games))
        FROM read_parquet('$ds/explorer/$kb/*.parquet') WHERE key = $key GROUP BY next_move ORDER BY 2 DESC LIMIT 3" 2>&1
done
exit $failed
