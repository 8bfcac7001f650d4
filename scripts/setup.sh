#!/usr/bin/env bash
# Installs the Debian packages tband needs, skipping those already present.
# Safe to run again and again; runs apt-get only when something is missing.
# --tests: also what only the tests and the web build need (scripts/test.sh
# passes it; scripts/demo.sh does not, so the demo installs no more than it uses).
set -euo pipefail

packages=(
  # build
  g++ cmake ninja-build make
  # generator
  python3 python3-jinja2 python3-yaml
  # tests and benchmarks
  libgtest-dev libgmock-dev libbenchmark-dev
  # Cortex-M cross-compiler for the target code
  gcc-arm-none-eabi libstdc++-arm-none-eabi-newlib
  # the tband CLI: protobuf (only the tests: .pftrace read back), JSON, command line, HTTP server
  protobuf-compiler libprotobuf-dev nlohmann-json3-dev libcli11-dev libcpp-httplib-dev
  # rules files of `tband check` (YAML with line and column marks)
  libyaml-dev
  # compressed traces: zstd and gzip inputs, `tband record --compress`; the zstd command checks them in tests
  libzstd-dev zlib1g-dev zstd
  # the demo firmware and its end-to-end tests run under QEMU; `column` formats the demo's table
  qemu-system-arm bsdextrautils
)
if [ "${1:-}" = "--tests" ]; then
  packages+=(
    # libFuzzer and the second host compiler
    clang libclang-rt-14-dev
    # CLI benchmark: babeltrace2 decodes the same events as CTF; GNU time for peak RSS
    babeltrace2 time
    # headless Chromium renders `tband report`'s page, the serve and web pages and the live view in the tests
    chromium
    # `tband conv --vcd`'s output is read back by sigrok-cli (libsigrok) and GTKWave's vcd2fst/fst2vcd in the CLI tests;
    # GTKWave opens its .gtkw save file under Xvfb (xvfb-run needs xauth)
    sigrok-cli gtkwave xvfb xauth
    # the web converter (WebAssembly, scripts/build_web.sh) and its tests under Node (nodejs comes with it)
    emscripten
  )
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all packages present"
  exit 0
fi

echo "setup: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q "${missing[@]}"
