#!/usr/bin/env bash
# Builds the web converter: tband.js + tband.wasm and the page in build-web/web/
# (web/README.md). Needs Debian's emscripten (scripts/setup.sh --tests).
# Usage: scripts/build_web.sh [build dir, default build-web]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-web}
# Exit 77 (a skip for CTest) when emscripten is missing.
command -v emcmake >/dev/null || { echo "build_web: emcmake not found: apt-get install -y emscripten (scripts/setup.sh --tests)" >&2; exit 77; }
# Debian's emscripten runs its JavaScript optimiser with Debian's node modules (acorn).
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
if [ ! -f "$build/CMakeCache.txt" ]; then
  emcmake cmake -S "$root" -B "$build" -G Ninja -DTBAND_WASM=ON -DCMAKE_BUILD_TYPE=Release -DTBAND_WERROR=ON \
    "${launcher[@]}" >/dev/null
fi
nice cmake --build "$build" -j"${TBAND_JOBS:-2}" --target tband_web
echo "build_web: $build/web/ (open index.html through a web server, e.g. python3 -m http.server -d $build/web)"
