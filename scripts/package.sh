#!/usr/bin/env bash
# Builds the Debian package from a finished build (scripts/build.sh) and checks it:
# lintian (any error fails), the desktop entry and AppStream metadata inside it. With
# --install (CI does this when CI=true and it runs as root) it also installs the package
# with apt, runs the installed /usr/bin/pe-viz without a display, and removes it again.
#
#   scripts/package.sh [--install]    -> $PE_VIZ_BUILD_DIR/package/pe-viz_<version>_<arch>.deb
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${PE_VIZ_BUILD_DIR:-$ROOT/build}"
INSTALL=0
for arg in "$@"; do
  case "$arg" in
    --install) INSTALL=1 ;;
    -h | --help) sed -n '2,7p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "scripts/package.sh: unknown argument '$arg' (try --help)" >&2; exit 2 ;;
  esac
done

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
echo "scripts/package.sh: lintian, desktop-file-validate and appstreamcli validate passed"

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
  dpkg -r pe-viz >/dev/null
  ((status == 0)) || { echo "scripts/package.sh: the installed package does not run" >&2; exit 1; }
  echo "scripts/package.sh: installed with apt, /usr/bin/pe-viz ran without a display, removed again"
fi
