#!/usr/bin/env bash
# README command 2: install what is missing, build, run the whole test suite
# offscreen (no display needed). Exits non-zero on any failure.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$repo/scripts/setup.sh"
build_dir=${CLUSTER_STUDIO_BUILD_DIR:-$repo/build}
export QT_QPA_PLATFORM=offscreen
ctest --test-dir "$build_dir" --output-on-failure --parallel "$(nproc)" "$@"

# CI also runs the suite under AddressSanitizer (with leak checks) and
# UBSan, in its own tree, and then fuzzes: about 40 and 10 minutes from
# scratch on 2 cores, after the Release tree's 20-odd, against CI's 90. Each
# stage runs only while the time it needs is left (SECONDS counts from this
# script's start), and says so when it is skipped: a passing Release suite
# must not turn into a CI timeout on a slow day.
ci_minutes=${CI_MINUTES:-90}
time_left_for() {  # STAGE MINUTES
  local used=$((SECONDS / 60))
  if [ $((used + $2)) -gt "$ci_minutes" ]; then
    echo "run-tests: skipping $1: it needs about $2 minutes and $used of CI's $ci_minutes are used" >&2
    return 1
  fi
}
if [ "${CI:-}" = "true" ] && time_left_for "the sanitizer suite" 50; then
  asan_dir=${build_dir%/}-asan
  if [ ! -f "$asan_dir/build.ninja" ] || ! grep -qx 'STUDIO_SANITIZE:BOOL=ON' "$asan_dir/CMakeCache.txt"; then
    cmake -S "$repo" -B "$asan_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSTUDIO_SANITIZE=ON
  fi
  cmake --build "$asan_dir" --parallel "$(nproc)"
  ctest --test-dir "$asan_dir" --output-on-failure --parallel "$(nproc)" "$@"

  # Then a minute of libFuzzer per harness of the core (docs/reliability.md):
  # the clang tree and six minutes of fuzzing two at a time, about 10
  # minutes on 2 cores. Any crash, sanitizer report, hang, NaN in an output
  # or validate/metrics disagreement fails the run.
  if time_left_for "the fuzzing" 15; then
    "$repo/scripts/run-fuzz.sh" 60
  fi
fi
