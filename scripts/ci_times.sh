#!/usr/bin/env bash
# After scripts/test.sh: the slowest tests and build steps of each build tree
# it left (build-asan, build-tsan, build-release), from
# CTest's cost data and Ninja's log, and the number of tests each ran.
#   scripts/ci_times.sh [COUNT]     COUNT rows each (default 30)
# No pipefail: `sort | head` ends sort early with SIGPIPE, which is no error here.
set -eu
cd "$(dirname "$0")/.."
count=${1:-30}

for dir in build-asan build-tsan build-release; do
  [ -d "$dir" ] || continue
  echo "== $dir"
  costs=$dir/Testing/Temporary/CTestCostData.txt
  if [ -f "$costs" ]; then
    # "<name> <runs> <average seconds>" per test, then "---" and the failed ones.
    tests=$(awk '/^---/ {exit} NF == 3 {n++} END {print n + 0}' "$costs")
    test_seconds=$(awk '/^---/ {exit} NF == 3 {s += $3} END {printf "%.0f", s}' "$costs")
    echo "   $tests tests, $test_seconds s of test time in all (run two at a time)"
    echo "   slowest tests (s):"
    awk '/^---/ {exit} NF == 3 {printf "%10.1f  %s\n", $3, $1}' "$costs" | sort -rn | head -n "$count"
  fi
  if [ -f "$dir/.ninja_log" ]; then
    # Ninja's log: start and end (ms), mtime, output, hash; the last entry of each output counts.
    steps=$(awk 'NR > 1 {t[$4] = $2 - $1} END {print length(t)}' "$dir/.ninja_log")
    step_seconds=$(awk 'NR > 1 {t[$4] = $2 - $1} END {for (o in t) s += t[o]; printf "%.0f", s / 1000}' "$dir/.ninja_log")
    echo "   $steps build steps, $step_seconds s of compiler time in all (run two at a time)"
    echo "   slowest build steps (s):"
    awk 'NR > 1 {t[$4] = $2 - $1} END {for (o in t) printf "%10.1f  %s\n", t[o] / 1000, o}' "$dir/.ninja_log" |
      sort -rn | head -n "$count"
  fi
done
