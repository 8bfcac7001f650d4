#!/usr/bin/env bash
# Makes docs/waveform.svg, the README's waveform picture: the QEMU demo
# firmware's trace (as scripts/demo.sh runs it; -icount makes it the same on
# every run) converted with `tband conv --vcd`, 110 us of its signals drawn by
# scripts/waveform_svg.py. Needs QEMU and the ARM toolchain (scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo > /dev/null
cmake --build build -j2 --target tband qemu_firmware
out=build/waveform
mkdir -p "$out"
rm -f "$out/uart.bin"
qemu-system-arm -M mps2-an386 -display none -monitor none \
  -semihosting-config enable=on,target=native -icount shift=5,align=off,sleep=off \
  -serial "file:$out/uart.bin" -kernel build/firmware/demo_streaming.elf
./build/host/cli/tband -q conv --mode bare-metal "$out/uart.bin" --vcd "$out/demo.vcd"
python3 scripts/waveform_svg.py "$out/demo.vcd" docs/waveform.svg --from 4135000 --to 4245000 \
  --title "tband conv --vcd: the QEMU demo firmware (Cortex-M4, mps2-an386), 110 us of its trace" \
  Core_0.isr.active Core_0.isr.tick_1kHz Core_0.isr.adc_ready acquire acquire_name filter filter_name \
  fifo_level sequence filtered
echo "docs/waveform.svg written (open $out/demo.vcd.gtkw in GTKWave for the whole trace)"
