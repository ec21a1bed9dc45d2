#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan; in the tree the sanitizer test pass
# uses, scripts/sanitized_build.sh) and fuzzes each for a while, starting from its corpus.
# Exits non-zero on any crash, sanitizer report, leak, timeout or out-of-memory.
#
#   scripts/fuzz.sh [--no-merge] [SECONDS] [TARGET...]
#       fuzz each target (default: all) SECONDS (default 20), one after another, on a
#       temporary copy of its corpus; then merge what the run found back into the corpus
#       (minimised), unless --no-merge (CI's short runs). SECONDS = 0 only replays the corpus.
#
# Targets (tests/fuzz/): fuzz_hf_config (config.json loader), fuzz_gguf (GGUF header
# reader and its RopeConfig mapping), fuzz_session (session files), fuzz_cli_params
# (command-line options), fuzz_prompt_spec (dump --prompt specs), fuzz_lesson (lesson
# Markdown files), fuzz_animation (--animate and animate: specs), fuzz_safetensors (the
# safetensors reader and the q/k measure), fuzz_gguf_tensors (GGUF tensor data, the ggml
# block decoders and the q/k measure), fuzz_url_fragment (a page's link: parsed, applied to
# the state, written back), fuzz_safetensors_remote (the safetensors header read in ranges
# over HTTP, and the ranged q/k reading against the same bytes held whole), fuzz_hub_answers
# (the Hub's headers — RateLimit, Location, Content-Range, ETag, X-Error-Code — and a fetch
# through any answers).
#
# The corpus, tests/fuzz/corpus/<target>/, is what earlier long runs found worth keeping:
# the hand-made seeds (named for what they are; tests check some of them) and the inputs
# libFuzzer kept (named by their SHA-1). A merge keeps the seeds and replaces the found
# inputs with the smallest set (libFuzzer's -merge=1) that covers what the seeds, the found
# inputs and the new run reach beyond the seeds; fuzz_hf_config also starts from
# assets/presets/*.json, which stay out of the corpus. Build dir: $PE_VIZ_ASAN_BUILD_DIR
# (default build-asan/); crash inputs are kept in <build dir>/fuzz-artifacts/. Reproduce one
# with
#   <build dir>/tests/fuzz/<target> <artifact file>
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${PE_VIZ_ASAN_BUILD_DIR:-$ROOT/build-asan}"
ALL_TARGETS=(fuzz_hf_config fuzz_gguf fuzz_session fuzz_cli_params fuzz_prompt_spec fuzz_lesson fuzz_animation
             fuzz_safetensors fuzz_gguf_tensors fuzz_url_fragment fuzz_safetensors_remote fuzz_hub_answers)

merge=1
if [[ "${1:-}" == "--no-merge" ]]; then merge=0; shift; fi
SECONDS_PER_TARGET="${1:-20}"
case "$SECONDS_PER_TARGET" in
  -h | --help) sed -n '2,30p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
  '' | *[!0-9]*) echo "scripts/fuzz.sh: SECONDS must be a whole number, got '$SECONDS_PER_TARGET' (try --help)" >&2; exit 2 ;;
