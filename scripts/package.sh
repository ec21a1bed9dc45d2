#!/usr/bin/env bash
# Builds the Debian package from a finished build (scripts/build.sh) and checks it:
# lintian (any error fails), the desktop entry and AppStream metadata inside it, and the
# browser build inside it (share/pe-viz/web/: what `export --interactive` copies; taken from
# scripts/web.sh's build, which is made first when it is missing or of another version). With
# --install (CI does this when CI=true and it runs as root) it also installs the package with
# apt, runs the installed /usr/bin/pe-viz without a display — a PNG, a video, and an
# interactive lesson opened in headless Chromium from disk — and removes it again.
#
#   scripts/package.sh [--install]    -> $PE_VIZ_BUILD_DIR/package/pe-viz_<version>_<arch>.deb
# Environment: PE_VIZ_BUILD_DIR (default build/), PE_VIZ_WEB_BUILD_DIR (default build-web/).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${PE_VIZ_BUILD_DIR:-$ROOT/build}"
WEB_DIR="${PE_VIZ_WEB_BUILD_DIR:-$ROOT/build-web}"
INSTALL=0
for arg in "$@"; do
  case "$arg" in
    --install) INSTALL=1 ;;
    -h | --help) sed -n '2,12p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "scripts/package.sh: unknown argument '$arg' (try --help)" >&2; exit 2 ;;
  esac
done

# The browser build the package carries: the page for disk (site-file: index.html and pe-viz.js
# with the program inside), of this very version (both builds write state/version.hpp).
version_of() { sed -n 's/^#define PE_VIZ_VERSION "\(.*\)"$/\1/p' "$1/generated/state/version.hpp" 2>/dev/null || true; }
desktop_version=$(version_of "$BUILD_DIR")
[[ -n "$desktop_version" ]] || { echo "scripts/package.sh: no finished build in $BUILD_DIR (scripts/build.sh first)" >&2; exit 1; }
if [[ ! -f "$WEB_DIR/site-file/index.html" || ! -f "$WEB_DIR/site-file/pe-viz.js" || "$(version_of "$WEB_DIR")" != "$desktop_version" ]]; then
  echo "scripts/package.sh: the browser build ($WEB_DIR) is missing or not $desktop_version: building it (scripts/web.sh)"
  PE_VIZ_WEB_BUILD_DIR="$WEB_DIR" "$ROOT/scripts/web.sh"
fi
# Where the install rules take it from (assets/CMakeLists.txt); the files configuring writes
# (the changelog of an unreleased version carries the time) brought up to date.
{ cmake -S "$ROOT" -B "$BUILD_DIR" -DPE_VIZ_WEB_SITE="$WEB_DIR/site-file" &&
  cmake --build "$BUILD_DIR" --target pe-viz pe_viz_install_files; } >"$BUILD_DIR/package-configure.log" 2>&1 ||
  { cat "$BUILD_DIR/package-configure.log" >&2; exit 1; }

OUT="$BUILD_DIR/package"
rm -rf "$OUT"
cpack --config "$BUILD_DIR/CPackConfig.cmake" -B "$OUT" >"$OUT.log" 2>&1 || { cat "$OUT.log" >&2; exit 1; }
rm -rf "$OUT/_CPack_Packages"
deb=$(ls "$OUT"/pe-viz_*.deb)
echo "scripts/package.sh: built $deb ($(du -k "$deb" | cut -f1) KiB)"

# lintian: errors fail; warnings and notes are printed. (It warns when run as root.)
lintian_status=0
lintian_out=$(lintian --fail-on error --display-info "$deb" 2>&1) || lintian_status=$?
grep -v "running with root privileges" <<<"$lintian_out" || true
((lintian_status == 0)) || { echo "scripts/package.sh: lintian reports errors" >&2; exit 1; }

