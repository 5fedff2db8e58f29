#!/usr/bin/env bash
# Installs the dependencies, builds everything with AddressSanitizer and UBSan (Debug),
# and runs the whole test suite with CTest; then builds the import pipeline's tests with
# ThreadSanitizer and runs the multithreaded ones. Exits non-zero when anything fails.
#   PGNBASE_TEST_BUILD_DIR  build folder (default build-test; the TSan one gets -tsan)
#   PGNBASE_JOBS            parallel jobs (default: all cores)
#   PGNBASE_SKIP_TSAN=1     leave out the ThreadSanitizer stage
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

build_dir=${PGNBASE_TEST_BUILD_DIR:-build-test}
jobs=${PGNBASE_JOBS:-$(nproc)}
started=$SECONDS

fail() {
  echo "run_tests: FAILED: $1 ($((SECONDS - started)) s)" >&2
  exit 1
}

echo "== Installing dependencies"
bash tools/install_deps.sh || fail "dependencies could not be installed"

# The dataset tests read the exported Parquet files with two independent readers
# (DuckDB and hyparquet, tests/dataset/package.json): node and npm from Debian when the
# machine has none; if even that fails, they skip that part and say so.
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "== Installing node and npm (Debian packages) for the dataset tests' Parquet readers"
  apt-get install -y --no-install-recommends nodejs npm >/dev/null || echo "run_tests: could not install node and npm" >&2
fi
if command -v node >/dev/null && command -v npm >/dev/null; then
  echo "== Installing the dataset tests' Parquet readers (npm install in tests/dataset, versions from its lock file)"
  npm install --prefix tests/dataset --no-save --no-audit --no-fund --loglevel=error || fail "npm install in tests/dataset"
  echo "== Installing the browser tests' driver (puppeteer-core in tests/web, from its lock file) and Debian's chromium"
  npm install --prefix tests/web --no-save --no-audit --no-fund --loglevel=error || fail "npm install in tests/web"
  if ! command -v chromium >/dev/null; then
    apt-get install -y --no-install-recommends chromium fonts-dejavu-core >/dev/null \
      || echo "run_tests: could not install chromium: the browser tests skip" >&2
  fi
else
  echo "== node/npm not found: the dataset tests skip their DuckDB and hyparquet checks, the browser tests skip"
fi

echo "== Configuring $build_dir (Debug, ASan + UBSan)"
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Debug -DPGNBASE_BUILD_TESTS=ON -DPGNBASE_SANITIZE=ON \
  || fail "cmake configure"

echo "== Building with $jobs jobs"
cmake --build "$build_dir" -j "$jobs" || fail "build"

echo "== Running tests"
log="$build_dir/ctest.log"
if ! ctest --test-dir "$build_dir" --output-on-failure --no-tests=error -j "$jobs" 2>&1 | tee "$log"; then
  summary=$(grep -E 'tests passed' "$log" | tail -n 1)
  fail "${summary:-ctest failed}; see $log"
fi
summary=$(grep -E 'tests passed' "$log" | tail -n 1)
summary=${summary:-all tests passed}

if [[ ${PGNBASE_SKIP_TSAN:-0} != 1 ]]; then
  tsan_dir="$build_dir-tsan"
  echo "== ThreadSanitizer: the import pipeline's multithreaded tests ($tsan_dir)"
  cmake -S . -B "$tsan_dir" -DCMAKE_BUILD_TYPE=Debug -DPGNBASE_BUILD_TESTS=ON -DPGNBASE_BUILD_BENCH=OFF \
    -DPGNBASE_TSAN=ON >/dev/null || fail "cmake configure (TSan)"
  cmake --build "$tsan_dir" -j "$jobs" --target indexer_tests || fail "build (TSan)"
  TSAN_OPTIONS=halt_on_error=1 "$tsan_dir/tests/indexer_tests" --gtest_brief=1 \
    --gtest_filter='ImportTest.*:IndexBulkBuild.Builds*:IndexBulkBuild.AnIndex*:WriteBehindVfs.*:WritebackAheadTest.*:FreshBuildTest.*:BoundedQueueTest.*:ThreadGroupTest.First*:TaskThreads.*:ImportFailureTest.Worker*:PositionIndexTest.Spill*:PositionIndexTest.SortedRuns*:PositionIndexTest.AMergeStarted*:PositionIndexTest.RunsWithAGameIdOffset*:PositionIndexTest.TheMerge*:PositionIndexTest.DecodingAhead*:BlockSpool.*:RunFileTest.Merged*:RunFileTest.ASpill*' || fail "ThreadSanitizer tests"
  summary="$summary; TSan pipeline tests passed"
fi
echo "run_tests: OK: $summary ($((SECONDS - started)) s)"
