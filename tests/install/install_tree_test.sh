#!/usr/bin/env bash
# Installs a finished build into a throwaway DESTDIR with prefix /usr (as the .deb does)
# and checks the tree: every file in its usual place, the desktop entry and AppStream
# metadata valid, icons at their sizes, the manual page rendering without warnings, the
# bash completion completing, and the installed binary running from there — exporting a
# PNG with no display server at all.
#   tests/install/install_tree_test.sh BUILD_DIR SCRATCH_DIR
set -euo pipefail
BUILD_DIR="$1"
DEST="$2"
APP_ID=io.github.pe_viz.pe_viz
failures=0
fail() {
  echo "install_tree_test: FAIL: $*" >&2
  failures=$((failures + 1))
}

rm -rf "$DEST"
mkdir -p "$DEST"
DESTDIR="$DEST" cmake --install "$BUILD_DIR" --prefix /usr >"$DEST.log" 2>&1 || {
  cat "$DEST.log" >&2
  echo "install_tree_test: cmake --install failed" >&2
  exit 1
}
USR="$DEST/usr"

# Everything installed, and nothing else.
expected=(
  bin/pe-viz
  lib/pe-viz/modules/pe-viz-video.so
  share/applications/$APP_ID.desktop
  share/metainfo/$APP_ID.metainfo.xml
  share/icons/hicolor/scalable/apps/pe-viz.svg
  share/man/man1/pe-viz.1.gz
  share/bash-completion/completions/pe-viz
  share/doc/pe-viz/copyright
  share/doc/pe-viz/changelog.gz
)
# The browser build's page (share/pe-viz/web), installed when the build found one
# (PE_VIZ_WEB_SITE: scripts/web.sh's site-file); then both of its files.
if [[ -e "$USR/share/pe-viz/web/index.html" ]]; then
  expected+=(share/pe-viz/web/index.html share/pe-viz/web/pe-viz.js)
fi
sizes=(16 22 24 32 48 64 128 256 512)
for s in "${sizes[@]}"; do expected+=("share/icons/hicolor/${s}x${s}/apps/pe-viz.png"); done
for f in "${expected[@]}"; do
  [[ -f "$USR/$f" ]] || fail "missing /usr/$f"
done
actual=$(cd "$USR" && find . -type f | sed 's|^\./||' | sort)
wanted=$(printf '%s\n' "${expected[@]}" | sort)
if [[ "$actual" != "$wanted" ]]; then
  fail "unexpected files: $(comm -23 <(echo "$actual") <(echo "$wanted") | tr '\n' ' ')"
fi
[[ -x "$USR/bin/pe-viz" ]] || fail "/usr/bin/pe-viz is not executable"

# Desktop entry and AppStream metadata, as distributions check them.
desktop-file-validate "$USR/share/applications/$APP_ID.desktop" || fail "desktop-file-validate"
grep -qx "Exec=pe-viz" "$USR/share/applications/$APP_ID.desktop" || fail "desktop entry does not run pe-viz"
appstreamcli validate --no-net "$USR/share/metainfo/$APP_ID.metainfo.xml" >"$DEST/appstream.log" 2>&1 ||
  { cat "$DEST/appstream.log" >&2; fail "appstreamcli validate"; }
grep -q "<launchable type=\"desktop-id\">$APP_ID.desktop</launchable>" "$USR/share/metainfo/$APP_ID.metainfo.xml" ||
  fail "metainfo does not launch the desktop entry"

# Icons: PNG signature and IHDR width/height (bytes 16-23, big-endian) match the directory.
for s in "${sizes[@]}"; do
  png="$USR/share/icons/hicolor/${s}x${s}/apps/pe-viz.png"
  [[ -f "$png" ]] || continue
  b=($(od -An -tu1 -N24 "$png"))
  [[ "${b[1]} ${b[2]} ${b[3]}" == "80 78 71" ]] || fail "$png is not a PNG"
  w=$(((b[16] << 24) | (b[17] << 16) | (b[18] << 8) | b[19]))
  h=$(((b[20] << 24) | (b[21] << 16) | (b[22] << 8) | b[23]))
  [[ "$w" == "$s" && "$h" == "$s" ]] || fail "$png is ${w}x${h}, not ${s}x${s}"
done

