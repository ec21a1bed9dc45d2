#!/usr/bin/env bash
# End to end, as a user types: real X key events (xdotool's XTEST) into the running GUI.
# Each key is a quick tap (press and release back to back), the case Dear ImGui 1.86 used
# to miss, and the GUI sleeps between events. F2 hides the panel, T switches to the light
# theme, Ctrl+Q quits; the session saved on exit must show all three took effect.
# Needs a display (label gui-window; scripts/test.sh runs it under Xvfb) and xdotool.
set -euo pipefail
PE_VIZ="$1"
command -v xdotool >/dev/null || { echo "xdotool not installed (scripts/deps.sh installs it)"; exit 1; }
[[ -n "${DISPLAY:-}" ]] || { echo "no DISPLAY"; exit 1; }
home="$(mktemp -d)"
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$home"' EXIT
HOME="$home" XDG_CONFIG_HOME="$home/.config" "$PE_VIZ" --view rope-cos --width 900 --height 600 &
pid=$!
wid="$(timeout 30 xdotool search --sync --onlyvisible --name 'pe-viz')"
wid="${wid%%$'\n'*}"
# No window manager under Xvfb: give the window the keyboard focus ourselves.
xdotool windowfocus --sync "$wid"
xdotool mousemove --window "$wid" 450 300
sleep 1  # the GUI draws its settle frames and goes to sleep waiting for input
xdotool key F2
sleep 0.3
xdotool key t
sleep 0.3
xdotool key ctrl+q
for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$pid" 2>/dev/null; then echo "FAIL: Ctrl+Q did not quit within 10 s"; exit 1; fi
wait "$pid"
session="$home/.config/pe-viz/last-session.json"
[[ -f "$session" ]] || { echo "FAIL: no session saved at $session"; exit 1; }
grep -q '"show_panel": *false' "$session" || { echo "FAIL: F2 tap missed (show_panel not false)"; cat "$session"; exit 1; }
grep -q '"dark_theme": *false' "$session" || { echo "FAIL: T tap missed (dark_theme not false)"; exit 1; }
echo "ok: F2, T and Ctrl+Q taps all seen"
