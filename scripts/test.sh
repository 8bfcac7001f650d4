#!/usr/bin/env bash
# Runs every test: a normal build, then an ASan + UBSan build, then the
# runtime's multi-core tests under ThreadSanitizer.
#   scripts/test.sh          all three
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

  # Only what the multi-core tests need: threads acting as cores, a race is a failure.
  echo "== build-tsan: the runtime's multi-core tests under ThreadSanitizer"
  tsan_tests=(runtime_stress runtime_streaming runtime_snapshot runtime_post_mortem)
  cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTBAND_SANITIZE_THREAD=ON \
    -DTBAND_BUILD_BENCH=OFF -DTBAND_REQUIRE_CROSS=ON > /dev/null
  cmake --build build-tsan -j2 --target "${tsan_tests[@]}"
  TSAN_OPTIONS="halt_on_error=1" ctest --test-dir build-tsan -j2 --output-on-failure \
    -R "^($(IFS='|'; echo "${tsan_tests[*]}"))\."
fi
echo "== all tests passed"
