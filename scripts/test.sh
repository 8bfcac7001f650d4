#!/usr/bin/env bash
# Runs every test: a normal build, then an ASan + UBSan build, then the
# runtime's multi-core tests under ThreadSanitizer, with warnings as errors
# (TBAND_WERROR; off by default for users' builds); then Release and
# MinSizeRel builds of the whole tree as a user makes them, with the compiled
# tests.
#   scripts/test.sh          all of them
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
  ctest --test-dir "$dir" -j2 --output-on-failure ${TBAND_CTEST_EXCLUDE:+-E "$TBAND_CTEST_EXCLUDE"}
}

run_build build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTBAND_WERROR=ON
if [ "${1:-}" != "--quick" ]; then
  run_build build-asan -DCMAKE_BUILD_TYPE=Debug -DTBAND_SANITIZE=ON -DTBAND_BUILD_BENCH=OFF -DTBAND_WERROR=ON

  # Only what the multi-core tests need: threads acting as cores, a race is a
  # failure; and the conversion on two threads (host_pipeline).
  echo "== build-tsan: the runtime's multi-core tests under ThreadSanitizer"
  tsan_tests=(runtime_stress runtime_streaming runtime_snapshot runtime_post_mortem host_pipeline)
  cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTBAND_SANITIZE_THREAD=ON \
    -DTBAND_BUILD_BENCH=OFF -DTBAND_REQUIRE_CROSS=ON -DTBAND_WERROR=ON > /dev/null
  cmake --build build-tsan -j2 --target "${tsan_tests[@]}"
  TSAN_OPTIONS="halt_on_error=1" ctest --test-dir build-tsan -j2 --output-on-failure \
    -R "^($(IFS='|'; echo "${tsan_tests[*]}"))\."

  # Every build type must build as users build it (warnings shown, not
  # errors: -O3 and -Os bring false positives of their own). Their tests: the
  # compiled ones; the generator's, packaging, fuzzing and compile-only tests
  # do not depend on the build type and ran above.
  TBAND_CTEST_EXCLUDE='^(codegen|package|fuzz)\.|compile|cortex_m4|config_error'
  run_build build-release -DCMAKE_BUILD_TYPE=Release -DTBAND_WERROR=OFF
  run_build build-minsizerel -DCMAKE_BUILD_TYPE=MinSizeRel -DTBAND_WERROR=OFF
fi
echo "== all tests passed"