# Manual page: valid gzip, renders without groff warnings, covers every subcommand.
man_page="$USR/share/man/man1/pe-viz.1.gz"
gzip -t "$man_page" || fail "man page is not valid gzip"
warnings=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 "$man_page" 2>&1 >/dev/null) || fail "man failed"
[[ -z "$warnings" ]] || fail "man page warnings: $warnings"
zcat "$man_page" | sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' >"$DEST/man.txt"  # the words, without roff escapes
for word in "pe-viz export" "pe-viz dump" "pe-viz bench" "--list-views" "--screenshot" "--background" "PE_VIZ_GL" "rope-cos" "llama-3.1-8b"; do
  grep -qF -- "$word" "$DEST/man.txt" || fail "man page does not mention '$word'"
done

# The installed binary, run from its installed path with nothing from the build tree,
# no display and a throwaway HOME.
export HOME="$DEST/home" XDG_CONFIG_HOME="$DEST/home/.config"
mkdir -p "$HOME"
run() { env -u DISPLAY -u WAYLAND_DISPLAY -u PE_VIZ_VIDEO_MODULE "$USR/bin/pe-viz" "$@"; }
[[ "$(run --list-views)" == "$("$BUILD_DIR/pe-viz" --list-views)" ]] || fail "installed --list-views differs from the build's"
run --version | grep -qx "pe-viz [0-9.]*" || fail "--version"
if ldd "$USR/bin/pe-viz" | grep -qF "$BUILD_DIR"; then fail "installed binary links into the build tree"; fi
run export --view alibi --size 320x200 -o "$DEST/alibi.png" >/dev/null || fail "installed pe-viz export without a display"
[[ -s "$DEST/alibi.png" ]] || fail "export wrote no PNG"
# Video export loads FFmpeg's module from /usr/lib/pe-viz/modules/ (nothing points it there).
run export --view clock-hands --animate position=0:4 --duration 0.2 --size 64x48 -o "$DEST/clip.mp4" >/dev/null ||
  fail "installed pe-viz cannot export a video"
[[ "$(od -An -c -j4 -N4 "$DEST/clip.mp4" 2>/dev/null | tr -d ' ')" == "ftyp" ]] || fail "installed video export wrote no MP4"

# With the browser build installed, an interactive lesson takes its page from share/pe-viz/web
# beside the binary (PE_VIZ_WEB_DIR unset: nothing else may stand in).
if [[ -e "$USR/share/pe-viz/web/index.html" ]]; then
  out=$(env -u PE_VIZ_WEB_DIR bash -c '"$0" "$@"' "$USR/bin/pe-viz" export --lesson positional-encoding-101 "$DEST/lesson" \
    --interactive) || fail "installed pe-viz export --interactive"
  grep -qF "the page from $USR/share/pe-viz/web" <<<"$out" || fail "export --interactive did not take the installed page: $out"
  cmp -s "$DEST/lesson/pe-viz.js" "$USR/share/pe-viz/web/pe-viz.js" || fail "the lesson's pe-viz.js is not the installed one"
  grep -q 'data-name="positional-encoding-101" data-encoding="base64">' "$DEST/lesson/index.html" ||
    fail "the lesson page does not carry the lesson"
fi

# Bash completion: subcommands, view names from --list-views, presets from dump --list-presets.
complete_words() {  # complete_words WORD... -> what pe-viz's completion offers for the last word
  PATH="$USR/bin:$PATH" bash -c '
    source "$0"
    COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
    _pe_viz pe-viz "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
    printf "%s\n" "${COMPREPLY[@]}"' "$USR/share/bash-completion/completions/pe-viz" "$@"
}
[[ "$(complete_words pe-viz ex)" == "export" ]] || fail "completion of 'pe-viz ex'"
[[ "$(complete_words pe-viz --view rope-c)" == "rope-cos" ]] || fail "completion of '--view rope-c'"
[[ "$(complete_words pe-viz dump --preset llama-3.1)" == "llama-3.1-8b" ]] || fail "completion of '--preset llama-3.1'"
complete_words pe-viz export --back | grep -qx -- "--background" || fail "completion of 'export --back'"
[[ "$(complete_words pe-viz dump --encoding kerple-p)" == "kerple-power" ]] || fail "completion of '--encoding kerple-p'"
complete_words pe-viz dump --num-b | grep -qx -- "--num-buckets" || fail "completion of 'dump --num-b'"

if ((failures > 0)); then
  echo "install_tree_test: $failures failure(s); tree in $DEST" >&2
  exit 1
fi
echo "install_tree_test: ${#expected[@]} files installed and checked"
