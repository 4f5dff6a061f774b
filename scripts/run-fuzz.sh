#!/usr/bin/env bash
# Fuzzes the core (docs/reliability.md): installs clang and libFuzzer when
# missing, builds the harnesses of tests/fuzz in build-fuzz/ (ASan and
# UBSan, no Qt), runs each for SECONDS (default 60) on its corpus, two at a
# time (FUZZ_JOBS), and exits non-zero on any finding, printing the input
# that found it.
#
#   scripts/run-fuzz.sh [SECONDS] [HARNESS...]
#
# Corpora grow in build-fuzz/fuzz-corpus/HARNESS across runs; findings land
# in build-fuzz/fuzz-findings/, logs in build-fuzz/fuzz-logs/. Reproduce a
# finding with build-fuzz/tests/fuzz/HARNESS FILE.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
seconds=${1:-60}
shift || true
build_dir=${CLUSTER_STUDIO_FUZZ_DIR:-$repo/build-fuzz}
jobs=${FUZZ_JOBS:-2}

# shellcheck source=scripts/install-packages.sh
. "$repo/scripts/install-packages.sh"
install_missing cmake ninja-build clang libclang-rt-14-dev nlohmann-json3-dev

if [ ! -f "$build_dir/build.ninja" ] || ! grep -qx 'STUDIO_FUZZ:BOOL=ON' "$build_dir/CMakeCache.txt"; then
  cmake -S "$repo" -B "$build_dir" -G Ninja -DSTUDIO_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++ \
    -DSTUDIO_WARNINGS_AS_ERRORS=ON
fi
cmake --build "$build_dir" --parallel "$(nproc)"

harnesses=(fuzz_design fuzz_set fuzz_catalog fuzz_kernels fuzz_serving fuzz_search fuzz_fragment)
[ $# -eq 0 ] || harnesses=("$@")

# Each harness starts from the inputs the repository holds for it (seeds,
# read-only) and its own corpus, which keeps what the runs found. The design
# files seed fuzz_design; the catalog, kernel-profile, --set and clipboard
# inputs that are no file elsewhere are tests/fuzz/corpus/HARNESS;
# fuzz_serving and fuzz_search start from the empty input, which is a
# shipped design as is.
seeds_for() {
  case $1 in
  fuzz_design)
    local dir=$build_dir/fuzz-seeds/fuzz_design
    rm -rf "$dir" && mkdir -p "$dir"
    cp "$repo"/presets/*.cluster.json "$repo"/tests/data/good/*.cluster.json "$repo"/tests/data/bad/*.cluster.json \
      "$repo"/tests/data/published/*.cluster.json "$dir"/
    echo "$dir"
    ;;
  fuzz_catalog)
    local dir=$build_dir/fuzz-seeds/fuzz_catalog
    rm -rf "$dir" && mkdir -p "$dir"
    cp "$repo"/tests/fuzz/corpus/fuzz_catalog/* "$repo"/resources/catalog.json "$dir"/
    echo "$dir"
    ;;
  *) [ ! -d "$repo/tests/fuzz/corpus/$1" ] || echo "$repo/tests/fuzz/corpus/$1" ;;
  esac
}

logs=$build_dir/fuzz-logs
findings=$build_dir/fuzz-findings
mkdir -p "$logs" "$findings"
# The structured harnesses read a value or two per field from their bytes:
# let inputs be long enough for every field from the start.
options_for() {
  case $1 in
  fuzz_serving | fuzz_search) echo "-max_len=256 -len_control=0" ;;
  esac
}

# True when the harness runs FILE within the timeout on its own, at the
# default priority, on one of three tries a few seconds apart: a hang never
# does; an input that only timed out because the nice 19 fuzzing was starved
# by other work does once that work pauses.
runs_in_time() {
  local try
  for try in 1 2 3; do
    "$1" -timeout=1 -rss_limit_mb=2048 "$2" >/dev/null 2>&1 && return 0
    sleep 5
  done
  return 1
}

# Fuzzes one harness for the whole budget. -timeout=1: an input that takes
# a second is a finding (a hang), not noise. But libFuzzer's clock is the
# wall's, and on a loaded machine (the nice 19 fuzzing yields to everything
# else) an input of 50 ms can pass a second: a timeout whose input runs in
# time alone (runs_in_time) is logged, set aside as *.load, and the fuzzing
# goes on from the grown corpus for the time left. Anything else stops the
# harness.
run_one() {
  local name=$1 corpus=$build_dir/fuzz-corpus/$1 seeds options log=$logs/$1.log
  seeds=$(seeds_for "$name")
  options=$(options_for "$name")
  mkdir -p "$corpus"
  : >"$log"
  local rc=0 deadline left unit
  deadline=$(($(date +%s) + seconds))
  while left=$((deadline - $(date +%s))); [ "$left" -gt 0 ]; do
    rc=0
    nice -n 19 "$build_dir/tests/fuzz/$name" -dict="$repo/tests/fuzz/cluster.dict" -timeout=1 -rss_limit_mb=2048 \
      -max_total_time="$left" -print_final_stats=1 -artifact_prefix="$findings/$name-" $options \
      "$corpus" ${seeds:+"$seeds"} >>"$log" 2>&1 || rc=$?
    [ "$rc" != 0 ] || break
    unit=$({ grep -o "Test unit written to .*/$name-timeout-[0-9a-f]*" "$log" || true; } | tail -n 1 |
      sed 's/Test unit written to //')
    [ -n "$unit" ] && [ -f "$unit" ] && runs_in_time "$build_dir/tests/fuzz/$name" "$unit" || break
    echo "run-fuzz: $unit runs in time alone: the machine was loaded, not a hang; fuzzing on" >>"$log"
    mv "$unit" "$unit.load"
    rc=0
  done
  echo "$rc" >"$logs/$name.rc"
}

for name in "${harnesses[@]}"; do
  [ -x "$build_dir/tests/fuzz/$name" ] || { echo "run-fuzz: no harness $name" >&2; exit 2; }
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  echo "run-fuzz: $name for ${seconds}s"
  run_one "$name" &
done
wait

failed=0
for name in "${harnesses[@]}"; do
  rc=$(cat "$logs/$name.rc")
  # Executions over every restart, and the last status line: coverage
  # (cov: edges, ft: features) and corpus.
  runs=$(awk '/^stat::number_of_executed_units:/ { n += $2 } END { print n + 0 }' "$logs/$name.log")
  printf '%-14s %s executions; %s\n' "$name" "$runs" "$(grep -E '^#[0-9]+' "$logs/$name.log" | tail -n 1)"
  if [ "$rc" != 0 ]; then
    failed=1
    echo "run-fuzz: FINDING in $name (exit $rc); log $logs/$name.log:" >&2
    grep -v -E '^#[0-9]+ |^INFO: ' "$logs/$name.log" | tail -n 60 >&2
    for f in $(grep -o "Test unit written to .*" "$logs/$name.log" | sed 's/Test unit written to //'); do
      [ -f "$f" ] || continue  # set aside as load
      echo "run-fuzz: the input, $f (reproduce: $build_dir/tests/fuzz/$name $f):" >&2
      head -c 4096 "$f" | od -A d -c | head -n 40 >&2
    done
  fi
done
exit "$failed"
