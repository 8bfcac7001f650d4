#!/usr/bin/env bash
# Runs every test: a normal build, then an ASan + UBSan build.
#   scripts/test.sh          both builds
#   scripts/test.sh --quick  the normal build only
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/setup.sh

run_build() {
  local dir=$1
  shift
  echo "== $dir: configure, build, test"
  cmake -S . -B "$dir" -G Ninja -DTBAND_REQUIRE_CROSS=ON "$@" > /dev/null
  cmake --build "$dir" -j2
  ctest --test-dir "$dir" -j2 --output-on-failure
}

run_build build -DCMAKE_BUILD_TYPE=RelWithDebInfo
if [ "${1:-}" != "--quick" ]; then
  run_build build-asan -DCMAKE_BUILD_TYPE=Debug -DTBAND_SANITIZE=ON -DTBAND_BUILD_BENCH=OFF
fi
echo "== all tests passed"
