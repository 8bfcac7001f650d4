#!/usr/bin/env bash
# The main job: generate the code from the schema, build, then encode a short
# trace and decode it again, plus a trace written by the reference tracer.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/setup.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo > /dev/null
cmake --build build -j2 --target tband_demo
echo
./build/examples/tband_demo tests/vectors/reference_baremetal.bin
