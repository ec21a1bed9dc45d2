#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan; in the tree the sanitizer test pass
# uses, scripts/sanitized_build.sh) and fuzzes each for a while.
# Exits non-zero on any crash, sanitizer report, leak, timeout or out-of-memory.
#
#   scripts/fuzz.sh [SECONDS]   fuzz each target SECONDS (default 20) on a temporary copy
#                               of its seed corpus; SECONDS = 0 only replays the seeds
#
# Targets (tests/fuzz/): fuzz_hf_config (config.json loader), fuzz_gguf (GGUF header
# reader and its RopeConfig mapping), fuzz_session (session files), fuzz_cli_params
# (command-line options), fuzz_prompt_spec (dump --prompt specs), fuzz_lesson (lesson
# Markdown files), fuzz_animation (--animate and animate: specs), fuzz_safetensors (the
# safetensors reader and the q/k measure), fuzz_gguf_tensors (GGUF tensor data, the ggml
# block decoders and the q/k measure), fuzz_safetensors_remote (the safetensors header read in
# ranges over HTTP, and the ranged q/k reading against the same bytes held whole),
# fuzz_hub_answers (the Hub's headers — RateLimit, Location, Content-Range, ETag, X-Error-Code
# — and a fetch through any answers). Seeds:
# tests/fuzz/corpus/<target>/, and assets/presets/*.json for fuzz_hf_config. Build dir:
# $PE_VIZ_ASAN_BUILD_DIR (default build-asan/); crash inputs are kept in
# <build dir>/fuzz-artifacts/. New corpus entries are discarded, so the repository is
# never modified. Reproduce a crash with
#   <build dir>/tests/fuzz/<target> <artifact file>
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${PE_VIZ_ASAN_BUILD_DIR:-$ROOT/build-asan}"
SECONDS_PER_TARGET="${1:-20}"
TARGETS=(fuzz_hf_config fuzz_gguf fuzz_session fuzz_cli_params fuzz_prompt_spec fuzz_lesson fuzz_animation fuzz_safetensors
         fuzz_gguf_tensors fuzz_safetensors_remote fuzz_hub_answers)

case "$SECONDS_PER_TARGET" in
  -h | --help) sed -n '2,22p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
  '' | *[!0-9]*) echo "scripts/fuzz.sh: SECONDS must be a whole number, got '$SECONDS_PER_TARGET'" >&2; exit 2 ;;
esac
if [[ $# -gt 1 ]]; then echo "scripts/fuzz.sh: one argument at most (try --help)" >&2; exit 2; fi

"$ROOT/scripts/sanitized_build.sh" "${TARGETS[@]}"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/pe-viz-fuzz.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
ARTIFACTS="$BUILD_DIR/fuzz-artifacts"
mkdir -p "$ARTIFACTS"
# Reports must stop the run with a stack; libFuzzer turns them into a non-zero exit.
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:symbolize=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"

failed=()
for target in "${TARGETS[@]}"; do
  corpus="$WORK/$target"
  mkdir -p "$corpus"
  cp "$ROOT/tests/fuzz/corpus/$target/"* "$corpus/"
  [[ "$target" == fuzz_hf_config ]] && cp "$ROOT/assets/presets/"*.json "$corpus/"
  args=(-timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$ARTIFACTS/$target-"
        -dict="$ROOT/tests/fuzz/dict/$target.dict")
  log="$WORK/$target.log"
  echo "== $target: $( [[ $SECONDS_PER_TARGET -eq 0 ]] && echo "replaying seeds" || echo "${SECONDS_PER_TARGET}s" )"
  status=0
  if [[ "$SECONDS_PER_TARGET" -eq 0 ]]; then
    "$BUILD_DIR/tests/fuzz/$target" "${args[@]}" "$corpus"/* >"$log" 2>&1 || status=$?
  else
    "$BUILD_DIR/tests/fuzz/$target" "${args[@]}" -max_total_time="$SECONDS_PER_TARGET" "$corpus" >"$log" 2>&1 || status=$?
  fi
  if [[ $status -ne 0 ]]; then
    failed+=("$target")
    # The report (sanitizer stack or invariant message) and where the input was saved.
    { grep -v '^#[0-9]' "$log" || true; } | tail -n 60 >&2
    echo "== $target FAILED (exit $status); input saved under $ARTIFACTS/" >&2
  else
    { grep -E '^#[0-9]+.*(DONE|INITED)|^stat::(number_of_executed_units|average_exec_per_sec|new_units_added)|^Executed' "$log" || true; } | tail -n 5
  fi
done

if [[ ${#failed[@]} -gt 0 ]]; then
  echo "scripts/fuzz.sh: failed: ${failed[*]}" >&2
  exit 1
fi
echo "scripts/fuzz.sh: ${#TARGETS[@]} targets, no crash"
