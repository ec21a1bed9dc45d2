#!/usr/bin/env bash
# Installs what is missing, builds and launches the pe-viz GUI (arguments are passed on).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${PE_VIZ_BUILD_DIR:-$ROOT/build}"
"$ROOT/scripts/deps.sh"
"$ROOT/scripts/build.sh"
if [[ -z "${DISPLAY:-}" && -z "${WAYLAND_DISPLAY:-}" && $# -eq 0 ]]; then
  cat >&2 <<MSG
pe-viz: no display here, so the GUI cannot open a window. Without one, these work:
  $BUILD_DIR/pe-viz --screenshot out.png --view rope-cos
  $BUILD_DIR/pe-viz export --all slides/ --size 1920x1080
  $BUILD_DIR/pe-viz dump --preset llama-3.1-8b
  $BUILD_DIR/pe-viz bench
MSG
  exit 1
fi
exec "$BUILD_DIR/pe-viz" "$@"
