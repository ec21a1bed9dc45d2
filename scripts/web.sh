#!/usr/bin/env bash
# Builds pe-viz for the browser (WebAssembly + WebGL 2) into build-web/site/: index.html,
# pe-viz.js and pe-viz.wasm, ready for any static host. Everything comes from Debian 12's
# packages: emscripten compiles the app; Dear ImGui, md4c and zlib are compiled from the
# sources of Debian's own source packages (fetched through a private apt configuration into
# the build folder and kept there; nothing of them is in this repository).
#
#   scripts/web.sh                 install what is missing, build the site
#   scripts/web.sh --serve [PORT]  the same, then serve it on http://127.0.0.1:PORT/ (8000)
#   scripts/web.sh --test          the same, then run the browser tests (tests/web/)
#
# Environment: PE_VIZ_WEB_BUILD_DIR (default build-web/), PE_VIZ_JOBS (default: all cores).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${PE_VIZ_WEB_BUILD_DIR:-$ROOT/build-web}"
JOBS="${PE_VIZ_JOBS:-$(nproc)}"

SERVE="" TEST=0 PORT=8000
while (($#)); do
  case "$1" in
    --serve) SERVE=1; if [[ "${2:-}" =~ ^[0-9]+$ ]]; then PORT="$2"; shift; fi ;;
    --test) TEST=1 ;;
    -h | --help) sed -n '2,14p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "scripts/web.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
  shift
done

# ---- packages (only what is missing; fast and offline when everything is there)
PACKAGES=(
  emscripten node-acorn cmake ninja-build pkg-config ccache
  libeigen3-dev nlohmann-json3-dev libcli11-dev fonts-dejavu-core
  # apt-get source and the source tarballs
  dpkg-dev xz-utils bzip2 ca-certificates
  # the browser tests: a real browser, driven over the DevTools protocol
  chromium python3-websocket
)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "pe-viz web: installing missing Debian packages: ${missing[*]}"
  SUDO=""
  if [[ $(id -u) -ne 0 ]]; then
    if command -v sudo >/dev/null; then SUDO="sudo"; else
      echo "pe-viz web: need root (or sudo) to apt-get install: ${missing[*]}" >&2
      exit 1
    fi
  fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# Debian's emscripten runs its JavaScript tools with /usr/bin/node, which on some machines
# is not Debian's nodejs and does not look in Debian's module folder (acorn); and it runs
# with whatever python3 comes first on PATH, so pin Debian's.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
export EMSDK_PYTHON=/usr/bin/python3
# Compiled objects are kept in the build folder too: a rebuild after a header touched
# everywhere (or a fresh CMake tree) recompiles only what really changed.
if command -v ccache >/dev/null; then
  export EM_COMPILER_WRAPPER=ccache CCACHE_DIR="${CCACHE_DIR:-$BUILD_DIR/ccache}" CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-2G}"
fi

