#!/usr/bin/env bash
# `make fuzz` / `scripts/fuzz.sh [target|all] [seconds]`: runs the importers' fuzz targets (fuzz/)
# one after the other, each for `seconds` (default 60) or, with FUZZ_RUNS=N, for N executions,
# and prints per target: executions, seconds, corpus size and crashes.
#
# libFuzzer needs compiler flags that only nightly Rust accepts; the stable toolchain is told to
# accept them with RUSTC_BOOTSTRAP=1 (for this build only). Allocations above 2 GiB and a resident
# size above 2 GiB count as crashes, so an input that makes an importer allocate by the span of
# its timestamps or a count it contains is found like a panic. No sanitizer: the engine forbids
# `unsafe`, and overflow checks and debug assertions stay on (cargo-fuzz's default build).
#
# Corpora grow in fuzz/corpus/<target> (not committed); they are seeded from testdata/ and from
# the small hand-written seeds in fuzz/seeds/<target>. Crash inputs land in
# fuzz/artifacts/<target>; replay one with `scripts/fuzz.sh <target> replay <file>`.
#
# Environment: FUZZ_RUNS (executions instead of a time budget), FUZZ_MAX_LEN (largest input,
# default 16384 bytes), CARGO_TARGET_DIR (default target/fuzz).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cd "$ROOT"

CARGO_FUZZ_VERSION="0.13.2"
TARGETS=(gateway_log demand_profile vllm_bench aiperf genai_perf guidellm load_test_folder
  metrics_scrape startup_log eval_set eval_run lm_eval run_context)
FUZZ="$ROOT/fuzz"
TD="$ROOT/testdata"
export RUSTC_BOOTSTRAP=1
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target/fuzz}"

ensure_cargo_fuzz() {
  if [ "$(cargo-fuzz --version 2>/dev/null | awk '{print $2}' || true)" = "$CARGO_FUZZ_VERSION" ]; then return; fi
  say "Installing cargo-fuzz $CARGO_FUZZ_VERSION into .tools (about a minute, once)"
  cargo install cargo-fuzz --version "$CARGO_FUZZ_VERSION" --locked --root "$TOOLS"
}

