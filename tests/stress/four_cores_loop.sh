#!/usr/bin/env bash
# Runs the four-core simulator test (e2e.test_simulator, test_four_cores) N
# times in a row and counts failures: the check that its result does not
# depend on how the machine schedules the simulator's threads.
#   tests/stress/four_cores_loop.sh [--build DIR] [--runs N] [--load-jobs K]
#     --build DIR      build with tband and tband_sim (default: build-asan)
#     --runs N         how many runs (default: 20)
#     --load-jobs K    also keep K busy-looping processes running meanwhile
#                      (default: 0; a machine busy with builds needs none)
# Prints the load average before and after; exits 1 if any run failed.
set -euo pipefail
cd "$(dirname "$0")/../.."

build=build-asan
runs=20
load_jobs=0
while [ $# -gt 0 ]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --load-jobs) load_jobs=$2; shift 2 ;;
    *) sed -n '2,10p' "$0" >&2; exit 2 ;;
  esac
done

export TBAND_CLI=$build/host/cli/tband TBAND_SIM=$build/examples/tband_sim PYTHONDONTWRITEBYTECODE=1
for tool in "$TBAND_CLI" "$TBAND_SIM"; do
  if [ ! -x "$tool" ]; then
    echo "four_cores_loop: $tool is missing: cmake --build $build --target tband tband_sim" >&2
    exit 2
  fi
done

load_pids=()
stop_load() {
  for pid in "${load_pids[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
}
trap stop_load EXIT
for ((i = 0; i < load_jobs; ++i)); do
  (while :; do :; done) &
  load_pids+=($!)
done

echo "four_cores_loop: $runs runs with $build, $load_jobs load jobs; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
failed=0
for ((run = 1; run <= runs; ++run)); do
  log=$(mktemp)
  if python3 -m unittest tests.e2e.test_simulator.SimulatorTest.test_four_cores >"$log" 2>&1; then
    echo "run $run: ok (load $(cut -d' ' -f1 /proc/loadavg))"
  else
    failed=$((failed + 1))
    echo "run $run: FAILED (load $(cut -d' ' -f1 /proc/loadavg))"
    sed 's/^/    /' "$log"
  fi
  rm -f "$log"
done
echo "four_cores_loop: $((runs - failed)) of $runs passed; load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
[ "$failed" -eq 0 ]