# ---- third-party sources from Debian's source packages, fetched once into the build folder
APT_DIR="$BUILD_DIR/apt"
SOURCES="$BUILD_DIR/sources"
mkdir -p "$SOURCES"
apt_private() {
  apt-get -o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$APT_DIR/sources.list.d" \
    -o Dir::State::Lists="$APT_DIR/lists" -o Dir::Cache="$APT_DIR/cache" -o APT::Sandbox::User=root "$@"
}
apt_lists_ready=0
# fetch_source PACKAGE UNPACKED_NAME: the newest Debian 12 version of the source package,
# its upstream tarball unpacked to $SOURCES/UNPACKED_NAME (the folder name is checked, so a
# different version than the one the build was written against stops here, named).
fetch_source() {
  local package="$1" folder="$2"
  [[ -f "$SOURCES/$folder/.pe-viz-unpacked" ]] && return 0
  if ((apt_lists_ready == 0)); then
    # The system's Debian sources as deb-src, in a private folder: the system's apt
    # configuration is not touched.
    mkdir -p "$APT_DIR/sources.list.d" "$APT_DIR/lists/partial" "$APT_DIR/cache/archives/partial"
    local src
    src=$(ls /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1 || true)
    if [[ -n "$src" ]]; then
      sed 's/^Types:.*/Types: deb-src/' "$src" >"$APT_DIR/sources.list.d/debian-src.sources"
    else
      grep -h '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' >"$APT_DIR/sources.list.d/debian-src.list"
    fi
    apt_private update -qq
    apt_lists_ready=1
  fi
  local download="$SOURCES/download-$package"
  rm -rf "$download" && mkdir -p "$download"
  # The Debian part (.debian.tar.xz) is not needed: only the upstream tarball is unpacked.
  (cd "$download" && apt_private source --download-only "$package" >/dev/null 2>&1 || true)
  local orig
  orig=$(ls "$download"/*.orig.tar.* 2>/dev/null | head -n 1 || true)
  if [[ -z "$orig" ]]; then
    echo "pe-viz web: could not fetch the sources of Debian's '$package' (apt-get source; network?)" >&2
    exit 1
  fi
  tar -xf "$orig" -C "$SOURCES"
  if [[ ! -d "$SOURCES/$folder" ]]; then
    echo "pe-viz web: Debian's $package unpacked to $(tar -tf "$orig" | head -n 1 | cut -d/ -f1), not $folder:" \
      "a version this build was not written for" >&2
    exit 1
  fi
  touch "$SOURCES/$folder/.pe-viz-unpacked"
  rm -rf "$download"
}
fetch_source imgui imgui-1.86          # the version of libimgui-dev, which the desktop build uses
fetch_source md4c md4c-release-0.4.8   # libmd4c-dev's
fetch_source zlib zlib-1.2.13.dfsg     # zlib1g-dev's

GENERATOR=()
command -v ninja >/dev/null && GENERATOR=(-G Ninja)
TOOLCHAIN="$ROOT/scripts/web/toolchain.cmake"

# ---- the libraries, installed into build-web/deps (rebuilt only when their sources change)
if [[ ! -f "$BUILD_DIR/deps-build/CMakeCache.txt" ]]; then
  cmake -S "$ROOT/scripts/web/deps" -B "$BUILD_DIR/deps-build" "${GENERATOR[@]}" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_TOOLCHAIN_FILE="$TOOLCHAIN" -DCMAKE_INSTALL_PREFIX="$BUILD_DIR/deps" \
    -DIMGUI_SOURCE_DIR="$SOURCES/imgui-1.86" -DMD4C_SOURCE_DIR="$SOURCES/md4c-release-0.4.8" \
    -DZLIB_SOURCE_DIR="$SOURCES/zlib-1.2.13.dfsg" -DPE_VIZ_PLATFORM_INCLUDE="$ROOT/app/platform/web/include" >/dev/null
fi
cmake --build "$BUILD_DIR/deps-build" -j "$JOBS"
cmake --install "$BUILD_DIR/deps-build" >/dev/null

# ---- the app, and the site around it
if [[ ! -f "$BUILD_DIR/CMakeCache.txt" ]]; then
  cmake -S "$ROOT" -B "$BUILD_DIR" "${GENERATOR[@]}" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_TOOLCHAIN_FILE="$TOOLCHAIN" -DPE_VIZ_WEB_DEPS="$BUILD_DIR/deps" \
    -DPE_VIZ_BUILD_TESTS=OFF -DPE_VIZ_BUILD_BENCH=OFF
fi
cmake --build "$BUILD_DIR" -j "$JOBS" --target pe_viz_site
echo "pe-viz web: site in $BUILD_DIR/site/ ($(du -sh "$BUILD_DIR/site" | cut -f1)); scripts/web.sh --serve to open it"

if ((TEST)); then
  /usr/bin/python3 "$ROOT/tests/web/run_web_tests.py" --site "$BUILD_DIR/site"
fi
if [[ -n "$SERVE" ]]; then
  echo "pe-viz web: http://127.0.0.1:$PORT/ (Ctrl+C stops)"
  exec python3 -m http.server --bind 127.0.0.1 --directory "$BUILD_DIR/site" "$PORT"
fi
