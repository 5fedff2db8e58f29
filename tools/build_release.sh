#!/usr/bin/env bash
# Builds pgn-index, pgn-query and pgn-query-serve (Release) optimised with a profile of
# their own runs (GCC's profile-guided optimisation): an instrumented build indexes the
# bundled sample (tools/sample/) and queries it, then everything is built again with the
# profile they wrote. The import runs about 5% faster for it (bench/README.md, "Checkers
# from the mover's pieces; built with a profile of its own run"); the programs behave
# the same. Where the compiler is not GCC or a step fails (the instrumented build, its
# training, the build with the profile), a plain Release build is made instead, and said
# so.
#   build_release.sh BUILD_DIR [JOBS [more cmake -D options...]]
#   PGNBASE_NO_PGO=1  the plain Release build only (one build instead of two)
set -euo pipefail

# Absolute, as the caller named it: the script then works from the repository's root, and
# the compiler writes and reads the profile from each object's own folder.
build_dir=$(mkdir -p "${1:?usage: build_release.sh BUILD_DIR [JOBS [cmake options...]]}" && cd "$1" && pwd)
jobs=${2:-$(nproc)}
shift $(($# >= 2 ? 2 : 1))
cd "$(dirname "${BASH_SOURCE[0]}")/.."
sample=tools/sample/lichess-drnykterstein-2000.pgn.zst
profile="$build_dir/pgo-profile"
training="$build_dir/pgo-training"

configure() {
  cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DPGNBASE_BUILD_TESTS=OFF -DPGNBASE_BUILD_BENCH=OFF \
    -DPGNBASE_PGO_DIR="$profile" "$@"
}

# Runs the instrumented programs as users do: imports with one and two workers (the
# second runs the merge threads), then the searches, the explorer and an export.
train() {
  local index="$build_dir/tools/pgn-index" query="$build_dir/tools/pgn-query" db="$training/sample.db"
  rm -rf "$training" && mkdir -p "$training" &&
    "$index" -q -j 1 -o "$training/one-worker.db" "$sample" &&
    "$index" -q -j 2 -o "$db" "$sample" &&
    "$query" search "$db" --fen "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3" --limit 10 &&
    "$query" search "$db" --eco C60-C99 --limit 10 &&
    "$query" search "$db" --material 'KR*PvKR*P' --for 10 --limit 5 &&
    "$query" search "$db" --pieces 'wKg1 wBg2 wPf2 wPg3 wPh2' --count &&
    "$query" explore "$db" &&
    "$query" explore "$db" --moves "1.e4 c5 2.Nf3" --min-elo 2500 --top 3 &&
    "$query" export "$db" --eco B20-B99 -o "$training/sicilian.pgn" &&
    rm -rf "$training"
}

plain_build() {
  echo "build_release: $1; building without a profile" >&2
  shift
  configure -DPGNBASE_PGO=OFF "$@" && cmake --build "$build_dir" -j "$jobs"
}

rm -rf "$profile"
if [ "${PGNBASE_NO_PGO:-0}" = 1 ]; then
  plain_build "PGNBASE_NO_PGO=1" "$@"
  exit
fi
echo "== build_release: instrumented build"
# CMake refuses PGNBASE_PGO for a compiler other than GCC.
# Only the two programs the training runs: the server's own code builds once, without.
if ! { configure -DPGNBASE_PGO=GENERATE "$@" && cmake --build "$build_dir" -j "$jobs" --target pgn-index pgn-query; }; then
  plain_build "the instrumented build failed" "$@"
  exit
fi
echo "== build_release: training on $sample"
if ! train >"$build_dir/pgo-training.log" 2>&1; then
  tail -n 20 "$build_dir/pgo-training.log" >&2
  plain_build "the training run failed (log: $build_dir/pgo-training.log)" "$@"
  exit
fi
echo "== build_release: build with the profile"
if ! { configure -DPGNBASE_PGO=USE "$@" && cmake --build "$build_dir" -j "$jobs"; }; then
  plain_build "the build with the profile failed" "$@"
fi