esac
shift || true
TARGETS=("$@")
[[ ${#TARGETS[@]} -eq 0 ]] && TARGETS=("${ALL_TARGETS[@]}")
for target in "${TARGETS[@]}"; do
  if [[ ! " ${ALL_TARGETS[*]} " == *" $target "* ]]; then
    echo "scripts/fuzz.sh: '$target' is no fuzz target (targets: ${ALL_TARGETS[*]})" >&2
    exit 2
  fi
done
[[ "$SECONDS_PER_TARGET" -eq 0 ]] && merge=0  # a replay finds nothing new

"$ROOT/scripts/sanitized_build.sh" "${TARGETS[@]}"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/pe-viz-fuzz.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
ARTIFACTS="$BUILD_DIR/fuzz-artifacts"
mkdir -p "$ARTIFACTS"
# Reports must stop the run with a stack; libFuzzer turns them into a non-zero exit.
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:symbolize=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"

is_found() { [[ "$(basename "$1")" =~ ^[0-9a-f]{40}$ ]]; }  # libFuzzer's name for an input it kept
bytes_of() { du -cb "$@" 2>/dev/null | tail -n 1 | cut -f 1; }

# Replaces the found inputs in the corpus with the smallest set that covers, beyond the
# hand-made seeds (and the presets), what the old found inputs and this run's corpus reach.
merge_back() {
  local target=$1 run_corpus=$2 binary=$3 repo="$ROOT/tests/fuzz/corpus/$1"
  local base="$WORK/$target.base" old="$WORK/$target.old" f
  mkdir -p "$base" "$old"
  for f in "$repo"/*; do
    if is_found "$f"; then cp "$f" "$old/"; else cp "$f" "$base/"; fi
  done
  [[ "$target" == fuzz_hf_config ]] && cp "$ROOT/assets/presets/"*.json "$base/"
  # With -merge=1 the first folder counts as covered already; inputs of the others that add
  # coverage are copied into it under their SHA-1.
  "$binary" -merge=1 -timeout=10 -rss_limit_mb=2048 "$base" "$old" "$run_corpus" >"$WORK/$target.merge.log" 2>&1 || {
    tail -n 20 "$WORK/$target.merge.log" >&2
    echo "== $target: merge failed; the corpus is left as it was" >&2
    return 1
  }
  rm -f "$old"/*
  for f in "$repo"/*; do is_found "$f" && rm -f "$f"; done
  for f in "$base"/*; do is_found "$f" && cp "$f" "$repo/"; done
  local files=("$repo"/*)
  echo "   corpus tests/fuzz/corpus/$target: ${#files[@]} files, $(bytes_of "${files[@]}") bytes"
}

failed=()
for target in "${TARGETS[@]}"; do
  corpus="$WORK/$target"
  mkdir -p "$corpus"
  cp "$ROOT/tests/fuzz/corpus/$target/"* "$corpus/"
  [[ "$target" == fuzz_hf_config ]] && cp "$ROOT/assets/presets/"*.json "$corpus/"
  binary="$BUILD_DIR/tests/fuzz/$target"
  args=(-timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$ARTIFACTS/$target-"
        -dict="$ROOT/tests/fuzz/dict/$target.dict")
  log="$WORK/$target.log"
  echo "== $target: $( [[ $SECONDS_PER_TARGET -eq 0 ]] && echo "replaying the corpus" || echo "${SECONDS_PER_TARGET}s from the corpus ($(ls "$corpus" | wc -l) inputs)" )"
  status=0
  if [[ "$SECONDS_PER_TARGET" -eq 0 ]]; then
    "$binary" "${args[@]}" "$corpus"/* >"$log" 2>&1 || status=$?
  else
    "$binary" "${args[@]}" -max_total_time="$SECONDS_PER_TARGET" "$corpus" >"$log" 2>&1 || status=$?
  fi
  if [[ $status -ne 0 ]]; then
    failed+=("$target")
    # The report (sanitizer stack or invariant message) and where the input was saved.
    { grep -v '^#[0-9]' "$log" || true; } | tail -n 60 >&2
    echo "== $target FAILED (exit $status); input saved under $ARTIFACTS/" >&2
    continue
  fi
  { grep -E '^#[0-9]+.*(DONE|INITED)|^stat::(number_of_executed_units|average_exec_per_sec|new_units_added)|^Executed' "$log" || true; } | tail -n 5
  if [[ $merge -eq 1 ]]; then merge_back "$target" "$corpus" "$binary" || failed+=("$target (merge)"); fi
done

if [[ ${#failed[@]} -gt 0 ]]; then
  echo "scripts/fuzz.sh: failed: ${failed[*]}" >&2
  exit 1
fi
echo "scripts/fuzz.sh: ${#TARGETS[@]} targets, no crash$( [[ $merge -eq 1 ]] && echo "; what they found is merged into tests/fuzz/corpus/ (git status shows it)")"
