#!/usr/bin/env bash
# Runs every test, in three builds with warnings as errors where noted
# (TBAND_WERROR; off by default for users' builds). Each build takes the
# tests that mean something there (TBAND_TEST_SCOPE, top-level CMakeLists.txt):
#   asan     Debug, ASan + UBSan, -Werror: every test (QEMU firmware, generator,
#            package, compile-only checks and benchmark harnesses included).
#            One build serves both: a separate unsanitized build of all of it
#            cost CI a full compile of the host for no test of its own.
#   tsan     ThreadSanitizer, -Werror: the runtime's multi-core tests and the
#            two-thread conversion
#   release  Release as users build it (warnings shown, not errors: -O3 brings
#            false positives of its own): the tests whose outcome can differ by
#            build type (runtime, generated encoder/decoder, CLI), with the
#            size-optimised (-Os) hook path unsanitized too
# Each phase's time is printed as it ends and in a table at the end;
# scripts/ci_times.sh lists the slowest tests and build steps afterwards.
#
#   scripts/test.sh                      all phases
#   scripts/test.sh --quick              the asan build only (every test)
#   scripts/test.sh --phase tsan [...]   the phases named (asan tsan release)
set -euo pipefail
cd "$(dirname "$0")/.."

all_phases=(asan tsan release)
phases=("${all_phases[@]}")
if [ "${1:-}" = "--quick" ]; then
  phases=(asan)
elif [ "${1:-}" = "--phase" ]; then
  shift
  phases=("$@")
  for p in "${phases[@]}"; do
    [[ " ${all_phases[*]} " == *" $p "* ]] || { echo "test.sh: unknown phase '$p' (${all_phases[*]})" >&2; exit 2; }
  done
elif [ $# -ne 0 ]; then
  echo "usage: scripts/test.sh [--quick | --phase PHASE...]" >&2
  exit 2
fi

./scripts/setup.sh --tests

# ccache makes a second run cheap; a fresh machine has none and gains nothing.
launcher=()
if command -v ccache > /dev/null && [ "${TBAND_CCACHE:-1}" != 0 ]; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi

configure() {
  local dir=$1
  shift
  cmake -S . -B "$dir" -G Ninja -DTBAND_REQUIRE_CROSS=ON "${launcher[@]}" "$@" > /dev/null
}

build_and_test() {
  local dir=$1
  shift
  configure "$dir" "$@"
  cmake --build "$dir" -j2
  if ! ctest --test-dir "$dir" -j2 --output-on-failure; then
    # CI keeps the end of the log: the failures' output again, last, from a
    # second run of those tests alone (which also tells a failure from a
    # clash with what ran beside it). The phase fails either way.
    echo "== $dir: the failed tests again, one at a time"
    ctest --test-dir "$dir" --rerun-failed --output-on-failure 2>&1 | tail -n 120 || true
    return 1
  fi
}

run_phase() {
  case $1 in
    asan)
      build_and_test build-asan -DCMAKE_BUILD_TYPE=Debug -DTBAND_SANITIZE=ON -DTBAND_WERROR=ON \
        -DTBAND_TEST_SCOPE=all ;;
    tsan)
      # Threads acting as cores, a race is a failure; and the conversion on
      # two threads (host_pipeline).
      local tsan_tests=(runtime_stress runtime_streaming runtime_snapshot runtime_post_mortem host_pipeline)
      configure build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTBAND_SANITIZE_THREAD=ON -DTBAND_BUILD_BENCH=OFF \
        -DTBAND_WERROR=ON -DTBAND_TEST_SCOPE=sanitizer
      cmake --build build-tsan -j2 --target "${tsan_tests[@]}"
      TSAN_OPTIONS="halt_on_error=1" ctest --test-dir build-tsan -j2 --output-on-failure \
        -R "^($(IFS='|'; echo "${tsan_tests[*]}"))\." ;;
    release)
      build_and_test build-release -DCMAKE_BUILD_TYPE=Release -DTBAND_WERROR=OFF -DTBAND_BUILD_BENCH=OFF \
        -DTBAND_TEST_SCOPE=build-type ;;
  esac
}

# What the machine had left when a phase ended or failed: a test that builds a
# project of its own (the package and stale-copy tests) fails on a full disk
# or an out-of-memory kill with little else to say.
resources() {
  echo "== resources ($1)"
  {
    df -h . "${TMPDIR:-/tmp}"
    free -m
    du -sh build-*
  } 2> /dev/null | sed 's/^/   /' || true
}
trap 'status=$?; [ $status -eq 0 ] || resources "exit $status"' EXIT
resources "before the first phase"

timings=()
total_start=$SECONDS
for phase in "${phases[@]}"; do
  echo "== $phase: configure, build, test"
  start=$SECONDS
  run_phase "$phase"
  took=$((SECONDS - start))
  timings+=("$phase $took")
  printf '== %s: %d min %02d s\n' "$phase" $((took / 60)) $((took % 60))
  resources "after $phase"
done

echo "== phase times"
for t in "${timings[@]}"; do
  read -r phase took <<< "$t"
  printf '   %-11s %3d min %02d s\n' "$phase" $((took / 60)) $((took % 60))
done
total=$((SECONDS - total_start))
printf '   %-11s %3d min %02d s\n' total $((total / 60)) $((total % 60))
echo "== all tests passed"