# Copies a seed into a corpus folder under a name that says where it came from.
seed() { local dir="$1" file="$2"; [ -f "$file" ] && cp "$file" "$dir/$(echo "${file#"$ROOT"/}" | tr '/' '_')"; }

# Fills fuzz/corpus/<target> with its seeds (once: a grown corpus is kept as it is).
prepare_corpus() {
  local t="$1" dir="$FUZZ/corpus/$1" f
  [ -d "$dir" ] && [ -n "$(ls -A "$dir")" ] && return
  mkdir -p "$dir"
  for f in "$FUZZ/seeds/$t"/*; do seed "$dir" "$f"; done
  case "$t" in
    gateway_log | demand_profile)
      for f in "$FUZZ/seeds/gateway_log"/* "$TD"/litellm/*.json; do seed "$dir" "$f"; done ;;
    vllm_bench)
      for f in "$TD"/er0080-vllm-benchmarking/*.json "$TD"/er0080-vllm-benchmarking/sweep_v0.25.1/*/*.json \
        "$TD"/nerdalert-*/results.json "$TD"/lambdalabs-vllm-benchmark/*.json; do seed "$dir" "$f"; done ;;
    aiperf)
      for f in "$TD"/aiperf-*/* "$TD"/akamaslabs-aiperf-sweep/*/*.json; do seed "$dir" "$f"; done ;;
    guidellm)
      # The real file is 3.9 MB of per-request records; three of them keep every shape.
      jq -c '.benchmarks[0].requests.successful |= .[:3]' "$TD/graz-dev-guidellm/benchmarks.json" \
        >"$dir/guidellm_three_requests.json" ;;
    load_test_folder)
      # A sweep folder as the target reads it: "path\nbytes" files separated by NUL bytes.
      (cd "$TD/er0080-vllm-benchmarking/sweep_v0.25.1" &&
        for f in */*.json; do printf '%s\n' "$f"; cat "$f"; printf '\0'; done) >"$dir/vllm_sweep_folder"
      (cd "$TD/akamaslabs-aiperf-sweep" &&
        for f in */*.json; do printf '%s\n' "$f"; cat "$f"; printf '\0'; done) >"$dir/aiperf_sweep_folder" ;;
    metrics_scrape)
      for f in "$TD"/er0080-vllm-benchmarking/metrics_*.txt; do seed "$dir" "$f"; done
      { cat "$TD/er0080-vllm-benchmarking/metrics_vllm_0_25_1_idle.txt"; printf '\0'
        cat "$TD/er0080-vllm-benchmarking/metrics_vllm_0_25_1_loaded.txt"; } >"$dir/idle_then_loaded" ;;
    lm_eval)
      for f in "$TD"/akamaslabs-lmeval/*.json; do seed "$dir" "$f"; done ;;
  esac
}

# Runs one target; prints its line of the summary.
run_target() {
  local t="$1" budget="$2" log limits
  prepare_corpus "$t"
  mkdir -p "$FUZZ/artifacts/$t"
  log="$(mktemp)"
  limits=(-rss_limit_mb=2048 -malloc_limit_mb=2048 -timeout=10 -max_len="${FUZZ_MAX_LEN:-16384}"
    -print_final_stats=1 -artifact_prefix="$FUZZ/artifacts/$t/")
  if [ -n "${FUZZ_RUNS:-}" ]; then limits+=(-runs="$FUZZ_RUNS"); else limits+=(-max_total_time="$budget"); fi
  local started=$SECONDS status=0
  (cd "$FUZZ" && cargo fuzz run -s none "$t" "$FUZZ/corpus/$t" -- "${limits[@]}") >"$log" 2>&1 || status=$?
  local seconds=$((SECONDS - started))
  local execs corpus crashes
  execs="$(awk '/stat::number_of_executed_units/ {print $2}' "$log" | tail -1)"
  corpus="$(ls "$FUZZ/corpus/$t" | wc -l)"
  crashes="$(ls "$FUZZ/artifacts/$t" | wc -l)"
  printf '%-18s %12s execs %6ss  corpus %6s  crash files %3s  exit %s\n' \
    "$t" "${execs:-?}" "$seconds" "$corpus" "$crashes" "$status"
  if [ "$status" != 0 ]; then
    grep -E "panicked|ERROR: libFuzzer|SUMMARY|Test unit written" "$log" | head -8 | sed 's/^/    /'
  fi
  cp "$log" "$CARGO_TARGET_DIR/fuzz-$t.log" 2>/dev/null || true
  rm -f "$log"
  return "$status"
}

command -v jq >/dev/null || die "jq is needed to seed the guidellm corpus (Debian: apt-get install jq)"
ensure_cargo_fuzz
which="${1:-all}"
budget="${2:-60}"

if [ "$budget" = "replay" ]; then
  [ -n "${3:-}" ] || die "usage: scripts/fuzz.sh <target> replay <crash-file>"
  cd "$FUZZ" && exec cargo fuzz run -s none "$which" "$3"
fi

say "Building the fuzz targets (cargo fuzz build, RUSTC_BOOTSTRAP=1)"
(cd "$FUZZ" && cargo fuzz build -s none)

if [ "$which" = "all" ]; then selected=("${TARGETS[@]}"); else selected=("$which"); fi
failed=0
say "Fuzzing ${selected[*]} (${FUZZ_RUNS:+$FUZZ_RUNS runs}${FUZZ_RUNS:-$budget s} each, one at a time)"
for t in "${selected[@]}"; do
  [[ " ${TARGETS[*]} " == *" $t "* ]] || die "unknown target $t (one of: ${TARGETS[*]})"
  run_target "$t" "$budget" || failed=1
done
exit "$failed"
