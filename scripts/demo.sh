#!/usr/bin/env bash
# The main job: generate the code from the schema, build, then encode a short
# trace and decode it again, plus a trace written by the reference tracer.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/setup.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo > /dev/null
cmake --build build -j2 --target tband_demo tband tband_make_trace
echo
./build/examples/tband_demo tests/vectors/reference_baremetal.bin

# The tband CLI on an example firmware trace: dump it, convert it to Perfetto
# and JSON (open the .pftrace at https://ui.perfetto.dev, or run
# `./build/host/cli/tband serve build/demo/example.pftrace`).
mkdir -p build/demo
./build/tools/tband_make_trace baremetal build/demo/example.bin
echo
echo "tband dump build/demo/example.bin (first lines):"
./build/host/cli/tband dump build/demo/example.bin | head -n 12
echo
echo "tband conv build/demo/example.bin -o build/demo/example.pftrace --json build/demo/example.json:"
./build/host/cli/tband conv build/demo/example.bin -o build/demo/example.pftrace --json build/demo/example.json
