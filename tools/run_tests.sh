#!/usr/bin/env bash
# Installs the dependencies, builds everything with AddressSanitizer and UBSan (Debug),
# and runs the whole test suite with CTest. Exits non-zero when anything fails.
#   PGNBASE_TEST_BUILD_DIR  build folder (default build-test)
#   PGNBASE_JOBS            parallel jobs (default: all cores)
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

echo "== Configuring $build_dir (Debug, ASan + UBSan)"
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Debug -DPGNBASE_BUILD_TESTS=ON -DPGNBASE_SANITIZE=ON \
  || fail "cmake configure"

echo "== Building with $jobs jobs"
cmake --build "$build_dir" -j "$jobs" || fail "build"

echo "== Running tests"
log="$build_dir/ctest.log"
if ctest --test-dir "$build_dir" --output-on-failure --no-tests=error -j "$jobs" 2>&1 | tee "$log"; then
  summary=$(grep -E 'tests passed' "$log" | tail -n 1)
  echo "run_tests: OK: ${summary:-all tests passed} ($((SECONDS - started)) s)"
else
  summary=$(grep -E 'tests passed' "$log" | tail -n 1)
  fail "${summary:-ctest failed}; see $log"
fi
