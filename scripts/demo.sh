#!/usr/bin/env bash
# The main job: build tband and the demo, run the demo firmware under QEMU
# (Cortex-M4, mps2-an386) with its trace streamed over the UART, or, without
# QEMU or an ARM toolchain, the same workload in the host simulator on two
# cores; convert the trace to demo.pftrace and demo.json and summarise it.
# TBAND_DEMO=simulator runs the simulator even where QEMU is available.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/setup.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo > /dev/null
targets=(tband tband_sim)
if command -v arm-none-eabi-gcc > /dev/null; then
  targets+=(qemu_firmware)
fi
cmake --build build -j2 --target "${targets[@]}"

out=build/demo
mkdir -p "$out"
tband=./build/host/cli/tband
echo
if [ "${TBAND_DEMO:-}" != simulator ] && command -v qemu-system-arm > /dev/null &&
  [ -f build/firmware/demo_streaming.elf ]; then
  echo "== Running the demo firmware under QEMU (mps2-an386, Cortex-M4) for 500 ms of simulated time"
  echo "   (1 kHz tick and ADC interrupts, nested acquire/filter spans, value markers; trace over UART0)"
  rm -f "$out/uart.bin"
  qemu-system-arm -M mps2-an386 -display none -monitor none \
    -semihosting-config enable=on,target=native -icount shift=5,align=off,sleep=off \
    -serial "file:$out/uart.bin" -kernel build/firmware/demo_streaming.elf
  inputs=("$out/uart.bin")
  cores=1
else
  if [ "${TBAND_DEMO:-}" = simulator ]; then
    echo "== Running the same workload in the host simulator (TBAND_DEMO=simulator)"
  else
    echo "== QEMU or the ARM toolchain is missing: running the same workload in the host simulator"
  fi
  ./build/examples/tband_sim --cores 2 --ms 300 --out-dir "$out"
  inputs=("$out/core0.bin@0" "$out/core1.bin@1")
  cores=2
fi

echo
echo "== Converting: tband conv --mode bare-metal ${inputs[*]} -o demo.pftrace --json demo.json"
"$tband" conv --mode bare-metal --core-count "$cores" --no-progress "${inputs[@]}" -o demo.pftrace --json demo.json
echo
echo "== Events by type (tband dump --stats):"
for input in "${inputs[@]}"; do
  "$tband" dump --stats "$input" | sed 's/^/   /' | column -t
done
echo
echo "== Open it in the Perfetto UI:"
echo "   $tband serve demo.pftrace     (prints a link to https://ui.perfetto.dev that loads the trace)"
echo "   or drag demo.pftrace onto https://ui.perfetto.dev"
