#!/usr/bin/env bash
# Configures (once) and builds the sanitized tree that both the sanitizer test pass
# (scripts/test.sh --sanitize) and the fuzzers (scripts/fuzz.sh) run from: clang, -O1 with
# line tables, ASan + UBSan everywhere, and libFuzzer's coverage hooks in the code under
# test (tests/fuzz/CMakeLists.txt). One tree instead of a gcc ASan build and a separate clang
# fuzz build halves the CI's compile time; clang also builds it faster than gcc.
#
#   scripts/sanitized_build.sh TARGET...   build TARGETs in $PE_VIZ_ASAN_BUILD_DIR
#                                          (default build-asan/)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${PE_VIZ_ASAN_BUILD_DIR:-$ROOT/build-asan}"
if [[ $# -eq 0 ]]; then echo "scripts/sanitized_build.sh: name the targets to build" >&2; exit 2; fi

command -v clang++ >/dev/null || "$ROOT/scripts/deps.sh"
command -v clang++ >/dev/null || { echo "scripts/sanitized_build.sh: clang++ not found (libFuzzer needs clang)" >&2; exit 1; }

if [[ -f "$BUILD_DIR/CMakeCache.txt" ]] && ! grep -q '^CMAKE_CXX_COMPILER:.*clang' "$BUILD_DIR/CMakeCache.txt"; then
  echo "scripts/sanitized_build.sh: $BUILD_DIR was configured with another compiler (the sanitized build" \
       "uses clang now); remove $BUILD_DIR or set PE_VIZ_ASAN_BUILD_DIR to another directory" >&2
  exit 1
fi
if [[ ! -f "$BUILD_DIR/CMakeCache.txt" ]]; then
  GENERATOR=()
  command -v ninja >/dev/null && GENERATOR=(-G Ninja)
  # -O1 keeps Eigen-heavy tests fast enough; no -DNDEBUG, so Eigen's and our asserts stay on.
  # Line tables are all a sanitizer stack needs, and full -g costs a fifth of the build.
  CC=clang CXX=clang++ cmake -S "$ROOT" -B "$BUILD_DIR" "${GENERATOR[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
    -DPE_VIZ_SANITIZE=ON -DPE_VIZ_FUZZ=ON -DPE_VIZ_BUILD_BENCH=OFF >/dev/null
fi
cmake --build "$BUILD_DIR" -j "$(nproc)" --target "$@"
