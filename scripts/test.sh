#!/usr/bin/env bash
# Installs what is missing, builds (Release) and runs every test: core unit tests, CLI
# tests, GUI tests and the install-tree check. Offscreen rendering needs no display (EGL),
# so everything runs with DISPLAY unset except the gui-window tests, which need a real
# window (under Xvfb when there is no display). Exits non-zero on any failure.
#
#   scripts/test.sh              the full suite in $PE_VIZ_BUILD_DIR (default build/)
#   scripts/test.sh --sanitize   only the sanitizer pass: a clang ASan + UBSan build in
#                                $PE_VIZ_ASAN_BUILD_DIR (default build-asan/) running the
#                                unit tests and the headless command-line tests (not the
#                                source checks, label source, which run no code); any
#                                sanitizer report fails it
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${PE_VIZ_BUILD_DIR:-$ROOT/build}"

SANITIZE=0
for arg in "$@"; do
  case "$arg" in
    --sanitize) SANITIZE=1 ;;
    -h | --help) sed -n '2,12p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "scripts/test.sh: unknown argument '$arg' (try --help)" >&2; exit 2 ;;
  esac
done

"$ROOT/scripts/deps.sh"

# Only tests that need a real window (label gui-window) get an X server; Mesa's llvmpipe
# gives them OpenGL 3.3+ without a GPU.
run_with_display() {
  if [[ -n "${DISPLAY:-}" ]]; then
    "$@"
  else
    xvfb-run -a -s "-screen 0 1920x1200x24" "$@"
  fi
}
# Everything else runs where no display server can be reached, as on a build machine.
run_without_display() { env -u DISPLAY -u WAYLAND_DISPLAY "$@"; }

if ((SANITIZE == 0)); then
  "$ROOT/scripts/build.sh"
  status=0
  run_without_display ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$(nproc)" --timeout 600 -LE gui-window || status=$?
  run_with_display ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$(nproc)" --timeout 600 -L gui-window || status=$?
  exit "$status"
fi

ASAN_DIR="${PE_VIZ_ASAN_BUILD_DIR:-$ROOT/build-asan}"
# Only what the pass runs (pe_headless_tests: unit tests, pe-viz, headless GUI-dir tests),
# in the clang tree the fuzzers share.
"$ROOT/scripts/sanitized_build.sh" pe_headless_tests

# Reports go to files as well as failing the process: a child pe-viz that a test expects
# to fail (bad input) must not pass by dying in a sanitizer. Any file here fails the pass.
LOG_DIR="$ASAN_DIR/sanitizer-reports"
rm -rf "$LOG_DIR"
mkdir -p "$LOG_DIR"
SUPP="$ROOT/tests/sanitizer"
export ASAN_OPTIONS="log_path=$LOG_DIR/asan:detect_leaks=1:detect_stack_use_after_return=1:strict_string_checks=1:check_initialization_order=1:verify_asan_link_order=0:exitcode=86"
export UBSAN_OPTIONS="log_path=$LOG_DIR/ubsan:print_stacktrace=1:halt_on_error=1:exitcode=86"
export LSAN_OPTIONS="suppressions=$SUPP/lsan.supp:print_suppressions=0:exitcode=86"
# Mesa's software driver keeps allocations in its static data until it is dlclose()d (at
# glfwTerminate, or eglTerminate for the EGL contexts offscreen work uses); once unmapped,
# LeakSanitizer calls them leaks of "<unknown module>" (no name to suppress). Preloading
# the driver keeps it mapped, so they stay reachable; every other leak is still reported.
# (Hence verify_asan_link_order=0 above.) Every *_dri.so is one hard-linked file, so this
# one preload also covers the name EGL loads it by.
export LIBGL_ALWAYS_SOFTWARE=1
DRI_PRELOAD="$(ls /usr/lib/*/dri/swrast_dri.so 2>/dev/null | head -n 1 || true)"

status=0
run_without_display env ${DRI_PRELOAD:+LD_PRELOAD="$DRI_PRELOAD"} \
  ctest --test-dir "$ASAN_DIR" --output-on-failure -j "$(nproc)" --timeout 900 -L 'unit|cli|headless' || status=$?
if compgen -G "$LOG_DIR/*" >/dev/null; then
  echo "scripts/test.sh --sanitize: sanitizer reports:" >&2
  for f in "$LOG_DIR"/*; do
    echo "==== $f" >&2
    cat "$f" >&2
  done
  status=1
fi
exit "$status"
