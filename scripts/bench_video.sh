#!/usr/bin/env bash
# Video export benchmark (not a test): the 4 s, 30 fps, 1920×1080 MP4 of clock-hands with
# the position animated, as `pe-viz export` makes it. Prints the wall time of each run and
# pe-viz's own split into render and encode milliseconds per frame. Target: <= 10 s wall
# on a 2-core machine, rendering included.
#
#   scripts/bench_video.sh [RUNS]   RUNS runs (default 3) of each format: mp4, then webm,
#                                   and a 720p GIF; build/ must hold a built pe-viz
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${PE_VIZ_BUILD_DIR:-$ROOT/build}"
RUNS="${1:-3}"
case "$RUNS" in
  -h | --help) sed -n '2,8p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
  '' | *[!0-9]*) echo "scripts/bench_video.sh: RUNS must be a whole number, got '$RUNS'" >&2; exit 2 ;;
esac
[[ -x "$BUILD_DIR/pe-viz" ]] || { echo "scripts/bench_video.sh: $BUILD_DIR/pe-viz not built (scripts/build.sh)" >&2; exit 1; }

OUT="$(mktemp -d "${TMPDIR:-/tmp}/pe-viz-bench-video.XXXXXX")"
trap 'rm -rf "$OUT"' EXIT
# A private HOME: the benchmark never touches the user's ~/.config/pe-viz.
export HOME="$OUT/home" XDG_CONFIG_HOME="$OUT/home/.config"
mkdir -p "$HOME"
display=()
[[ -n "${DISPLAY:-}" ]] || display=(xvfb-run -a -s "-screen 0 1920x1200x24")

run() {  # name, pe-viz export arguments...
  local name="$1"
  shift
  for ((k = 1; k <= RUNS; ++k)); do
    local start end line
    start=$(date +%s%N)
    line=$("${display[@]}" "$BUILD_DIR/pe-viz" export "$@")
    end=$(date +%s%N)
    printf '%-22s run %d: %6.2f s wall  | %s\n' "$name" "$k" "$(awk "BEGIN { print ($end - $start) / 1e9 }")" "${line#wrote }"
  done
}

echo "pe-viz video export benchmark on $(nproc) cores ($RUNS runs each; wall includes start-up and the hidden window)"
run "mp4 1080p 4 s 30 fps" --view clock-hands --animate position=0:64 --duration 4 --fps 30 --size 1920x1080 -o "$OUT/clock.mp4"
run "webm 1080p 4 s 30 fps" --view clock-hands --animate position=0:64 --duration 4 --fps 30 --size 1920x1080 -o "$OUT/clock.webm"
run "gif 720p 4 s (15 fps)" --view rope-cos --animate theta=100:1e6 --duration 4 --size 1280x720 -o "$OUT/theta.gif"
ls -l "$OUT"/clock.mp4 "$OUT"/clock.webm "$OUT"/theta.gif | awk '{printf "%-40s %8.2f MB\n", $NF, $5 / 1048576}'
