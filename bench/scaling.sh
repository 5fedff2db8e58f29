#!/usr/bin/env bash
# How the import scales with threads: pgn-index -j 1, 2, 4, ... up to the machine's cores
# on one file, each run printing (--stats) the CPU seconds of every thread role. One row
# per thread count: wall time, games/s, CPU by role (writer = the main thread, which
# writes every row in input order, and w_index_s of it building the games indexes at the
# end; workers; merge threads; rows: the games rows built beside the writer (a first
# import); spill: the spills of postings to run files, one at a time, each shared by
# half the -j threads, and busiest_s, the busiest of them over all spills (the serial part);
# reader; writes: a new database file's write() calls, on a thread of their own
# (store/write_behind_vfs.h), and its writeback hints (indexer/writeback_ahead.h); idx_s:
# a new database's games indexes, built after the writer's last row on threads of their
# own (store/index_bulk_build.h), and idx_chain_s, the longest chain of that work one
# index needs; other: SQLite's sort helpers), four wall times (held_up_s: the writer
# waiting for spills of postings; end_s: after the last chunk, the games indexes the
# writer builds and the position segment; idx_wall_s: the games indexes built after it;
# publish_s: closing the new database file and syncing it), and the ceiling that the
# busiest serial path sets (games / its CPU seconds; the writer's path includes the
# indexes' longest chain): no number of cores imports faster than that. Paste the output
# into bench/README.md.
#
#   bash bench/scaling.sh [BUILD_DIR] [FILE]
#     BUILD_DIR  default build (Release)
#     FILE       default: a master-style file made from ../shared/data/bench (Seven Tag
#                Roster, no comments: pgn-extract -7 -C -N -V), as bench/import_bench.sh
#   PGNBASE_SCALING_THREADS="1 2 4"  the thread counts (default 1 2 4 ... nproc)
#   PGNBASE_SCALING_ARGS="--keep-duplicates"  more pgn-index options (a file made of copies)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
file=${2:-}
index="$build/tools/pgn-index"
[ -x "$index" ] || { echo "scaling: $index not found (build first)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ -z "$file" ]; then
  data=../shared/data/bench
  extract=/usr/games/pgn-extract
  [ -x "$extract" ] || { echo "scaling: needs pgn-extract to make the master-style file, or pass FILE" >&2; exit 1; }
  zstd -dc "$data/lichess-api-exports-2018-2022.pgn.zst" "$data/tcec-seasons-01-15.pgn.zst" |
    "$extract" -7 -C -N -V -s -o "$work/master.pgn" 2>/dev/null
  file="$work/master.pgn"
fi

threads=${PGNBASE_SCALING_THREADS:-}
if [ -z "$threads" ]; then
  cores=$(nproc)
  for ((t = 1; t < cores; t *= 2)); do threads+="$t "; done
  threads+="$cores"
fi

echo "file: $file ($(stat -c %s "$file") bytes); $(nproc) cores"
printf '%4s %8s %9s %9s %9s %9s %9s %9s %9s %9s %9s %9s %9s %9s %11s %9s %9s %9s %10s %9s %11s\n' -j wall_s games/s \
  writer_s w_index_s workers_s busiest_w merge_s rows_s spill_s busiest_s reader_s writes_s idx_s idx_chain_s other_s \
  held_up_s end_s idx_wall_s publish_s ceiling/s
for t in $threads; do
  rm -f "$work/db"*
  # shellcheck disable=SC2086 # the options are words on purpose
  "$index" -q --stats -j "$t" ${PGNBASE_SCALING_ARGS:-} -o "$work/db" "$file" >"$work/stats"
  awk -v t="$t" '
    /^cpu seconds by thread role/ { match($0, /wall [0-9.]+/); wall = substr($0, RSTART + 5, RLENGTH - 5)
                                    match($0, /, [0-9]+ game/); games = substr($0, RSTART + 2, RLENGTH - 7) }
    $1 == "writer" { writer = $2; match($0, /games indexes [0-9.]+/); indexes = substr($0, RSTART + 14, RLENGTH - 14) }
    $1 == "worker" { workers = $2; busiest = $NF }
    $1 == "merge" { merge = $2 }
    $1 == "rows" { rows = $2 }
    $1 == "spill" { spill = $2; spill_busiest = $NF }
    $1 == "reader" { reader = $2 }
    $1 == "writes" { writes = $2 }
    $1 == "indexes" { idx = $2; match($0, /longest chain [0-9.]+/); idx_chain = substr($0, RSTART + 14, RLENGTH - 14)
                      match($0, /wall [0-9.]+/); idx_wall = substr($0, RSTART + 5, RLENGTH - 5) }
    $1 == "other" { other = $2 }
    $1 == "held-up" { held = $2 }
    $1 == "end" { end_wall = $2 }
    $1 == "publish" { publish = $2 }
    $1 == "ceiling" { ceiling = $2 }
    END { printf "%4s %8.2f %9.0f %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f %11.2f %9.2f %9.2f %9.2f %10.2f %9.2f %11.0f\n",
                 t, wall, games / wall, writer, indexes, workers, busiest, merge, rows, spill, spill_busiest, reader, writes,
                 idx, idx_chain, other, held, end_wall, idx_wall, publish, ceiling }' "$work/stats"
done
