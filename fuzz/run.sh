#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each (default 20) on its committed corpus, one target per
# core at a time. A crash stops the run: libFuzzer saves the input under artifacts/TARGET/;
# minimise it (cargo fuzz tmin), add it to regressions/TARGET/ and fix the parser.
#   bash fuzz/run.sh              # what CI runs
#   SECONDS_EACH=600 bash fuzz/run.sh load json
set -euo pipefail
cd "$(dirname "$0")"
SECONDS_EACH=${SECONDS_EACH:-20}
# cargo-fuzz passes -Z flags: the stable toolchain accepts them when bootstrapping is allowed.
export RUSTC_BOOTSTRAP=1
command -v cargo-fuzz >/dev/null || cargo install --locked cargo-fuzz@0.13.2
targets=("$@")
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(cargo fuzz list)
cargo fuzz build --sanitizer none
jobs=$(nproc)
status=0
run() {
  local t=$1
  mkdir -p "corpus/$t"
  if cargo fuzz run --sanitizer none "$t" "corpus/$t" -- \
      -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
      -print_final_stats=1 >"artifacts-$t.log" 2>&1; then
    echo "fuzz $t: $(grep -E '^stat::number_of_executed_units' "artifacts-$t.log" | awk '{print $2}') runs, no crash"
  else
    echo "fuzz $t: FAILED"; tail -n 40 "artifacts-$t.log"; return 1
  fi
}
i=0
pids=()
for t in "${targets[@]}"; do
  run "$t" & pids+=($!)
  i=$((i + 1))
  if [ $((i % jobs)) -eq 0 ]; then
    for p in "${pids[@]}"; do wait "$p" || status=1; done
    pids=()
  fi
done
for p in "${pids[@]}"; do wait "$p" || status=1; done
rm -f artifacts-*.log
exit $status
