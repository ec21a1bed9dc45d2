#!/usr/bin/env bash
# Regenerates the README's gallery (docs/*.png) with `pe-viz export`, so the pictures always
# show what the current build draws. Usage: scripts/readme_pictures.sh [path/to/pe-viz]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN="${1:-$ROOT/build/pe-viz}"
OUT="$ROOT/docs"
mkdir -p "$OUT"
# A clean config dir: the user's last session must not leak into the pictures.
export HOME="$(mktemp -d)" XDG_CONFIG_HOME=""
trap 'rm -rf "$HOME"' EXIT
run() {
  if [[ -n "${DISPLAY:-}" || "${PE_VIZ_GL:-}" == "egl" ]] || ! command -v xvfb-run >/dev/null; then
    "$BIN" "$@"
  else
    xvfb-run -a -s "-screen 0 1920x1200x24" "$BIN" "$@"
  fi
}
size=960x600
run export --view clock-hands --position 3 --size $size -o "$OUT/clock-hands.png"
run export --view rope-cos --preset llama-3.1-8b --length 8192 --size $size -o "$OUT/rope-cos-llama-3.1.png"
run export --view relative-score --size $size -o "$OUT/relative-score.png"
run export --view scaling --preset llama-3.1-8b --size $size -o "$OUT/scaling-llama-3.1.png"
run export --view extrapolation --preset llama-2-7b --length 16384 --size $size -o "$OUT/extrapolation-llama-2.png"
run export --view walkthrough --walkthrough-step 3 --light --size $size -o "$OUT/walkthrough.png"
# Issue 32: two of the relative-position views, larger (four plots each).
run export --view distance-bias --training-length 512 --length 2048 --causal --size 1280x800 -o "$OUT/distance-bias.png"
run export --view t5-bias --length 256 --position 16 --heads 12 --size 1280x800 -o "$OUT/t5-bias.png"
run export --view learned --weights "$ROOT/tests/data/makemore-tr" --size 1600x1000 -o "$OUT/learned-makemore-tr.png"
ls -l "$OUT"/*.png
