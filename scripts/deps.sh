#!/usr/bin/env bash
# Installs pe-viz's build and test dependencies from Debian 12's packages, only when
# something is missing (fast and offline when everything is there).
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config lld
  libeigen3-dev nlohmann-json3-dev libcli11-dev
  libimgui-dev libglfw3-dev libepoxy-dev libstb-dev libgl-dev libegl-dev zlib1g-dev
  libavcodec-dev libavformat-dev libavutil-dev libswscale-dev libavfilter-dev libmd4c-dev
  # models on the Hugging Face Hub over HTTP
  libcurl4-openssl-dev
  libgtest-dev libgmock-dev libbenchmark-dev ffmpeg
  fonts-dejavu-core xvfb xauth libgl1-mesa-dri libegl-mesa0 mesa-utils
  clang libfuzzer-14-dev libclang-rt-14-dev
  # install tree and .deb: icons from the SVG, checks of the desktop entry, AppStream
  # metadata and man page, shared-library dependencies and the package itself
  librsvg2-bin desktop-file-utils appstream man-db dpkg-dev lintian
  # end-to-end keyboard test: real key events through the X server
  xdotool
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  exit 0
fi
echo "pe-viz: installing missing Debian packages: ${missing[*]}"
SUDO=""
if [[ $(id -u) -ne 0 ]]; then
  if command -v sudo >/dev/null; then SUDO="sudo"; else
    echo "pe-viz: need root (or sudo) to apt-get install: ${missing[*]}" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