tree="$OUT/contents"
dpkg-deb -x "$deb" "$tree"
desktop-file-validate "$tree"/usr/share/applications/*.desktop
appstreamcli validate --no-net "$tree"/usr/share/metainfo/*.metainfo.xml >/dev/null
for f in index.html pe-viz.js; do
  cmp -s "$tree/usr/share/pe-viz/web/$f" "$WEB_DIR/site-file/$f" ||
    { echo "scripts/package.sh: the package lacks the browser build's $f (usr/share/pe-viz/web/)" >&2; exit 1; }
done
echo "scripts/package.sh: lintian, desktop-file-validate and appstreamcli validate passed; the browser build is inside"

if ((INSTALL)); then
  if [[ $(id -u) -ne 0 ]]; then
    echo "scripts/package.sh: --install needs root" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq --reinstall "$deb" >"$OUT/apt.log" 2>&1 || { cat "$OUT/apt.log" >&2; exit 1; }
  status=0
  views=$(env -u DISPLAY -u WAYLAND_DISPLAY HOME="$OUT/home" /usr/bin/pe-viz --list-views) || status=$?
  [[ "$views" == "$("$BUILD_DIR/pe-viz" --list-views)" ]] || { echo "installed pe-viz --list-views differs" >&2; status=1; }
  env -u DISPLAY -u WAYLAND_DISPLAY HOME="$OUT/home" /usr/bin/pe-viz export --view clock-hands --size 640x400 \
    -o "$OUT/installed.png" || status=$?
  env -u DISPLAY -u WAYLAND_DISPLAY HOME="$OUT/home" /usr/bin/pe-viz export --view clock-hands --animate position=0:4 \
    --duration 0.2 --size 64x48 -o "$OUT/installed.mp4" || status=$?
  # An interactive lesson from the installed package alone: its page comes from
  # /usr/share/pe-viz/web (nothing else may stand in: PE_VIZ_WEB_DIR unset), the lesson inside.
  lesson_dir="$OUT/lesson"
  lesson_log=$(env -u DISPLAY -u WAYLAND_DISPLAY -u PE_VIZ_WEB_DIR HOME="$OUT/home" /usr/bin/pe-viz export \
    --lesson positional-encoding-101 "$lesson_dir" --interactive) || status=$?
  grep -q "page from /usr/share/pe-viz/web" <<<"$lesson_log" ||
    { echo "installed export --interactive did not take the packaged page: $lesson_log" >&2; status=1; }
  cmp -s "$lesson_dir/pe-viz.js" /usr/share/pe-viz/web/pe-viz.js || { echo "the lesson's pe-viz.js is not the packaged one" >&2; status=1; }
  grep -o 'data-encoding="base64">[^<]*' "$lesson_dir/index.html" | cut -d'>' -f2 | base64 -d >"$OUT/lesson.md" 2>/dev/null || true
  cmp -s "$OUT/lesson.md" "$ROOT/assets/lessons/positional-encoding-101.md" ||
    { echo "the lesson page does not carry positional-encoding-101" >&2; status=1; }
  # And it opens: headless Chromium loads it from disk and turns to slide 2 (tests/web).
  if command -v chromium >/dev/null && /usr/bin/python3 -c "import websocket" 2>/dev/null && [[ -f "$WEB_DIR/site/index.html" ]]; then
    /usr/bin/python3 "$ROOT/tests/web/run_web_tests.py" --site "$WEB_DIR/site" --pe-viz /usr/bin/pe-viz \
      --only interactive-export || status=$?
  else
    echo "scripts/package.sh: no Chromium (or python3-websocket): the installed lesson page was checked as files only"
  fi
  dpkg -r pe-viz >/dev/null
  ((status == 0)) || { echo "scripts/package.sh: the installed package does not run" >&2; exit 1; }
  echo "scripts/package.sh: installed with apt, /usr/bin/pe-viz ran without a display and wrote an interactive lesson" \
    "that opens, removed again"
fi
