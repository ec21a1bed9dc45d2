#!/usr/bin/env bash
# Configures (Release) and builds pe-viz into build/ with all cores.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${PE_VIZ_BUILD_DIR:-$ROOT/build}"
GENERATOR=()
command -v ninja >/dev/null && GENERATOR=(-G Ninja)
if [[ ! -f "$BUILD_DIR/CMakeCache.txt" ]]; then
  cmake -S "$ROOT" -B "$BUILD_DIR" "${GENERATOR[@]}" -DCMAKE_BUILD_TYPE=Release
fi
cmake --build "$BUILD_DIR" -j "$(nproc)"
