#!/usr/bin/env bash
# Installs what is missing, builds (Release) and runs every test: core unit tests, CLI
# tests and GUI tests (under Xvfb when there is no display). Exits non-zero on any failure.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${PE_VIZ_BUILD_DIR:-$ROOT/build}"
"$ROOT/scripts/deps.sh"
"$ROOT/scripts/build.sh"

CTEST=(ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$(nproc)" --timeout 600)
if [[ -n "${DISPLAY:-}" ]]; then
  "${CTEST[@]}"
else
  # GUI tests need an X server; Mesa's llvmpipe gives them OpenGL 3.3+ without a GPU.
  xvfb-run -a -s "-screen 0 1920x1200x24" "${CTEST[@]}"
fi
